"""PostgresStorage: the Storage interface over a small asyncpg connection pool.

Each public method runs a plan (storage/queries, through PlanStorage) or one function of the
_games/_channels/_outbox/
_leases modules on one pooled connection: one statement, or one transaction of several.
Several processes may share the database; the compare-and-sets, the unique indexes and a few
locks keep them apart (see _games.py and _outbox.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Final, TypeVar

import asyncpg

from .._cache import MoveCache
from .._common import BUSY_TIMEOUT_MS, MOVE_CACHE_SIZE, Clock, utc_now
from .._plan import Duplicate, Plan
from .._rows import utc
from .._storage import PlanStorage
from ..errors import StorageError, StorageUnavailable
from ..queries import games
from ..records import (
    ChatState,
    Game,
    GameChanges,
    NewEvent,
    NewMove,
    NewNotice,
    NoticeCounts,
    OutboxNotice,
    Platform,
    RatingUpdate,
    Taken,
)
from . import _fast, _inbox, _leases, _outbox, migrate
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

    # The calls every chat message makes, in one statement each where they can be (_fast.py).

    async def chat_state(self, platform: Platform, channel: str, user_id: str) -> ChatState:
        return await self._run(_fast.chat_state, self._moves, platform, channel, user_id)

    async def _change(self, game_id: int, expected_version: int, move: NewMove | None, changes: GameChanges,
                      ratings: list[RatingUpdate], notices: list[NewNotice]) -> Game:
        before = self._moves.get(game_id, expected_version)
        if before is None or ratings:
            return await super()._change(game_id, expected_version, move, changes, ratings, notices)
        try:
            return await self._run(_fast.change_game, self._moves, before, game_id, expected_version, move, changes,
                                   notices, self._time())
        except Duplicate as error:
            raise await self._read(games.channel_busy("", "", game_id)) from error

    async def close(self) -> None:
        await self._pool.close()


    # The inbox

    async def receive_events(self, events: Sequence[NewEvent]) -> list[str]:
        return await self._run(_inbox.receive_events, list(events), self._now())

    async def take_event(
        self, platform: Platform, channel: str, holder: str, *, finished: int | None = None,
        shown: Sequence[str] = (), stale_before: datetime,
    ) -> Taken:
        return await self._run(
            _inbox.take_event, platform, channel, holder, finished, list(shown), utc(stale_before), self._now()
        )

    async def event_holders(self, prefix: str) -> set[str]:
        return await self._run(_inbox.event_holders, prefix)

    async def release_started_events(self, holder: str) -> list[str]:
        return await self._run(_inbox.release_started_events, holder)

    async def give_back_event(self, event: int, holder: str) -> None:
        await self._run(_inbox.give_back_event, event, holder)

    async def waiting_chats(
        self, platform: Platform, *, received_before: datetime, stale_before: datetime, limit: int = 100
    ) -> list[str]:
        return await self._run(
            _inbox.waiting_chats, platform, utc(received_before), utc(stale_before), limit
        )

    # Leases

    async def claim(self, names: Sequence[str], holder: str, *, until: datetime) -> set[str]:
        return await self._run(_leases.claim, list(names), holder, utc(until), self._now())

    async def release(self, names: Sequence[str], holder: str) -> None:
        await self._run(_leases.release, list(names), holder)

    async def lease_holders(self, prefix: str) -> set[str]:
        return await self._run(_leases.lease_holders, prefix, self._now())

    async def release_holder(self, holder: str) -> int:
        return await self._run(_leases.release_holder, holder)

    # The outbox

    async def add_notices(self, notices: Sequence[NewNotice]) -> None:
        await self._run(_outbox.add_notices, list(notices), self._now())

    async def due_notices(
        self, platform: Platform, now: datetime, *, limit: int = 100
    ) -> list[OutboxNotice]:
        return await self._run(_outbox.due_notices, platform, utc(now), limit)

    async def notices_with_keys(self, keys: Sequence[str]) -> list[OutboxNotice]:
        return await self._run(_outbox.notices_with_keys, list(keys))

    async def pending_notices(self, platform: Platform, channel: str) -> list[OutboxNotice]:
        return await self._run(_outbox.pending_notices, platform, channel)

    async def mark_notices_sent(self, keys: Sequence[str]) -> None:
        await self._run(_outbox.mark_notices_sent, list(keys), self._now())

    async def retry_notice(
        self, key: str, *, due: datetime, error: str, count: bool = True
    ) -> None:
        await self._run(_outbox.retry_notice, key, utc(due), error, count)

    async def bury_notice(self, key: str, *, error: str) -> None:
        await self._run(_outbox.bury_notice, key, error, self._now())

    async def notice_counts(self, platform: Platform | None = None) -> NoticeCounts:
        return await self._run(_outbox.notice_counts, platform)

    async def prune_notices(self, before: datetime) -> int:
        return await self._run(_outbox.prune_notices, utc(before))
