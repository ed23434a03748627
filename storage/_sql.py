"""Helpers shared by the SQLite query modules: transactions and value encoding.

Times are stored as fixed-width UTC ISO-8601 text ("2026-11-30T09:15:00.000000Z") so that
text order is time order and indexes on them work; dates as "YYYY-MM-DD", times as "HH:MM".
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time
from typing import Final

from ._rows import Codec, utc


@contextmanager
def write_tx(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error.

    IMMEDIATE takes the write lock up front, so a second writer waits (busy_timeout)
    instead of failing half-way when it tries to upgrade a read lock.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def read_tx(conn: sqlite3.Connection) -> Iterator[None]:
    """A read transaction: several SELECTs see one snapshot of the file."""
    conn.execute("BEGIN")
    try:
        yield
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def encode_time(value: datetime) -> str:
    return utc(value).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def encode_opt_time(value: datetime | None) -> str | None:
    return None if value is None else encode_time(value)


def decode_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def encode_date(value: date) -> str:
    return value.isoformat()


def encode_clock(value: time) -> str:
    return value.strftime("%H:%M")


# How SQLite holds the values of records (see _rows.py).
TEXT: Final = Codec(decode_time, date.fromisoformat, time.fromisoformat, encode_time, int)


def is_unique_violation(error: sqlite3.IntegrityError, columns: str) -> bool:
    """Whether `error` is the UNIQUE constraint over exactly `columns` ("t.a, t.b")."""
    return str(error) == f"UNIQUE constraint failed: {columns}"
