"""Swiss pairings by FIDE's Dutch system (C.04.3), each round paired again from the stored history.

The pairing itself is ``py4swiss``'s (behind ``_py4swiss.py``); here the history becomes its
input: pairing numbers by rating then id, each past round of each player as TRF writes it,
the players who are not in this round, and the organizer's forbidden pairs. Nothing else is
read, so the same history always gives the same pairing.

>>> field = tuple(Entrant(n, f"p{n}", 1600 - 10 * n) for n in range(1, 6))
>>> first = pair_round(History(field), 1, rounds_total=3)
>>> first
RoundPairing(round=1, boards=((1, 3), (4, 2)), bye=5)
>>> first.pairings[0], first.byes  # as records, to store with the round
(Pairing(round=1, white=1, black=3, result=None), (Bye(round=1, player=5, kind='pairing'),))
>>> played = History(field, (Pairing(1, 1, 3, "1-0"), Pairing(1, 4, 2, "1/2-1/2")), first.byes)
>>> pair_round(played, 2, rounds_total=3)  # the leaders meet, 5 with White; 2 has the bye now
RoundPairing(round=2, boards=((5, 1), (3, 4)), bye=2)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tournaments._py4swiss import Cell, pair_dutch
from bot.tournaments.records import Bye, Entrant, History, Pairing, Score

__all__ = ["RoundPairing", "Unpairable", "pair_round"]


class Unpairable(ValueError):
    """No pairing of this round avoids every rematch, second bye, forbidden pair and colour limit."""


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """A round's boards as (White, Black) player ids in board order, and who has the pairing-allocated bye."""

    round: int
    boards: tuple[tuple[int, int], ...]
    bye: int | None = None

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        """The boards as records, without results yet."""
        return tuple(Pairing(self.round, white, black) for white, black in self.boards)

    @property
    def byes(self) -> tuple[Bye, ...]:
        """The pairing-allocated bye as a record (none when the round has an even number of players)."""
        return () if self.bye is None else (Bye(self.round, self.bye, "pairing"),)


def pair_round(history: History, round: int, *, rounds_total: int) -> RoundPairing:
    """Pair ``round`` of a Swiss of ``rounds_total`` rounds after everything in ``history``.

    Every past game must have its result. Withdrawn players are not paired, nor those with a
    bye already recorded for ``round`` (a half-point bye asked for, an absence). Raises
    ``ValueError`` for a history that cannot be paired on, ``Unpairable`` when no pairing meets
    the absolute criteria (a small field that has met too often, or too many forbidden pairs).
    """
    _check(history, round, rounds_total)
    order = sorted(history.entrants, key=lambda e: (-e.rating, e.id))
    number = {entrant.id: n for n, entrant in enumerate(order, start=1)}
    table = _table(history, order, number, round)
    sitting_out = history.withdrawn | {b.player for b in history.byes if b.round == round}
    absent = {number[player] for player in sitting_out if player in number}
    forbidden = {(number[a], number[b]) for a, b in (sorted(pair) for pair in history.forbidden if len(pair) == 2)
                 if a in number and b in number}
    if len(absent) == len(order):
        return RoundPairing(round, ())
    pairs = pair_dutch(table, rounds_total=rounds_total, absent=absent, forbidden=forbidden)
    if pairs is None:
        raise Unpairable(f"round {round} of {rounds_total} cannot be paired without breaking an absolute criterion")
    player = {n: entrant.id for entrant, n in zip(order, range(1, len(order) + 1), strict=True)}
    boards = tuple((player[white], player[black]) for white, black in pairs if black)
    bye = next((player[white] for white, black in pairs if not black), None)
    return RoundPairing(round, boards, bye)


def _check(history: History, round: int, rounds_total: int) -> None:
    if not 1 <= round <= rounds_total:
        raise ValueError(f"round {round} is not one of 1..{rounds_total}")
    ids = {e.id for e in history.entrants}
    if len(ids) != len(history.entrants):
        raise ValueError("an entrant is listed twice")
    for pairing in history.pairings:
        if pairing.round >= round:
            raise ValueError(f"round {pairing.round} is already paired")
        if pairing.result is None:
            raise ValueError(f"round {pairing.round}: {pairing.white}-{pairing.black} has no result yet")
        if not {pairing.white, pairing.black} <= ids or pairing.white == pairing.black:
            raise ValueError(f"round {pairing.round}: {pairing.white}-{pairing.black} is not a pair of entrants")
    for bye in history.byes:
        if bye.round > round or (bye.round == round and bye.kind == "pairing"):
            raise ValueError(f"round {bye.round} is already paired")
        if bye.player not in ids:
            raise ValueError(f"round {bye.round}: a bye for {bye.player}, who is no entrant")
    seen = [(p.round, p.white) for p in history.pairings] + [(p.round, p.black) for p in history.pairings]
    seen += [(b.round, b.player) for b in history.byes]
    if len(set(seen)) != len(seen):
        raise ValueError("a player has two games or byes in one round")


# Each player's side of a result, as TRF writes it: (White's code, Black's code).
_CODES: dict[Score, tuple[str, str]] = {
    "1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="),
    "1-0F": ("+", "-"), "0-1F": ("-", "+"), "0-0F": ("-", "-"),
}
_BYE_CODES = {"pairing": "U", "half": "H", "zero": "Z"}


def _table(history: History, order: list[Entrant], number: dict[int, int], round: int) -> list[list[Cell]]:
    """Each player's rounds before ``round``; a round with no game and no bye is an absence (0 points)."""
    cells: dict[tuple[int, int], Cell] = {}
    for p in history.pairings:
        assert p.result is not None  # _check
        white_code, black_code = _CODES[p.result]
        cells[p.round, p.white] = (number[p.black], "w", white_code)
        cells[p.round, p.black] = (number[p.white], "b", black_code)
    for b in history.byes:
        if b.round < round:
            cells[b.round, b.player] = (0, "-", _BYE_CODES[b.kind])
    absence: Cell = (0, "-", "Z")
    return [[cells.get((r, e.id), absence) for r in range(1, round)] for e in order]
