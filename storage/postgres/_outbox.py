"""The outbox of notices in PostgreSQL.

A chat's notices must get ids in the order they commit, or the deliverer could see a later
notice before an earlier one that is still being written. PostgreSQL hands out identity
values at insert time, not at commit, so inserting a chat's notices takes a transaction-long
advisory lock on that chat first: a second writer for the same chat waits for the first to
commit before it gets its ids. The locks are taken in one sorted order, so two writers
cannot deadlock on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from .._rows import NATIVE, NOTICE_COLUMNS, notice_from_row, utc
from ..records import NewNotice, NoticeCounts, OutboxNotice
from ._sql import Connection, affected

_WAITING: Final = "sent IS NULL AND dead IS NULL"
# How many parameters notice_values() gives and insert_sql() takes.
NOTICE_PARAMETERS: Final = 9


def insert_sql(first: int, when: str = "TRUE") -> str:
    """INSERT of the notices in parameters $first.. (notice_values()), when `when` holds;
    a key that exists already is ignored."""
    key, platform, channel, kind, payload, push, due, chats, now = (
        f"${first + i}" for i in range(NOTICE_PARAMETERS)
    )
    return f"""INSERT INTO outbox (key, platform, channel, kind, payload, push, created, due)
        SELECT n.key, n.platform, n.channel, n.kind, n.payload::json, n.push, {now},
               coalesce(n.due, {now})
        FROM unnest({key}::text[], {platform}::text[], {channel}::text[], {kind}::text[],
                    {payload}::text[], {push}::boolean[], {due}::timestamptz[])
             WITH ORDINALITY AS n (key, platform, channel, kind, payload, push, due, ord)
        CROSS JOIN (SELECT count(*) FROM (
            SELECT pg_advisory_xact_lock(hashtextextended(chat, 0))
            FROM unnest({chats}::text[]) AS chat) AS each_chat) AS locked
        WHERE {when}
        ORDER BY n.ord
        ON CONFLICT (key) DO NOTHING"""


def notice_values(notices: Sequence[NewNotice], now: datetime) -> list[Any]:
    """The parameters of insert_sql(): one array per column, the chats to lock, the time."""
    chats = sorted({f"{n.platform}:{n.channel}" for n in notices})
    return [
        [n.key for n in notices],
        [n.platform for n in notices],
        [n.channel for n in notices],
        [n.kind for n in notices],
        [n.payload for n in notices],
        [n.push for n in notices],
        [None if n.due is None else utc(n.due) for n in notices],
        chats,
        now,
    ]


async def add_notices(conn: Connection, notices: Sequence[NewNotice], now: datetime) -> None:
    if notices:
        await conn.execute(insert_sql(1), *notice_values(notices, now))


async def due_notices(
    conn: Connection, platform: str, now: datetime, limit: int
) -> list[OutboxNotice]:
    # A notice waits behind any older pushed notice of its chat that is still waiting
    # (a retry later, or not yet due): a chat's notices arrive in order.
    rows = await conn.fetch(
        f"""SELECT {NOTICE_COLUMNS} FROM outbox AS o
            WHERE o.platform = $1 AND o.{_WAITING} AND o.push AND o.due <= $2
              AND NOT EXISTS (
                  SELECT 1 FROM outbox AS e
                  WHERE e.platform = o.platform AND e.channel = o.channel AND e.id < o.id
                    AND e.sent IS NULL AND e.dead IS NULL AND e.push)
            ORDER BY o.id
            LIMIT $3""",
        platform, now, limit,
    )
    return [notice_from_row(row, NATIVE) for row in rows]


async def notices_with_keys(conn: Connection, keys: Sequence[str]) -> list[OutboxNotice]:
    rows = await conn.fetch(f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE key = ANY($1::text[]) ORDER BY id", list(keys))
    return [notice_from_row(row, NATIVE) for row in rows]


async def pending_notices(conn: Connection, platform: str, channel: str) -> list[OutboxNotice]:
    rows = await conn.fetch(
        f"""SELECT {NOTICE_COLUMNS} FROM outbox
            WHERE platform = $1 AND channel = $2 AND {_WAITING} ORDER BY id""",
        platform, channel,
    )
    return [notice_from_row(row, NATIVE) for row in rows]


async def mark_notices_sent(conn: Connection, keys: Sequence[str], now: datetime) -> None:
    if keys:
        await conn.execute(
            "UPDATE outbox SET sent = $2 WHERE key = ANY($1::text[]) AND sent IS NULL",
            list(keys), now,
        )


async def retry_notice(
    conn: Connection, key: str, due: datetime, error: str, count: bool
) -> None:
    await conn.execute(
        f"""UPDATE outbox SET due = $2, last_error = $3, attempts = attempts + $4
            WHERE key = $1 AND {_WAITING}""",
        key, due, error, int(count),
    )


async def bury_notice(conn: Connection, key: str, error: str, now: datetime) -> None:
    await conn.execute(
        f"""UPDATE outbox SET dead = $2, last_error = $3, attempts = attempts + 1
            WHERE key = $1 AND {_WAITING}""",
        key, now, error,
    )


async def notice_counts(conn: Connection, platform: str | None) -> NoticeCounts:
    pending, dead = await conn.fetchrow(
        """SELECT count(*) FILTER (WHERE dead IS NULL), count(*) FILTER (WHERE dead IS NOT NULL)
           FROM outbox WHERE sent IS NULL AND ($1::text IS NULL OR platform = $1)""",
        platform,
    )
    return NoticeCounts(pending, dead)


async def prune_notices(conn: Connection, before: datetime) -> int:
    return affected(await conn.execute("DELETE FROM outbox WHERE sent < $1", before))
