"""PostgresStorage: the Storage interface over a small asyncpg connection pool.

Each public method runs a plan (storage/queries, through PlanStorage) or one function of the
_games/_puzzles/_channels/
modules on one pooled connection: one statement, or one transaction of several.
Several processes may share the database; the compare-and-sets, the unique indexes and a few
locks keep them apart (see _games.py and queries/outbox.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import date, datetime, time
from typing import Any, Final, TypeVar

import asyncpg

from .._cache import MoveCache
from .._common import BUSY_TIMEOUT_MS, MOVE_CACHE_SIZE, Clock, utc_now
from .._plan import Plan
from .._rows import utc
from .._storage import PlanStorage
from ..errors import StorageError, StorageUnavailable
from ..records import (
    NO_CHANGES,
    ChannelSettings,
    ChatState,
    Game,
    GameChanges,
    NewGame,
    NewMove,
    NewNotice,
    Platform,
    Puzzle,
    PuzzleAttempt,
    PuzzlePost,
    PuzzleProgress,
    PuzzleScore,
    RatingUpdate,
    Streak,
    Subscription,
)
from . import _channels, _games, _puzzles, migrate
from ._sql import DATABASE_ERRORS, Connection, cause, connect_error, drive, is_away, redacted, storage_error

T = TypeVar("T")

# Connections per process: the bot's calls are short, and a server has a few hundred slots.
POOL_SIZE: Final = 10
CONNECT_TIMEOUT_S: Final = 10.0


async def open_storage(
    url: str,
    *,
    clock: Clock = utc_now,
    move_cache: int = MOVE_CACHE_SIZE,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    pool_size: int = POOL_SIZE,
) -> PostgresStorage:
    """Connect to the PostgreSQL database at `url`, create or upgrade its schema, and return
    it ready to use.

    Raises IncompatibleDatabase, leaving the database untouched, when it holds another
    application's tables or a schema newer than this code; StorageUnavailable (a StorageBusy:
    try again) when the server cannot be reached or is starting or stopping; StorageError when
    waiting will not help (no such database, a refused login). `busy_timeout_ms` is how long a
    call waits for a lock another transaction holds (or for a free connection) before it raises
    StorageBusy; `pool_size` is the most connections this storage opens.
    """
    where = redacted(url)
    wait_ms = max(1, busy_timeout_ms)  # 0 would mean "wait for ever" to PostgreSQL
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            timeout=CONNECT_TIMEOUT_S,
            server_settings={"lock_timeout": f"{wait_ms}ms", "application_name": "makruk-bot"},
            reset=_keep_session,
        )
    except DATABASE_ERRORS as error:
        raise connect_error(error, where) from error
    storage = PostgresStorage(pool, where, clock, move_cache, wait_ms)
    try:
        await storage._run(migrate.upgrade, where)
    except BaseException as error:
        await pool.close()
        lost = error.__cause__
        if isinstance(error, StorageError) and lost is not None and is_away(lost):
            # Each upgrade step is one transaction: done or not, trying again is safe.
            raise StorageUnavailable(where, cause(lost)) from lost
        raise
    return storage


async def _keep_session(conn: Connection) -> None:
    """What a connection going back to the pool needs undone: nothing. Calls set no session
    state (no SET, LISTEN or session-level lock), and asyncpg rolls back a transaction a
    cancelled call left open before this runs. The default reset costs a round trip per call."""


async def _in_transaction(conn: Connection, plan: Plan[T], options: dict[str, Any], synced: bool) -> T:
    async with conn.transaction(**options):
        if not synced:
            await conn.execute("SET LOCAL synchronous_commit = off")
        return await drive(conn, plan)


class PostgresStorage(PlanStorage):
    """Storage in a PostgreSQL database; open it with open_storage()."""

    def __init__(
        self, pool: Any, url: str, clock: Clock, move_cache: int, busy_timeout_ms: int
    ) -> None:
        self._pool = pool
        self.url = url  # without its password
        self._clock = clock
        self._moves = MoveCache(move_cache)
        self._acquire_timeout = busy_timeout_ms / 1000

    async def _run(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run `fn(connection, *args)` on a pooled connection. Database errors become
        StorageError (a lock or a connection not had in time: StorageBusy; a server that is
        away when a connection is made: StorageUnavailable), so that callers never see asyncpg."""
        conn = await self._connection()
        try:
            try:
                return await fn(conn, *args)
            finally:
                await self._pool.release(conn)
        except DATABASE_ERRORS as error:
            raise storage_error(error) from error

    async def _connection(self) -> Connection:
        """A pooled connection; the pool makes a new one when the one it held was lost."""
        try:
            return await self._pool.acquire(timeout=self._acquire_timeout)
        except TimeoutError as error:
            raise storage_error(error) from error  # no free connection in time: StorageBusy
        except DATABASE_ERRORS as error:
            # Nothing was sent, so "try again" is true here; a connection lost later is no
            # StorageBusy, since its COMMIT may have been done.
            raise connect_error(error, self.url) from error

    async def _write(self, plan: Plan[T], *, synced: bool = True) -> T:
        return await self._run(_in_transaction, plan, {}, synced)

    async def _read(self, plan: Plan[T]) -> T:
        return await self._run(drive, plan)

    async def _snapshot(self, plan: Plan[T]) -> T:
        return await self._run(_in_transaction, plan, {"isolation": "repeatable_read", "readonly": True}, True)

    def _now(self) -> datetime:
        return utc(self._clock())

    async def close(self) -> None:
        await self._pool.close()

    # Games

    async def create_game(self, new: NewGame, *, notices: Sequence[NewNotice] = ()) -> Game:
        return await self._run(_games.create_game, self._moves, new, list(notices), self._now())

    async def get_game(self, game_id: int) -> Game:
        return await self._run(_games.get_game, self._moves, game_id)

    async def active_game(self, platform: Platform, channel: str) -> Game | None:
        return await self._run(_games.active_game, self._moves, platform, channel)

    async def last_game(self, platform: Platform, channel: str) -> Game | None:
        return await self._run(_games.last_game, self._moves, platform, channel)

    async def append_move(
        self,
        game_id: int,
        expected_version: int,
        move: NewMove,
        changes: GameChanges = NO_CHANGES,
        *,
        ratings: Sequence[RatingUpdate] = (),
        notices: Sequence[NewNotice] = (),
    ) -> Game:
        return await self._run(
            _games.change_game, self._moves, game_id, expected_version, move, changes,
            list(ratings), list(notices), self._now(),
        )

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        changes: GameChanges,
        *,
        ratings: Sequence[RatingUpdate] = (),
        notices: Sequence[NewNotice] = (),
    ) -> Game:
        return await self._run(
            _games.change_game, self._moves, game_id, expected_version, None, changes,
            list(ratings), list(notices), self._now(),
        )

    async def undo_moves(
        self,
        game_id: int,
        expected_version: int,
        count: int,
        changes: GameChanges = NO_CHANGES,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> Game:
        return await self._run(
            _games.undo_moves, self._moves, game_id, expected_version, count, changes,
            list(notices), self._now(),
        )

    async def due_deadlines(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        return await self._run(_games.due_deadlines, utc(now), platform)

    async def due_reminders(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        return await self._run(_games.due_reminders, utc(now), platform)

    async def engine_games(self, platform: Platform | None = None) -> list[Game]:
        return await self._run(_games.engine_games, platform)

    async def due_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        return await self._run(_games.due_challenges, utc(before), platform)

    async def expire_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        return await self._run(_games.expire_challenges, utc(before), self._now(), platform)

    async def finished_games(
        self, player_id: int, *, limit: int = 20, before_id: int | None = None
    ) -> list[Game]:
        return await self._run(_games.finished_games, player_id, limit, before_id)

    async def channel_games(
        self, platform: Platform, channel: str, *, limit: int = 10, before_id: int | None = None
    ) -> list[Game]:
        return await self._run(_games.channel_games, platform, channel, limit, before_id)

    # Channel settings

    async def chat_state(self, platform: Platform, channel: str, user_id: str) -> ChatState:
        return await self._run(_channels.chat_state, self._moves, platform, channel, user_id)

    async def get_channel_settings(self, platform: Platform, channel: str) -> ChannelSettings:
        return await self._run(_channels.get_channel_settings, platform, channel)

    async def set_channel_settings(self, settings: ChannelSettings, *, notices: Sequence[NewNotice] = ()) -> None:
        await self._run(_channels.set_channel_settings, settings, list(notices), self._now())

    # Puzzles

    async def upsert_puzzles(self, puzzles: Iterable[Puzzle]) -> int:
        return await self._run(_puzzles.upsert_puzzles, list(puzzles))

    async def get_puzzle(self, puzzle_id: str) -> Puzzle:
        return await self._run(_puzzles.get_puzzle, puzzle_id)

    async def pick_puzzle(
        self,
        platform: Platform,
        channel: str,
        *,
        min_rating: int | None = None,
        max_rating: int | None = None,
    ) -> Puzzle | None:
        return await self._run(_puzzles.pick_puzzle, platform, channel, min_rating, max_rating)

    async def subscribe(
        self,
        platform: Platform,
        channel: str,
        local_time: time,
        timezone: str,
        language: str | None = None,
    ) -> Subscription:
        return await self._run(
            _puzzles.subscribe, platform, channel, local_time, timezone, language, self._now()
        )

    async def unsubscribe(self, platform: Platform, channel: str) -> bool:
        return await self._run(_puzzles.unsubscribe, platform, channel)

    async def get_subscription(self, platform: Platform, channel: str) -> Subscription | None:
        return await self._run(_puzzles.get_subscription, platform, channel)

    async def subscriptions(self) -> list[Subscription]:
        return await self._run(_puzzles.subscriptions)

    async def record_post(
        self,
        subscription_id: int,
        local_date: date,
        puzzle_id: str,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> PuzzlePost | None:
        return await self._run(
            _puzzles.record_post, subscription_id, local_date, puzzle_id, list(notices),
            self._now(),
        )

    async def record_extra_post(
        self, platform: Platform, channel: str, puzzle_id: str
    ) -> PuzzlePost:
        return await self._run(
            _puzzles.record_extra_post, platform, channel, puzzle_id, self._now()
        )

    async def get_post(self, post_id: int) -> PuzzlePost:
        return await self._run(_puzzles.get_post, post_id)

    async def latest_post(self, platform: Platform, channel: str) -> PuzzlePost | None:
        return await self._run(_puzzles.latest_post, platform, channel)

    async def posted_puzzle_ids(self, platform: Platform, channel: str) -> set[str]:
        return await self._run(_puzzles.posted_puzzle_ids, platform, channel)

    async def record_attempt(self, post_id: int, player_id: int, solved: bool) -> PuzzleAttempt:
        return await self._run(_puzzles.record_attempt, post_id, player_id, solved, self._now())

    async def get_attempt(self, post_id: int, player_id: int) -> PuzzleAttempt | None:
        return await self._run(_puzzles.get_attempt, post_id, player_id)

    async def get_streak(self, platform: Platform, channel: str, player_id: int) -> Streak:
        return await self._run(_puzzles.get_streak, platform, channel, player_id)

    async def puzzle_leaderboard(
        self,
        platform: Platform,
        channel: str,
        *,
        local_date: date | None = None,
        limit: int = 10,
    ) -> list[PuzzleScore]:
        return await self._run(_puzzles.puzzle_leaderboard, platform, channel, local_date, limit)

    async def recent_posts(
        self, platform: Platform, channel: str, *, limit: int = 10
    ) -> list[PuzzlePost]:
        return await self._run(_puzzles.recent_posts, platform, channel, limit)

    async def get_progress(self, post_id: int, player_id: int) -> PuzzleProgress | None:
        return await self._run(_puzzles.get_progress, post_id, player_id)

    async def save_progress(
        self, post_id: int, player_id: int, ply: int, *, gave_up: bool = False
    ) -> PuzzleProgress:
        return await self._run(
            _puzzles.save_progress, post_id, player_id, ply, gave_up, self._now()
        )

    # Webhook de-duplication

    async def mark_event_processed(self, event_id: str) -> bool:
        return await self._run(_channels.mark_event_processed, event_id, self._now())

    async def prune_events(self, before: datetime) -> int:
        return await self._run(_channels.prune_events, utc(before))
