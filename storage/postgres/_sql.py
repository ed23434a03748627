"""Helpers shared by the PostgreSQL query modules: the connection type, errors, row counts."""

from __future__ import annotations

import asyncio
from typing import Any, Final, TypeAlias
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from ..errors import StorageBusy, StorageError

# asyncpg has no type hints: its connection is Any to mypy, named here for the reader.
Connection: TypeAlias = Any

# What asyncpg raises: the server's errors, the client's, and the network's.
DATABASE_ERRORS: Final = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)
# SQLSTATEs that mean "busy, try again": a lock wait past lock_timeout, a deadlock, a
# serialization failure, a statement cancelled by a timeout, no connection slot free, a
# server starting or stopping.
_BUSY_STATES: Final = frozenset({"55P03", "40P01", "40001", "57014", "53300", "57P03"})


def storage_error(error: BaseException) -> StorageError:
    """The StorageError a database error stands for: StorageBusy for a lock or a connection
    that was not to be had in time."""
    if isinstance(error, asyncio.TimeoutError):
        return StorageBusy("no free database connection in time")
    if getattr(error, "sqlstate", None) in _BUSY_STATES:
        return StorageBusy(str(error))
    return StorageError(str(error) or type(error).__name__)


def affected(status: str) -> int:
    """The row count of a command status such as "DELETE 3" or "INSERT 0 1"."""
    return int(status.rsplit(" ", 1)[-1])


def redacted(url: str) -> str:
    """`url` without its password, fit for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
