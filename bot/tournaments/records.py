"""An event's history as small frozen values: who entered, every game and bye of every round.

Scores follow FIDE: a win 1, a draw 1/2, a loss 0; a forfeit win 1 and a forfeit loss 0 (the
game was not played, so it is no pairing for tie-breaks that read games); a pairing-allocated
bye 1, a half-point bye 1/2 (asked for, or given on a late join), an absence 0.

>>> ann, bob, cy = Entrant(1, "ann", 1600), Entrant(2, "bob", 1500), Entrant(3, "cy", 1400)
>>> history = History((ann, bob, cy), (Pairing(1, 1, 2, "1-0"),), (Bye(1, 3, "pairing"),))
>>> [history.points(p.id) for p in history.entrants]
[1.0, 0.0, 1.0]
>>> history.opponents(1), history.rounds_played
((2,), 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

# A game's result; "F" marks a forfeit: the game was not played (an absent player).
Score = Literal["1-0", "0-1", "1/2-1/2", "1-0F", "0-1F", "0-0F"]
# A bye allocated by the pairing (1 point), a half-point bye (asked for, or a late join), an absence (0).
ByeKind = Literal["pairing", "half", "zero"]

POINTS: Final[dict[Score, tuple[float, float]]] = {  # (White's, Black's)
    "1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5),
    "1-0F": (1.0, 0.0), "0-1F": (0.0, 1.0), "0-0F": (0.0, 0.0),
}
BYE_POINTS: Final[dict[ByeKind, float]] = {"pairing": 1.0, "half": 0.5, "zero": 0.0}


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in the event: the storage's player id, the name shown, the rating at entry."""

    id: int
    name: str
    rating: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: White, Black, and the result once the game is over (None before)."""

    round: int
    white: int
    black: int
    result: Score | None = None

    @property
    def played(self) -> bool:
        """Whether the game was played over the board (a forfeit was not)."""
        return self.result is not None and not self.result.endswith("F")

    def points_of(self, player: int) -> float:
        """What ``player`` scored in this game (0 while it is not over)."""
        if self.result is None:
            return 0.0
        white, black = POINTS[self.result]
        return white if player == self.white else black

    def opponent_of(self, player: int) -> int:
        return self.black if player == self.white else self.white


@dataclass(frozen=True, slots=True)
class Bye:
    """A round a player did not play: a pairing-allocated bye, a half-point bye, or an absence."""

    round: int
    player: int
    kind: ByeKind


@dataclass(frozen=True, slots=True)
class History:
    """Everything that happened, in the order it happened: the ground every round is paired on."""

    entrants: tuple[Entrant, ...]
    pairings: tuple[Pairing, ...] = ()
    byes: tuple[Bye, ...] = ()
    withdrawn: frozenset[int] = frozenset()  # players who left (they keep their games)
    forbidden: frozenset[frozenset[int]] = field(default_factory=frozenset)  # pairs never to be paired

    @property
    def rounds_played(self) -> int:
        """The last round with a pairing or a bye (0 before the first)."""
        return max([p.round for p in self.pairings] + [b.round for b in self.byes], default=0)

    def points(self, player: int, *, through: int | None = None) -> float:
        """``player``'s score after round ``through`` (default: every round)."""
        last = self.rounds_played if through is None else through
        games = sum(p.points_of(player) for p in self.pairings
                    if p.round <= last and player in (p.white, p.black))
        return games + sum(BYE_POINTS[b.kind] for b in self.byes if b.round <= last and b.player == player)

    def games_of(self, player: int) -> tuple[Pairing, ...]:
        """``player``'s boards, in round order."""
        return tuple(sorted((p for p in self.pairings if player in (p.white, p.black)), key=lambda p: p.round))

    def opponents(self, player: int) -> tuple[int, ...]:
        """The opponents ``player`` met over the board, in round order (forfeits left out)."""
        return tuple(p.opponent_of(player) for p in self.games_of(player) if p.played)

    def active(self) -> tuple[Entrant, ...]:
        """The entrants still in the event."""
        return tuple(e for e in self.entrants if e.id not in self.withdrawn)
