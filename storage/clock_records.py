"""The clock records of the storage API: a live game's time control and its clocks as of its
last move. Import them from `storage.records` (or `storage`), which re-exports them.

A correspondence game has neither (its limit is per move: `Game.move_seconds`, `deadline`).
A live game's clocks are stored as each side's time left and the moment it was measured, so a
restarted bot reads the same clocks: the running one has lost the time since `since`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:  # only annotations name them: `storage.records` imports this module
    from .records import Color, Game

# How a game is rated: ratings are kept per variant and per speed.
Speed = Literal["live", "correspondence"]
SPEEDS: Final[tuple[Speed, ...]] = ("live", "correspondence")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A Fischer clock: the time each side starts with and the time added after each move.

    >>> str(TimeControl(180, 2)), str(TimeControl(30, 1))
    ('3+2', '0.5+1')
    """

    initial: int  # seconds
    increment: int  # seconds

    def __post_init__(self) -> None:
        if self.initial < 0 or self.increment < 0 or self.initial + self.increment == 0:
            raise ValueError(f"no clock has {self.initial} s and {self.increment} s a move")

    def __str__(self) -> str:
        minutes = self.initial / 60
        return f"{minutes:g}+{self.increment}"


@dataclass(frozen=True, slots=True)
class Clocks:
    """Each side's time left, in milliseconds, as of `since` (the last move, or the start)."""

    white_ms: int
    black_ms: int
    since: datetime


# A side that does not make its first move of a live game within this aborts it...
FIRST_MOVE_SECONDS: Final = 30
# ...or, in a tournament's game, loses it by forfeit (docs/tournaments.md 2.8): a round is
# paired for everyone at once, so players get longer to come to the board.
TOURNAMENT_FIRST_MOVE_SECONDS: Final = 60


def first_move_seconds(game: Game) -> int:
    """The time a side of ``game`` has for its first move."""
    return TOURNAMENT_FIRST_MOVE_SECONDS if game.tournament_id is not None else FIRST_MOVE_SECONDS


@dataclass(frozen=True, slots=True)
class ClockState:
    """Both clocks of a live game at one moment, as a reply, a picture or the web board shows
    them: each side's time left, the side whose clock runs (None before that side's first move
    and once the game is over) and, while the side to move is yet to make its first move, the
    time it has left for it."""

    white_ms: int
    black_ms: int
    running: Color | None
    first_move_ms: int | None = None


def clock_state(game: Game, now: datetime) -> ClockState | None:
    """A live game's clocks at `now` (None for a correspondence game); pure, so that every
    reply, picture and page (the web board too) shows the same times.

    Each side's clock starts with its own first move; the running side has lost the time
    since the last move, never below zero.
    """
    if game.time_control is None or game.clocks is None:
        return None
    clocks = game.clocks
    times = {"w": clocks.white_ms, "b": clocks.black_ms}
    to_move = side_to_move(game)
    elapsed = max(0, int((now - clocks.since).total_seconds() * 1000))
    if game.status != "active":
        return ClockState(times["w"], times["b"], None)
    if not has_moved(game, to_move):
        return ClockState(times["w"], times["b"], None, max(0, first_move_seconds(game) * 1000 - elapsed))
    times[to_move] = max(0, times[to_move] - elapsed)
    return ClockState(times["w"], times["b"], to_move)


def side_to_move(game: Game) -> Color:
    """Whose turn it is, from the stored moves (the sides alternate in every variant, also
    while Sittuyin's pieces are placed)."""
    if game.moves:
        return "b" if game.moves[-1].by == "w" else "w"
    fields = game.start_fen.split()
    return "b" if len(fields) > 1 and fields[1] == "b" else "w"


def has_moved(game: Game, color: Color) -> bool:
    """Whether `color` has made a move in `game` (its clock has started)."""
    return any(move.by == color for move in game.moves)
