"""The outbox of notices (placeholder until the outbox is written as plans)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .._plan import Plan, lock, many
from ..records import NewNotice


def insert_notices(notices: Sequence[NewNotice], now: datetime) -> Plan[None]:
    """Insert notices inside the caller's transaction; a key that exists already is ignored."""
    if not notices:
        return
    for chat in sorted({(n.platform, n.channel) for n in notices}):
        yield lock(f"{chat[0]}:{chat[1]}")  # the key postgres/_outbox.insert_sql locks
    yield many(
        """INSERT INTO outbox (key, platform, channel, kind, payload, push, created, due)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (key) DO NOTHING""",
        [(n.key, n.platform, n.channel, n.kind, n.payload, n.push, now, n.due or now) for n in notices],
    )
