"""open_storage: a SQLite file or a PostgreSQL database, by what the location looks like."""

from __future__ import annotations

import os
from typing import Final, overload

from . import postgres, sqlite
from ._common import BUSY_TIMEOUT_MS, MOVE_CACHE_SIZE, Clock, utc_now
from .base import Storage
from .sqlite import DEFAULT_DATABASE_PATH, SqliteStorage

URL_SCHEMES: Final = ("postgresql://", "postgres://")


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
