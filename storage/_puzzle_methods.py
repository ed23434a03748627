"""Storage's puzzle methods (storage/queries/puzzles.py): the puzzles, daily subscriptions, posts, tries,
progress and streaks; and the trainer's (storage/queries/puzzle_training.py): ratings, plays, reports
and the runs of Streak, Storm and Race."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time

from ._driver import Answer, Driver, answered
from .queries import puzzle_training as training
from .queries import puzzles
from .queries.puzzle_training import Rate
from .records import (
    Glicko2Rating,
    ModeScore,
    NewNotice,
    Platform,
    PlayerPuzzleRating,
    Puzzle,
    PuzzleAttempt,
    PuzzlePlay,
    PuzzlePost,
    PuzzleProgress,
    PuzzleRun,
    PuzzleScore,
    RaceScore,
    RatedPuzzle,
    RunMode,
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

    async def ship_puzzles(self, bank: Iterable[Puzzle]) -> int:
        """Store the shipped bank and retire every other stored puzzle: kept for the posts and
        attempts that name it (and still answerable where it is posted), served to nobody.
        Returns how many were retired now; a retired puzzle shipped again is served again."""
        return await self._write(puzzles.ship_puzzles(list(bank)))

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
        """A random puzzle this chat has not been shown, within the rating range, of the kind
        (counting race, other mate, material) the chat was shown least lately."""
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

    # The trainer: puzzles served near a player's rating, rated first tries, reports, runs

    async def puzzle_candidates(
        self, player_id: int | None, platform: Platform, channel: str, target: float, *,
        variant: str | None = None, theme: str | None = None, fresh: bool = True, limit: int = 12,
    ) -> list[RatedPuzzle]:
        """The `limit` puzzles rated nearest `target` (of `variant`, tagged `theme`), withheld and
        retired ones aside; `fresh`: only those never served to the player nor shown in the chat."""
        return await self._read(training.puzzle_candidates(player_id, platform, channel, target, variant, theme,
                                                           fresh, limit))

    async def rated_puzzle(self, puzzle_id: str) -> RatedPuzzle:
        """The puzzle and its rating now (NotFound if there is none)."""
        return await self._read(training.rated_puzzle(puzzle_id))

    async def serve_puzzle(
        self, platform: Platform, channel: str, player_id: int, puzzle_id: str, *, rated: bool,
        answer: Answer[PuzzlePost] | None = None,
    ) -> PuzzlePost:
        """Show the puzzle in the chat as its current one (record_extra_post), served to the player:
        their first try will count for the ratings if `rated`. PuzzleAlreadyPosted if the chat saw it."""
        now = self._time()
        return await self._write(answered(training.serve_puzzle(platform, channel, player_id, puzzle_id, rated, now),
                                          answer, now))

    async def get_play(self, player_id: int, puzzle_id: str) -> PuzzlePlay | None:
        """The player's play of the puzzle, if it was served to them or they answered it."""
        return await self._read(training.get_play(player_id, puzzle_id))

    async def settle_play(
        self, player_id: int, puzzle_id: str, platform: Platform, channel: str, *, solved: bool, rate: Rate,
        answer: Answer[tuple[PuzzlePlay, bool]] | None = None,
    ) -> tuple[PuzzlePlay, bool]:
        """Record the player's first try at the puzzle: (the play, True) when this was it, and then,
        if it was served rated, both ratings move by `rate` in the same transaction; later tries
        change nothing and return (the play, False)."""
        now = self._time()
        plan = training.settle_play(player_id, puzzle_id, platform, channel, solved, rate, now)
        return await self._write(answered(plan, answer, now))

    async def player_puzzle_rating(self, player_id: int) -> PlayerPuzzleRating:
        """The player's puzzle rating (`rating` None before their first rated try)."""
        return await self._read(training.player_rating(player_id))

    async def report_puzzle(self, puzzle_id: str, player_id: int, reason: str, *, threshold: int = 3) -> bool:
        """A player reports a puzzle; True when it is now withheld (`threshold` players reported
        it since its last review)."""
        return await self._write(training.report_puzzle(puzzle_id, player_id, reason, threshold, self._time()))

    async def withheld_puzzles(self) -> list[tuple[str, list[str]]]:
        """The withheld puzzles' ids, each with the reasons reported since its last review."""
        return await self._read(training.withheld_puzzles())

    async def review_puzzle(self, puzzle_id: str, *, withhold: bool) -> None:
        """Mark a puzzle's reports reviewed and serve it again (or keep it withheld)."""
        await self._write(training.review_puzzle(puzzle_id, withhold))

    async def start_run(
        self, mode: RunMode, platform: Platform, channel: str, player_id: int | None, puzzle_id: str, *,
        deadline: datetime | None = None, answer: Answer[PuzzleRun | None] | None = None,
    ) -> PuzzleRun | None:
        """Start a Streak or Storm run (a player's) or a Race (`player_id` None) on `puzzle_id`;
        None when one is going on already (then nothing is written)."""
        now = self._time()
        plan = training.start_run(mode, platform, channel, player_id, puzzle_id, deadline, now)
        return await self._write(answered(plan, answer, now))

    async def going_runs(self, platform: Platform, channel: str, player_id: int | None) -> list[PuzzleRun]:
        """The player's run going on in the chat, then the chat's race (either may be missing)."""
        return await self._read(training.going_runs(platform, channel, player_id))

    async def save_run(
        self, run: PuzzleRun, *, expected_version: int, point_to: int | None = None,
        answer: Answer[PuzzleRun] | None = None,
    ) -> PuzzleRun:
        """Store the run's new state by compare-and-set (VersionConflict when it changed); a race
        point to `point_to`; a run that `ended` puts its scores on the leaderboards."""
        now = self._time()
        return await self._write(answered(training.save_run(run, expected_version, point_to, now), answer, now))

    async def race_scores(self, run_id: int) -> list[RaceScore]:
        """The race's racers by points."""
        return await self._read(training.race_scores(run_id))

    async def mode_leaderboard(self, mode: RunMode, *, limit: int = 10) -> list[ModeScore]:
        """The best scores of a mode, highest first."""
        return await self._read(training.mode_leaderboard(mode, limit))

    async def mode_best(self, player_id: int, mode: RunMode) -> ModeScore | None:
        """The player's best score of a mode, if they made a run."""
        return await self._read(training.mode_best(player_id, mode))

    async def import_puzzle_history(
        self, players: Sequence[tuple[int, Glicko2Rating, Sequence[tuple[str, bool]]]],
        puzzles: Sequence[tuple[str, Glicko2Rating]] = (),
    ) -> int:
        """Write in bulk, in one transaction: each (player id, puzzle rating, [(puzzle id, solved)])
        and each (puzzle id, rating); plays already stored are kept. Returns the plays given."""
        return await self._write(training.import_history(players, puzzles, self._time()))
