"""The puzzle records of the storage API: puzzles, daily subscriptions, posts, attempts,
progress, streaks and scores. Import them from `storage.records` (or `storage`), which
re-exports them with the other records.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only annotations name it: `storage.records` imports this module
    from .records import Platform


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position with its solution, as UCI moves from `fen`."""

    id: str
    fen: str
    solution: tuple[str, ...]
    rating: int | None = None
    themes: tuple[str, ...] = ()
    source: str | None = None
    variant: str = "makruk"  # the member of the family (makruk.VARIANTS' Fairy-Stockfish names)


@dataclass(frozen=True, slots=True)
class Subscription:
    """A chat that gets a daily puzzle at a local time."""

    id: int
    platform: Platform
    channel: str
    local_time: time
    timezone: str  # IANA name, e.g. "Asia/Bangkok"
    language: str | None
    last_posted: date | None  # local date of the last daily post
    created: datetime


@dataclass(frozen=True, slots=True)
class PuzzlePost:
    """A puzzle shown in a chat: a daily post (with its local date) or an on-demand one."""

    id: int
    platform: Platform
    channel: str
    puzzle_id: str
    subscription_id: int | None
    local_date: date | None
    posted: datetime


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    """One player's tries at one post."""

    post_id: int
    player_id: int
    tries: int
    solved: bool
    first_at: datetime
    solved_at: datetime | None


@dataclass(frozen=True, slots=True)
class Streak:
    """Daily puzzles solved on consecutive local dates, per player and chat."""

    platform: Platform
    channel: str
    player_id: int
    current: int = 0
    best: int = 0
    last_date: date | None = None

    def current_on(self, today: date) -> int:
        """The streak still alive on `today` (solving today's puzzle is still possible).

        >>> Streak("line", "C1", 1, 3, 5, date(2026, 11, 29)).current_on(date(2026, 12, 1))
        0
        """
        if self.last_date is None or today - self.last_date > timedelta(days=1):
            return 0
        return self.current


@dataclass(frozen=True, slots=True)
class PuzzleProgress:
    """How far one player has got through one post's solution (opponent replies included)."""

    post_id: int
    player_id: int
    ply: int
    gave_up: bool
    updated: datetime


@dataclass(frozen=True, slots=True)
class PuzzleScore:
    """A leaderboard row of a chat's puzzles."""

    player_id: int
    display_name: str
    solved: int
    tries: int
