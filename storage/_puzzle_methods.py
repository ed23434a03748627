"""Storage's puzzle methods (storage/queries/puzzles.py): the puzzles, daily subscriptions, posts, tries,
progress and streaks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, time

from ._driver import Answer, Driver, answered
from .queries import puzzles
from .records import (
    NewNotice,
    Platform,
    Puzzle,
    PuzzleAttempt,
    PuzzlePost,
    PuzzleProgress,
    PuzzleScore,
    Streak,
    Subscription,
)

# upsert_puzzles's argument, named by Storage, hides the module there.
_upsert_puzzles = puzzles.upsert_puzzles


class PuzzleMethods(Driver):
    """Storage's puzzle methods."""

    # Puzzles

    async def upsert_puzzles(self, puzzles: Iterable[Puzzle]) -> int:
        """Insert or replace puzzles by id; returns how many were given."""
        return await self._write(_upsert_puzzles(list(puzzles)))

    async def get_puzzle(self, puzzle_id: str) -> Puzzle:
        """The puzzle with that id; NotFound if there is none."""
        return await self._read(puzzles.get_puzzle(puzzle_id))

    async def pick_puzzle(
        self,
        platform: Platform,
        channel: str,
        *,
        min_rating: int | None = None,
        max_rating: int | None = None,
    ) -> Puzzle | None:
        """A random puzzle this chat has not been shown, within the rating range."""
        return await self._read(puzzles.pick_puzzle(platform, channel, min_rating, max_rating))

    async def subscribe(
        self,
        platform: Platform,
        channel: str,
        local_time: time,
        timezone: str,
        language: str | None = None,
        *,
        answer: Answer[Subscription] | None = None,
    ) -> Subscription:
        """Start (or change) a chat's daily puzzle at `local_time` in `timezone` (and store
        `answer`'s notices with it)."""
        now = self._time()
        return await self._write(answered(puzzles.subscribe(platform, channel, local_time, timezone, language, now),
                                           answer, now))

    async def unsubscribe(self, platform: Platform, channel: str, *, answer: Answer[bool] | None = None) -> bool:
        """Stop a chat's daily puzzle; False if it was not subscribed (`answer` as create_game's)."""
        return await self._write(answered(puzzles.unsubscribe(platform, channel), answer, self._time()))

    async def get_subscription(self, platform: Platform, channel: str) -> Subscription | None:
        """The chat's active subscription, if any."""
        return await self._read(puzzles.get_subscription(platform, channel))

    async def subscriptions(self) -> list[Subscription]:
        """Every active subscription."""
        return await self._read(puzzles.subscriptions())

    async def record_post(
        self,
        subscription_id: int,
        local_date: date,
        puzzle_id: str,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> PuzzlePost | None:
        """Claim the day's daily post for a subscription, with its `notices`.

        Returns the new post, or None when that subscription already has a post for
        `local_date` (then nothing is written, notices neither, and nothing should be
        sent). Raises PuzzleAlreadyPosted if the chat has seen that puzzle before (and
        writes nothing).
        """
        return await self._write(puzzles.record_post(subscription_id, local_date, puzzle_id, list(notices),
                                                     self._time()))

    async def record_extra_post(
        self, platform: Platform, channel: str, puzzle_id: str, *, answer: Answer[PuzzlePost] | None = None
    ) -> PuzzlePost:
        """Record a puzzle shown on demand (not the daily one; `answer` as create_game's)."""
        now = self._time()
        return await self._write(answered(puzzles.record_extra_post(platform, channel, puzzle_id, now), answer, now))

    async def get_post(self, post_id: int) -> PuzzlePost:
        """The post with that id; NotFound if there is none."""
        return await self._read(puzzles.get_post(post_id))

    async def latest_post(self, platform: Platform, channel: str) -> PuzzlePost | None:
        """The chat's most recent puzzle post: the one answers refer to."""
        return await self._read(puzzles.latest_post(platform, channel))

    async def posted_puzzle_ids(self, platform: Platform, channel: str) -> set[str]:
        """Ids of every puzzle the chat has been shown."""
        return await self._read(puzzles.posted_puzzle_ids(platform, channel))

    async def record_attempt(self, post_id: int, player_id: int, solved: bool, *, progress: int | None = None,
                             answer: Answer[PuzzleAttempt] | None = None) -> PuzzleAttempt:
        """Count one try at a post; the first solve of a daily post extends the streak.

        Tries after the post is solved change nothing. With `progress`, the player's place
        in the solution is saved in the same transaction (`answer` as create_game's).
        """
        now = self._time()
        return await self._write(answered(puzzles.record_attempt(post_id, player_id, solved, now, progress),
                                           answer, now))

    async def get_attempt(self, post_id: int, player_id: int) -> PuzzleAttempt | None:
        """A player's attempt at a post, if any."""
        return await self._read(puzzles.get_attempt(post_id, player_id))

    async def get_streak(self, platform: Platform, channel: str, player_id: int) -> Streak:
        """A player's daily-puzzle streak in a chat (zeros if none)."""
        return await self._read(puzzles.get_streak(platform, channel, player_id))

    async def puzzle_leaderboard(
        self,
        platform: Platform,
        channel: str,
        *,
        local_date: date | None = None,
        limit: int = 10,
    ) -> list[PuzzleScore]:
        """Who solved most in the chat (fewest tries first); one day's daily post if dated."""
        return await self._read(puzzles.puzzle_leaderboard(platform, channel, local_date, limit))

    async def recent_posts(
        self, platform: Platform, channel: str, *, limit: int = 10
    ) -> list[PuzzlePost]:
        """The chat's latest puzzle posts, newest first."""
        return await self._read(puzzles.recent_posts(platform, channel, limit))

    async def get_progress(self, post_id: int, player_id: int) -> PuzzleProgress | None:
        """How far a player has got through a post's solution, if they started."""
        return await self._read(puzzles.get_progress(post_id, player_id))

    async def save_progress(
        self, post_id: int, player_id: int, ply: int, *, gave_up: bool = False,
        answer: Answer[PuzzleProgress] | None = None,
    ) -> PuzzleProgress:
        """Record a player's place in a post's solution (and whether they gave up; `answer`
        as create_game's)."""
        now = self._time()
        return await self._write(answered(puzzles.save_progress(post_id, player_id, ply, gave_up, now), answer, now))
