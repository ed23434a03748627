"""Arena events as lichess runs them: the score of a player's games, and pairing whoever is waiting.

Scoring (lichess's arena rules): a win 2, a draw 1, a loss 0. Two wins in a row set a player on
fire: from the next game on, a win scores 4 and a draw 2, until a game is not won (the draw that
ends the streak is still doubled). A draw of fewer than 10 moves scores 0 and ends the streak.
Berserk (half the clock, no increment) adds 1 to a win of at least 7 moves, on top of the doubling.
A forfeit win (the opponent never came to the board) scores as a win of 0 moves and leaves the
streak as it was: it neither starts nor ends one; a forfeit loss is a loss.

Our reading of "moves" is lichess's: its server counts plies (half-moves), a draw of fewer than
20 plies is a quick draw and a berserk win needs at least 14, so a move is one move by each side.
:attr:`ArenaGame.moves` is the number of moves both sides completed, half the plies rounded down
(``ArenaGame.from_plies`` converts): a draw after 19 plies scores 0, after 20 it counts.

>>> arena_scores([ArenaGame("win", 30)] * 3).total
8
>>> arena_scores([ArenaGame("win", 5, berserk=True)]).points
(2,)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

Outcome = Literal["win", "draw", "loss"]

QUICK_DRAW_MOVES: Final = 10  # a draw of fewer moves scores nothing
BERSERK_MIN_MOVES: Final = 7  # a berserk win needs at least this many moves for its bonus
BASE: Final[dict[Outcome, int]] = {"win": 2, "draw": 1, "loss": 0}


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One finished game from one player's side: its outcome, its length in moves, whether they went berserk."""

    outcome: Outcome
    moves: int
    berserk: bool = False
    forfeit: bool = False  # decided without a game: the opponent (or the player) never moved

    @classmethod
    def from_plies(cls, outcome: Outcome, plies: int, berserk: bool = False) -> ArenaGame:
        """A game of ``plies`` half-moves: 20 plies are 10 moves, 13 plies only 6 (Black's seventh is missing).

        >>> ArenaGame.from_plies("draw", 19).moves, ArenaGame.from_plies("win", 13).moves
        (9, 6)
        """
        return cls(outcome, plies // 2, berserk)


@dataclass(frozen=True, slots=True)
class ArenaSheet:
    """A player's arena score: the points of each game in order, their sum, and whether they are on fire now."""

    points: tuple[int, ...]
    total: int
    on_fire: bool


def arena_scores(games: Sequence[ArenaGame]) -> ArenaSheet:
    """Score one player's finished games, in the order they were played.

    >>> arena_scores([ArenaGame(o, 40) for o in ("win", "win", "draw", "win")]).points
    (2, 2, 2, 2)
    >>> arena_scores([ArenaGame("win", 40, True), ArenaGame("win", 40), ArenaGame("win", 40, True)]).points
    (3, 2, 5)
    >>> arena_scores([ArenaGame("win", 40), ArenaGame("win", 0, forfeit=True), ArenaGame("win", 40)]).points
    (2, 2, 2)
    """
    points: list[int] = []
    wins_in_a_row = 0
    for game in games:
        on_fire = wins_in_a_row >= 2
        quick_draw = game.outcome == "draw" and game.moves < QUICK_DRAW_MOVES
        score = 0 if quick_draw else BASE[game.outcome] * (2 if on_fire else 1)
        if game.outcome == "win" and game.berserk and game.moves >= BERSERK_MIN_MOVES and not game.forfeit:
            score += 1
        points.append(score)
        if game.forfeit and game.outcome == "win":
            continue  # the streak stands: a game not played neither makes nor breaks it
        wins_in_a_row = wins_in_a_row + 1 if game.outcome == "win" else 0
    return ArenaSheet(tuple(points), sum(points), wins_in_a_row >= 2)


def pair_waiting(waiting: Sequence[int], ranks: Mapping[int, int],
                 last_opponent: Mapping[int, int]) -> list[tuple[int, int]]:
    """Pair the players waiting for a game, each with someone near in rank, never their last opponent.

    Players are taken from the best rank down (rank 1 is the leader; a player missing from
    ``ranks`` counts as last; equal ranks go by id); each is paired with the nearest in rank still
    free whose last game was not against them, as long as that leaves the others as many pairs as
    can be made. An immediate rematch is allowed only when exactly two players are waiting. Whoever
    is left (one of an odd number, at worst a few) waits for the next finished game. No randomness: the same
    inputs give the same pairs. Each pair is (better ranked, other); colours are decided elsewhere.

    >>> pair_waiting([5, 1, 2, 3], {1: 1, 2: 2, 3: 3, 5: 4}, {1: 2, 2: 1})
    [(1, 3), (2, 5)]
    >>> pair_waiting([1, 2], {1: 1, 2: 2}, {1: 2, 2: 1})
    [(1, 2)]
    """
    order = sorted(set(waiting), key=lambda p: (ranks.get(p, len(ranks) + 1), p))
    if len(order) == 2:
        return [(order[0], order[1])]
    for left_out in range(len(order) % 2, len(order) + 1, 2):
        pairs = _pair(order, left_out, last_opponent)
        if pairs is not None:
            return pairs
    return []  # not reached: leaving everyone out always succeeds


def _pair(free: list[int], left_out: int, last: Mapping[int, int]) -> list[tuple[int, int]] | None:
    """The pairs in which each player, best first, takes the nearest allowed partner, leaving exactly
    ``left_out`` players waiting (the lowest ranked, as far as possible); None if there are none."""
    if len(free) <= left_out:
        return [] if len(free) == left_out else None
    player, rest = free[0], free[1:]
    for i, other in enumerate(rest):
        if last.get(player) != other and last.get(other) != player:
            pairs = _pair(rest[:i] + rest[i + 1:], left_out, last)
            if pairs is not None:
                return [(player, other), *pairs]
    if left_out:
        return _pair(rest, left_out - 1, last)
    return None
