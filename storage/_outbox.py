"""The outbox insert of SQLite's games, channels and puzzles (run on the worker thread); the
outbox itself is storage/queries/outbox.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ._sql import encode_opt_time
from .records import NewNotice


# kept until games/channels/puzzles are plans (they will use queries/outbox.insert_notices)
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
