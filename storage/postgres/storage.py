"""PostgresStorage: the Storage interface over a small asyncpg connection pool.

The methods are Storage's (storage/base.py and its mixins): plans of storage/queries, written once
for both databases, which this class runs on a pooled connection (`_write`, `_read`,
`_snapshot`), but for the two calls every chat message makes, which take PostgreSQL's own
one-statement forms (_fast.py). Several processes may share the database; the
compare-and-sets, the unique indexes and a few locks keep them apart (queries/games.py,
queries/outbox.py, queries/inbox.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import asyncpg

from .._cache import MoveCache
from .._common import BUSY_TIMEOUT_MS, MOVE_CACHE_SIZE, Clock, utc_now
from .._plan import Plan
from ..base import Storage
from ..errors import StorageError, StorageUnavailable
from ..records import (
    ChatState,
    Game,
    GameChanges,
    NewMove,
    NewNotice,
    Platform,
    RatingUpdate,
)
from . import _fast, migrate
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


class PostgresStorage(Storage):
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


    # The calls every chat message makes, in one statement each where they can be (_fast.py).

    async def chat_state(self, platform: Platform, channel: str, user_id: str, game_id: int | None = None) -> ChatState:
        return await self._run(_fast.chat_state, self._moves, platform, channel, user_id, game_id)

    async def _change(self, game_id: int, expected_version: int, move: NewMove | None, changes: GameChanges,
                      ratings: list[RatingUpdate], notices: list[NewNotice]) -> Game:
        before = self._moves.get(game_id, expected_version)
        if before is None or ratings:
            return await super()._change(game_id, expected_version, move, changes, ratings, notices)
        return await self._changing(game_id, self._run(_fast.change_game, before, game_id, expected_version, move,
                                                       changes, notices, self._time()))

    async def close(self) -> None:
        await self._pool.close()

