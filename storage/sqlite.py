"""SqliteStorage: the Storage interface over one aiosqlite connection.

Each public method runs a plan (storage/queries, written once for both databases, through
PlanStorage) or one plain function from the _games/_puzzles/_channels
modules on the connection's worker thread. A whole transaction is a single call there,
so concurrent tasks never interleave statements, and a method costs one thread hop.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, time
from pathlib import Path
from time import monotonic, sleep
from typing import Any, Final, TypeVar

import aiosqlite

from . import _channels, _games, _puzzles, migrate
from ._cache import MoveCache
from ._common import BUSY_TIMEOUT_MS, MOVE_CACHE_SIZE, Clock, utc_now
from ._plan import Plan
from ._sql import drive, encode_clock, encode_time
from ._storage import PlanStorage
from .errors import StorageBusy, StorageError
from .records import (
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

T = TypeVar("T")

DEFAULT_DATABASE_PATH: Final = Path("makruk.db")
# SQLite's primary result codes for a file locked by another connection.
_SQLITE_BUSY: Final = 5
_SQLITE_LOCKED: Final = 6


async def open_storage(
    path: str | os.PathLike[str] = DEFAULT_DATABASE_PATH,
    *,
    clock: Clock = utc_now,
    move_cache: int = MOVE_CACHE_SIZE,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
) -> SqliteStorage:
    """Open the database at `path`, creating or upgrading it, and return it ready to use.

    Raises IncompatibleDatabase, leaving the file untouched, when it is not this
    project's database or is newer than this code. `clock` stamps created/updated/move
    times (tests pass a fake one); `move_cache` is how many games' move lists to keep in
    memory (0: none); `busy_timeout_ms` is how long a call waits for another writer's
    lock before it raises StorageBusy.
    """
    location = os.fspath(path)
    if location != ":memory:":
        Path(location).parent.mkdir(parents=True, exist_ok=True)
        # Read-only probe first: a foreign or newer file is refused before any write.
        try:
            await asyncio.to_thread(migrate.check_file, location)
        except sqlite3.Error as error:
            raise storage_error(error) from error
    try:
        db = await aiosqlite.connect(
            location, isolation_level=None, timeout=busy_timeout_ms / 1000
        )
    except sqlite3.Error as error:
        raise StorageError(f"cannot open {location}: {error}") from error
    storage = SqliteStorage(db, location, clock, move_cache)
    try:
        await storage._run(_prepare, location, busy_timeout_ms)
    except BaseException:
        await db.close()
        raise
    return storage


def storage_error(error: sqlite3.Error) -> StorageError:
    """The StorageError a database error stands for: StorageBusy for a lock that outlasted
    the busy timeout."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(error, sqlite3.OperationalError) and code is not None and (
        code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    ):
        return StorageBusy(str(error))
    return StorageError(str(error))


def _prepare(conn: sqlite3.Connection, location: str, busy_timeout_ms: int) -> None:
    # WAL lets readers run beside the writer; FULL syncs the WAL at every commit, so a
    # commit that returned survives a power cut too, not only a killed process.
    conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms:d}")
    _set_wal(conn, busy_timeout_ms)
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate.upgrade(conn, location)


def _set_wal(conn: sqlite3.Connection, busy_timeout_ms: int) -> None:
    """Switch the file to WAL. Two processes opening a new file at once can find it locked
    while the other switches; SQLite does not wait on the busy handler there (to avoid a
    deadlock), so this waits itself, up to the busy timeout."""
    deadline = monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if storage_error(error).__class__ is not StorageBusy or monotonic() >= deadline:
                raise
            sleep(0.01)


class SqliteStorage(PlanStorage):
    """Storage in one SQLite file; open it with open_storage()."""

    def __init__(
        self, db: aiosqlite.Connection, path: str, clock: Clock, move_cache: int
    ) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._moves = MoveCache(move_cache)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(raw_connection, *args)` on the worker thread; one hop per transaction.

        aiosqlite's public calls queue one statement each (a thread hop, ~0.1 ms here);
        its `_execute` queues a whole function. Database errors become StorageError (a
        lock held too long by another writer: StorageBusy) so that callers never see sqlite3.
        """
        try:
            result: T = await self._db._execute(  # type: ignore[no-untyped-call]
                fn, self._db._conn, *args
            )
            return result
        except sqlite3.Error as error:
            raise storage_error(error) from error

    async def _write(self, plan: Plan[T], *, synced: bool = True) -> T:
        return await self._run(drive, plan, "BEGIN IMMEDIATE", synced)

    async def _read(self, plan: Plan[T]) -> T:
        return await self._run(drive, plan, "BEGIN")

    _snapshot = _read  # a read transaction is one snapshot of the file

    def _now(self) -> str:
        return encode_time(self._clock())

    async def close(self) -> None:
        await self._db.close()

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
            _games.append_move, self._moves, game_id, expected_version, move, changes,
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
            _games.update_game, self._moves, game_id, expected_version, changes,
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
        return await self._run(_games.due_deadlines, encode_time(now), platform)

    async def due_reminders(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        return await self._run(_games.due_reminders, encode_time(now), platform)

    async def engine_games(self, platform: Platform | None = None) -> list[Game]:
        return await self._run(_games.engine_games, platform)

    async def due_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        return await self._run(_games.due_challenges, encode_time(before), platform)

    async def expire_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        return await self._run(
            _games.expire_challenges, encode_time(before), self._now(), platform
        )

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
            _puzzles.subscribe, platform, channel, encode_clock(local_time), timezone,
            language, self._now(),
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
        return await self._run(_channels.prune_events, encode_time(before))
