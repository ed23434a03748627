"""The puzzle trainer's records: Glicko-2 ratings of players and puzzles, each player's plays,
the runs of Streak, Storm and Race, and their leaderboards. Import them from `storage.records`
(or `storage`), which re-exports them with the other records.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # only annotations name them: `storage.records` imports this module
    from .puzzle_records import Puzzle
    from .records import Platform

RunMode = Literal["streak", "storm", "race"]
PlayResult = Literal["solved", "failed"]


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """A stored Glicko-2 rating (Glicko scale) and how many rated attempts made it."""

    rating: float
    deviation: float
    volatility: float
    count: int = 0


@dataclass(frozen=True, slots=True)
class PlayerPuzzleRating:
    """A player's puzzle rating; `rating` is None for a player without a rated attempt."""

    player_id: int
    rating: Glicko2Rating | None
    solved: int = 0


@dataclass(frozen=True, slots=True)
class RatedPuzzle:
    """A puzzle and its rating now: its Glicko-2 rating once played, else the bank's estimate."""

    puzzle: Puzzle
    rating: float


@dataclass(frozen=True, slots=True)
class PuzzlePlay:
    """A puzzle served to (or answered by) a player, and how their first try went."""

    player_id: int
    puzzle_id: str
    platform: Platform
    channel: str
    rated: bool
    result: PlayResult | None
    rating_before: float | None
    rating_after: float | None
    served: datetime
    answered: datetime | None


@dataclass(frozen=True, slots=True)
class PuzzleRun:
    """A Streak or Storm run of one player, or a chat's Race (`player_id` None).

    `seen` holds the run's puzzles so far; a run is changed by a compare-and-set on `version`.
    """

    id: int
    mode: RunMode
    platform: Platform
    channel: str
    player_id: int | None
    puzzle_id: str | None
    ply: int
    score: int
    combo: int
    best_combo: int
    mistakes: int
    skips: int
    seen: tuple[str, ...]
    started: datetime
    deadline: datetime | None
    ended: datetime | None
    version: int


@dataclass(frozen=True, slots=True)
class ModeScore:
    """A leaderboard row of a mode: a player's best score and how many runs they made."""

    player_id: int
    display_name: str
    best: int
    runs: int


@dataclass(frozen=True, slots=True)
class RaceScore:
    """A racer's points in one race."""

    player_id: int
    display_name: str
    score: int
