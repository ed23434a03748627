"""SQLite's driver: how a plan runs on the worker thread, and how values are stored.

Times are stored as fixed-width UTC ISO-8601 text ("2026-11-30T09:15:00.000000Z") so that
text order is time order and indexes on them work; dates as "YYYY-MM-DD", times as "HH:MM".
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import date, datetime, time
from functools import lru_cache
from typing import Any, Final, TypeVar

from ._plan import Duplicate, Plan
from ._rows import utc

T = TypeVar("T")


def encode_time(value: datetime) -> str:
    return utc(value).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def encode_date(value: date) -> str:
    return value.isoformat()


def encode_clock(value: time) -> str:
    return value.strftime("%H:%M")


# --- running plans (see _plan.py) -------------------------------------------------------------

_STORED: Final[dict[type, Callable[[Any], str]]] = {datetime: encode_time, date: encode_date, time: encode_clock}


def _stored(args: Sequence[Any]) -> Sequence[Any]:
    """Values as SQLite keeps them (times as text); most have nothing to change."""
    if not any(type(value) in _STORED for value in args):
        return args
    return [value if (store := _STORED.get(type(value))) is None else store(value) for value in args]


@lru_cache(maxsize=512)
def _sqlite_text(text: str) -> str:
    return text.replace("{for_update}", "")


def drive(conn: sqlite3.Connection, plan: Plan[T], begin: str, synced: bool = True) -> T:
    """Run `plan` as one transaction (`begin`: BEGIN IMMEDIATE for a write, BEGIN for a read),
    committed if it returns, rolled back if anything raises; `synced=False`: its commit does
    not wait for the disk. A broken UNIQUE constraint is Duplicate."""
    if not synced:
        conn.execute("PRAGMA synchronous = NORMAL")  # not to be changed inside a transaction
    conn.execute(begin)
    try:
        result = within(conn, plan)
        conn.execute("COMMIT")
    except BaseException as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(error, sqlite3.IntegrityError) and str(error).startswith("UNIQUE constraint failed"):
            raise Duplicate(str(error)) from error
        raise
    finally:
        if not synced:
            conn.execute("PRAGMA synchronous = FULL")
    return result


def within(conn: sqlite3.Connection, plan: Plan[T]) -> T:
    """Run `plan`'s statements inside the caller's transaction."""
    try:
        step = next(plan)
        while True:
            if step.kind == "rows":
                result: Any = conn.execute(_sqlite_text(step.text), _stored(step.args)).fetchall()
            elif step.kind == "count":
                result = conn.execute(_sqlite_text(step.text), _stored(step.args)).rowcount
            elif step.kind == "many":
                conn.executemany(_sqlite_text(step.text), [_stored(values) for values in step.args])
                result = None
            else:  # a lock: SQLite's one writer holds them all
                result = None
            step = plan.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    finally:
        plan.close()
