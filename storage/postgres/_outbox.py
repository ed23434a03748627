"""The outbox insert of PostgreSQL's games, channels and puzzles; the outbox itself is
storage/queries/outbox.py, whose insert_notices takes the same locks.

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

from .._rows import utc
from ..records import NewNotice
from ._sql import Connection

# kept until games/channels/puzzles are plans (they will use queries/outbox.insert_notices):
# NOTICE_PARAMETERS, insert_sql, notice_values, add_notices.

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
