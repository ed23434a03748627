"""The outbox of notices in SQLite (run on the worker thread)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Final

from ._rows import NOTICE_COLUMNS, notice_from_row
from ._sql import TEXT, encode_opt_time, write_tx
from .records import NewNotice, NoticeCounts, OutboxNotice

_WAITING: Final = "sent IS NULL AND dead IS NULL"


def insert_notices(conn: sqlite3.Connection, notices: Sequence[NewNotice], now: str) -> None:
    """Insert notices inside the caller's transaction; a key that exists already is ignored."""
    if not notices:
        return
    conn.executemany(
        """INSERT INTO outbox (key, platform, channel, kind, payload, push, created, due)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (key) DO NOTHING""",
        [(n.key, n.platform, n.channel, n.kind, n.payload, int(n.push), now,
          encode_opt_time(n.due) or now) for n in notices],
    )


def add_notices(conn: sqlite3.Connection, notices: Sequence[NewNotice], now: str) -> None:
    if notices:
        with write_tx(conn):
            insert_notices(conn, notices, now)


def due_notices(conn: sqlite3.Connection, platform: str, now: str, limit: int) -> list[OutboxNotice]:
    # A notice waits behind any older pushed notice of its chat that is still waiting
    # (a retry later, or not yet due): a chat's notices arrive in order.
    rows = conn.execute(
        f"""SELECT {NOTICE_COLUMNS} FROM outbox AS o
            WHERE o.platform = ? AND o.{_WAITING} AND o.push = 1 AND o.due <= ?
              AND NOT EXISTS (
                  SELECT 1 FROM outbox AS e
                  WHERE e.platform = o.platform AND e.channel = o.channel AND e.id < o.id
                    AND e.sent IS NULL AND e.dead IS NULL AND e.push = 1)
            ORDER BY o.id
            LIMIT ?""",
        (platform, now, limit),
    ).fetchall()
    return [notice_from_row(row, TEXT) for row in rows]


def notices_with_keys(conn: sqlite3.Connection, keys: Sequence[str]) -> list[OutboxNotice]:
    if not keys:
        return []
    marks = ", ".join("?" * len(keys))
    rows = conn.execute(
        f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE key IN ({marks}) ORDER BY id", list(keys)
    ).fetchall()
    return [notice_from_row(row, TEXT) for row in rows]


def pending_notices(conn: sqlite3.Connection, platform: str, channel: str) -> list[OutboxNotice]:
    rows = conn.execute(
        f"""SELECT {NOTICE_COLUMNS} FROM outbox
            WHERE platform = ? AND channel = ? AND {_WAITING} ORDER BY id""",
        (platform, channel),
    ).fetchall()
    return [notice_from_row(row, TEXT) for row in rows]


def mark_notices_sent(conn: sqlite3.Connection, keys: Sequence[str], now: str) -> None:
    if keys:
        with write_tx(conn):
            conn.executemany(
                "UPDATE outbox SET sent = ? WHERE key = ? AND sent IS NULL",
                [(now, key) for key in keys],
            )


def retry_notice(
    conn: sqlite3.Connection, key: str, due: str, error: str, count: bool
) -> None:
    with write_tx(conn):
        conn.execute(
            f"""UPDATE outbox SET due = ?, last_error = ?, attempts = attempts + ?
                WHERE key = ? AND {_WAITING}""",
            (due, error, int(count), key),
        )


def bury_notice(conn: sqlite3.Connection, key: str, error: str, now: str) -> None:
    with write_tx(conn):
        conn.execute(
            f"""UPDATE outbox SET dead = ?, last_error = ?, attempts = attempts + 1
                WHERE key = ? AND {_WAITING}""",
            (now, error, key),
        )


def notice_counts(conn: sqlite3.Connection, platform: str | None) -> NoticeCounts:
    pending, dead = conn.execute(
        """SELECT coalesce(sum(CASE WHEN dead IS NULL THEN 1 ELSE 0 END), 0),
                  coalesce(sum(CASE WHEN dead IS NULL THEN 0 ELSE 1 END), 0)
           FROM outbox WHERE sent IS NULL AND (? IS NULL OR platform = ?)""",
        (platform, platform),
    ).fetchone()
    return NoticeCounts(pending, dead)


def prune_notices(conn: sqlite3.Connection, before: str) -> int:
    with write_tx(conn):
        return conn.execute("DELETE FROM outbox WHERE sent < ?", (before,)).rowcount
