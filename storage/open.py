"""open_storage: a SQLite file or a PostgreSQL database, by what the location looks like;
wait_for_storage: the same, for a process starting while the database is away."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Final, overload

from . import postgres, sqlite
from ._common import BUSY_TIMEOUT_MS, MOVE_CACHE_SIZE, Clock, utc_now
from .base import Storage
from .errors import StorageBusy, StorageError, StorageUnavailable
from .sqlite import DEFAULT_DATABASE_PATH, SqliteStorage

URL_SCHEMES: Final = ("postgresql://", "postgres://")
# How long a starting process waits for a database that is away, and the pauses between its
# tries: doubling from the first to the longest.
WAIT_SECONDS: Final = 60.0
FIRST_PAUSE_S: Final = 0.25
LONGEST_PAUSE_S: Final = 5.0

Sleep = Callable[[float], Awaitable[None]]

_log = logging.getLogger(__name__)


def is_database_url(location: str | os.PathLike[str]) -> bool:
    """Whether `location` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


@overload
async def open_storage(
    location: os.PathLike[str] = ...,
    *,
    clock: Clock = ...,
    move_cache: int = ...,
    busy_timeout_ms: int = ...,
    pool_size: int = ...,
) -> SqliteStorage: ...


@overload
async def open_storage(
    location: str,
    *,
    clock: Clock = ...,
    move_cache: int = ...,
    busy_timeout_ms: int = ...,
    pool_size: int = ...,
) -> Storage: ...


async def open_storage(
    location: str | os.PathLike[str] = DEFAULT_DATABASE_PATH,
    *,
    clock: Clock = utc_now,
    move_cache: int = MOVE_CACHE_SIZE,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    pool_size: int = postgres.POOL_SIZE,
) -> Storage:
    """Open the database at `location`, creating or upgrading it, ready to use: PostgreSQL
    for a postgresql:// (or postgres://) URL, else the SQLite file at that path.

    Raises IncompatibleDatabase, leaving it untouched, for another application's database or
    one newer than this code. `clock` stamps created/updated/move times (tests pass a fake
    one); `move_cache` is how many games' move lists to keep in memory (0: none);
    `busy_timeout_ms` is how long a call waits for another writer's lock before it raises
    StorageBusy; `pool_size` is the most connections to PostgreSQL (SQLite has one).
    """
    if is_database_url(location):
        return await postgres.open_storage(
            os.fspath(location), clock=clock, move_cache=move_cache,
            busy_timeout_ms=busy_timeout_ms, pool_size=pool_size,
        )
    return await sqlite.open_storage(
        location, clock=clock, move_cache=move_cache, busy_timeout_ms=busy_timeout_ms
    )


async def wait_for_storage(
    location: str | os.PathLike[str],
    *,
    limit: float = WAIT_SECONDS,
    clock: Clock = utc_now,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    log: logging.Logger = _log,
    sleep: Sleep = asyncio.sleep,
    timer: Callable[[], float] = time.monotonic,
) -> Storage:
    """open_storage(location), tried again for up to `limit` seconds while the database is
    away: a PostgreSQL server down, starting or stopping (StorageUnavailable), or a file locked
    by another writer (StorageBusy). Each new try is logged at WARNING with its cause.

    After `limit` it raises StorageUnavailable (StorageBusy for SQLite) with a one-line message
    naming the cause and the wait. Anything else is raised at once, untried again: waiting
    does not mend another application's file (IncompatibleDatabase), a missing database or a
    refused login. The last try may start just before the limit and run past it (its connect
    timeout). `sleep` and `timer` are asyncio.sleep and time.monotonic; tests pass their own.
    """
    deadline = timer() + limit
    pause = FIRST_PAUSE_S
    while True:
        try:
            return await open_storage(location, clock=clock, busy_timeout_ms=busy_timeout_ms)
        except StorageBusy as error:
            left = deadline - timer()
            if left <= 0:
                raise _gave_up(error, limit) from error
            wait = min(pause, left)
            log.warning("%s; trying again in %g s (for up to %g s in all)", error, wait, limit)
            await sleep(wait)
            pause = min(pause * 2, LONGEST_PAUSE_S)


def _gave_up(error: StorageBusy, limit: float) -> StorageError:
    """The error a start-up that waited `limit` seconds in vain ends with."""
    if isinstance(error, StorageUnavailable):
        return StorageUnavailable(error.where, error.cause, waited=limit)
    return StorageBusy(f"still after {limit:g} s: {error.detail}")
