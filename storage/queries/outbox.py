"""The outbox of notices: what the bot owes a chat, kept until it is sent.

A chat's notices must get ids in the order they commit, or the deliverer could see a later
notice before an earlier one that is still being written. PostgreSQL hands out identity
values at insert time, not at commit, so inserting a chat's notices takes a transaction-long
lock on that chat first: a second writer for the same chat waits for the first to commit
before it gets its ids. The locks are taken in one sorted order, so two writers cannot
deadlock on them. (SQLite's one writer at a time gives the same order by itself.)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from .._plan import Plan, count, lock, many, marks, rows
from .._rows import NOTICE_COLUMNS, notice_from_row, utc
from ..records import NewNotice, NoticeCounts, OutboxNotice

_WAITING: Final = "sent IS NULL AND dead IS NULL"


def chat_lock(platform: str, channel: str) -> str:
    """The name of the lock on a chat's outbox (the one postgres/_fast.insert_sql takes too)."""
    return f"{platform}:{channel}"


def insert_notices(notices: Sequence[NewNotice], now: datetime) -> Plan[None]:
    """Insert notices inside the caller's transaction, in their order; a key that exists
    already is ignored."""
    if not notices:
        return
    for chat in sorted({chat_lock(n.platform, n.channel) for n in notices}):
        yield lock(chat)
    yield many(
        """INSERT INTO outbox (key, platform, channel, kind, payload, push, created, due)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (key) DO NOTHING""",
        [(n.key, n.platform, n.channel, n.kind, n.payload, n.push, now, now if n.due is None else utc(n.due))
         for n in notices],
    )


def due_notices(platform: str, now: datetime, limit: int) -> Plan[list[OutboxNotice]]:
    # A notice waits behind any older pushed notice of its chat that is still waiting
    # (a retry later, or not yet due): a chat's notices arrive in order.
    found = yield rows(
        f"""SELECT {NOTICE_COLUMNS} FROM outbox AS o
            WHERE o.platform = ? AND o.{_WAITING} AND o.push = TRUE AND o.due <= ?
              AND NOT EXISTS (
                  SELECT 1 FROM outbox AS e
                  WHERE e.platform = o.platform AND e.channel = o.channel AND e.id < o.id
                    AND e.sent IS NULL AND e.dead IS NULL AND e.push = TRUE)
            ORDER BY o.id
            LIMIT ?""",
        platform, now, limit,
    )
    return [notice_from_row(row) for row in found]


def notices_with_keys(keys: Sequence[str]) -> Plan[list[OutboxNotice]]:
    if not keys:
        return []
    found = yield rows(f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE key IN ({marks(len(keys))}) ORDER BY id", *keys)
    return [notice_from_row(row) for row in found]


def pending_notices(platform: str, channel: str) -> Plan[list[OutboxNotice]]:
    found = yield rows(
        f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE platform = ? AND channel = ? AND {_WAITING} ORDER BY id",
        platform, channel,
    )
    return [notice_from_row(row) for row in found]


def mark_sent(keys: Sequence[str], now: datetime) -> Plan[None]:
    """Stamp the notices with these keys sent, inside the caller's transaction (the first time stays)."""
    if keys:
        yield count(f"UPDATE outbox SET sent = ? WHERE key IN ({marks(len(keys))}) AND sent IS NULL", now, *keys)


def retry_notice(key: str, due: datetime, error: str, counted: bool) -> Plan[None]:
    yield count(
        f"UPDATE outbox SET due = ?, last_error = ?, attempts = attempts + ? WHERE key = ? AND {_WAITING}",
        due, error, int(counted), key,
    )


def bury_notice(key: str, error: str, now: datetime) -> Plan[None]:
    yield count(
        f"UPDATE outbox SET dead = ?, last_error = ?, attempts = attempts + 1 WHERE key = ? AND {_WAITING}",
        now, error, key,
    )


def notice_counts(platform: str | None) -> Plan[NoticeCounts]:
    on_platform = "" if platform is None else " AND platform = ?"
    found = yield rows(
        f"""SELECT count(CASE WHEN dead IS NULL THEN 1 END), count(dead)
            FROM outbox WHERE sent IS NULL{on_platform}""",
        *(() if platform is None else (platform,)),
    )
    pending, dead = found[0]
    return NoticeCounts(pending, dead)


def prune_notices(before: datetime) -> Plan[int]:
    removed: int = yield count("DELETE FROM outbox WHERE sent < ?", before)
    return removed
