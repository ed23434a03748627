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

from .._plan import Plan, lock, many
from .._rows import utc
from ..records import NewNotice


def chat_lock(platform: str, channel: str) -> str:
    """The name of the lock on a chat's outbox (the one postgres/_outbox.insert_sql takes too)."""
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
