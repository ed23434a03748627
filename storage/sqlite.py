"""SqliteStorage: the Storage interface over one aiosqlite connection.

The methods are Storage's (storage/base.py and its mixins): plans of storage/queries, written once
for both databases, which this class runs on the connection's worker thread, a whole
transaction in one call (`_sql.drive`), so concurrent tasks never interleave statements and
a method costs one thread hop.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from time import monotonic, sleep
from typing import Any, Final, TypeVar

import aiosqlite

from . import migrate
from ._cache import MoveCache
from ._common import BUSY_TIMEOUT_MS, MOVE_CACHE_SIZE, Clock, utc_now
from ._plan import Plan
from ._sql import drive
from .base import Storage
from .errors import StorageBusy, StorageError

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


class SqliteStorage(Storage):
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


    async def close(self) -> None:
        await self._db.close()

