"""PostgreSQL's driver: how a plan runs on an asyncpg connection, the errors, row counts."""

from __future__ import annotations

import asyncio
import os
import socket
from functools import lru_cache
from typing import Any, Final, TypeAlias, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .._plan import Duplicate, Plan
from ..errors import StorageBusy, StorageError, StorageUnavailable

T = TypeVar("T")

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
# serialization failure, a statement cancelled by a timeout.
_BUSY_STATES: Final = frozenset({"55P03", "40P01", "40001", "57014"})
# SQLSTATEs of a server that refuses a new connection for now: starting up, in recovery or
# shutting down (57P03), shut down or crashed during the handshake (57P01, 57P02), no
# connection slot free (53300).
_AWAY_STATES: Final = frozenset({"57P03", "57P01", "57P02", "53300"})


def storage_error(error: BaseException) -> StorageError:
    """The StorageError a database error stands for: StorageBusy for a lock or a connection
    that was not to be had in time."""
    if isinstance(error, asyncio.TimeoutError):
        return StorageBusy("no free database connection in time")
    if getattr(error, "sqlstate", None) in _BUSY_STATES:
        return StorageBusy(str(error))
    return StorageError(str(error) or type(error).__name__)


def connect_error(error: BaseException, where: str) -> StorageError:
    """The StorageError for a connection to `where` that could not be made. Nothing was sent,
    so a server that is away (refused, no answer, starting, stopping) is StorageUnavailable:
    try again. A missing database or a refused login is a plain StorageError: waiting will
    not help."""
    if is_away(error):
        return StorageUnavailable(where, cause(error))
    return StorageError(f"cannot connect to the database at {where} ({cause(error)})")


def is_away(error: BaseException) -> bool:
    """Whether `error` is a server that is not there for now (no answer, refused, starting,
    stopping, full) or a connection it cut."""
    return isinstance(error, asyncio.TimeoutError | OSError | asyncpg.PostgresConnectionError) or (
        getattr(error, "sqlstate", None) in _AWAY_STATES
    )


def cause(error: BaseException) -> str:
    """What went wrong, in a few words: "connection refused", "the database system is
    starting up", "no answer in time"."""
    if isinstance(error, asyncio.TimeoutError):
        return "no answer in time"
    if isinstance(error, socket.gaierror):
        return f"unknown host: {error.strerror}"
    if isinstance(error, OSError) and error.errno:
        return os.strerror(error.errno).lower()
    # The server's message and its detail on one line (str() puts the detail on a line of its own).
    text = getattr(error, "message", None) or str(error) or type(error).__name__
    detail = getattr(error, "detail", None)
    return " ".join(f"{text}: {detail}".split() if detail else text.split())


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


# --- running plans (see storage/_plan.py) -------------------------------------------------------

_LOCK: Final = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"


@lru_cache(maxsize=512)
def pg_text(text: str) -> str:
    """A plan's SQL as PostgreSQL takes it: its `?` numbered `$1, $2, ...`, its dialect words spelt."""
    parts = text.replace("{for_update}", "FOR UPDATE").split("?")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, 1))


async def drive(conn: Connection, plan: Plan[T]) -> T:
    """Run `plan`'s statements on `conn`, in the caller's transaction if any. A broken UNIQUE
    constraint is Duplicate."""
    try:
        step = next(plan)
        while True:
            if step.kind == "rows":
                result: Any = await conn.fetch(pg_text(step.text), *step.args)
            elif step.kind == "count":
                result = affected(await conn.execute(pg_text(step.text), *step.args))
            elif step.kind == "many":
                await conn.executemany(pg_text(step.text), step.args)
                result = None
            else:
                await conn.execute(_LOCK, step.text)
                result = None
            step = plan.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    except asyncpg.UniqueViolationError as error:
        raise Duplicate(str(error)) from error
    finally:
        plan.close()
