"""The inbox in SQLite: webhook events stored before they are acknowledged, handled one chat
at a time by whichever process takes them (run on the worker thread)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ._sql import decode_time, encode_time, write_tx
from .records import InboxEvent, NewEvent, Platform, Taken


def receive_events(conn: sqlite3.Connection, events: Sequence[NewEvent], now: str) -> list[str]:
    stored = []
    with write_tx(conn):
        for event in events:
            seen = conn.execute(
                "INSERT INTO processed_events (event_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (event.event_id, now),
            ).rowcount == 0
            if seen:
                continue
            conn.execute(
                """INSERT INTO inbox (platform, channel, event_id, sent, body, received)
                   VALUES (?, ?, ?, ?, ?, ?)""",
                (event.platform, event.channel, event.event_id, encode_time(event.sent), event.body, now),
            )
            stored.append(event.event_id)
    return stored


def take_event(
    conn: sqlite3.Connection, platform: Platform, channel: str, holder: str, finished: int | None,
    shown: Sequence[str], stale_before: str, now: str,
) -> Taken:
    # One write transaction: SQLite's single writer makes "nobody else is busy, so I take the
    # next one" atomic across processes. Bookkeeping, so no sync of its own (see _unsynced).
    with _unsynced(conn), write_tx(conn):
        if finished is not None:
            conn.execute("DELETE FROM inbox WHERE id = ? AND holder = ?", (finished, holder))
        # Its answers, shown: with the event's end, so that the commit the door owes them costs nothing.
        conn.executemany("UPDATE outbox SET sent = ? WHERE key = ? AND sent IS NULL", [(now, key) for key in shown])
        busy = conn.execute(
            """SELECT 1 FROM inbox WHERE platform = ? AND channel = ? AND started IS NOT NULL
                   AND holder <> ? AND started > ? LIMIT 1""",
            (platform, channel, holder, stale_before),
        ).fetchone()
        if busy is not None:
            return Taken(None, busy=True)
        # The first event, also one started by a process gone quiet (or by this one, abandoned):
        # taken again, its tries counted.
        row = conn.execute(
            """SELECT id, event_id, sent, body, tries FROM inbox WHERE platform = ? AND channel = ?
               ORDER BY sent, id LIMIT 1""",
            (platform, channel),
        ).fetchone()
        if row is None:
            return Taken(None)
        conn.execute("UPDATE inbox SET holder = ?, started = ?, tries = tries + 1 WHERE id = ?", (holder, now, row[0]))
    return Taken(InboxEvent(row[0], platform, channel, row[1], decode_time(row[2]), row[3], tries=row[4] + 1))


def event_holders(conn: sqlite3.Connection, prefix: str) -> set[str]:
    rows = conn.execute(
        "SELECT DISTINCT holder FROM inbox WHERE started IS NOT NULL AND substr(holder, 1, ?) = ?",
        (len(prefix), prefix),
    ).fetchall()
    return {holder for (holder,) in rows}


def release_started_events(conn: sqlite3.Connection, holder: str) -> list[str]:
    with write_tx(conn):
        rows = conn.execute(
            """UPDATE inbox SET holder = NULL, started = NULL WHERE holder = ? AND started IS NOT NULL
               RETURNING channel""",
            (holder,),
        ).fetchall()
    return sorted({channel for (channel,) in rows})


def give_back_event(conn: sqlite3.Connection, event: int, holder: str) -> None:
    with _unsynced(conn), write_tx(conn):
        conn.execute(
            "UPDATE inbox SET holder = NULL, started = NULL, tries = tries - 1 WHERE id = ? AND holder = ?",
            (event, holder),
        )


@contextmanager
def _unsynced(conn: sqlite3.Connection) -> Iterator[None]:
    """A commit that waits for no disk sync (WAL, synchronous=NORMAL), for the inbox's own
    bookkeeping: the next synced commit (a move, the next event stored) writes it out in
    order with itself. A power cut may lose it: then an event is taken again or dropped as
    stale, and the game's compare-and-set still applies a move once. Events themselves are
    stored with a sync (receive_events)."""
    conn.execute("PRAGMA synchronous = NORMAL")
    try:
        yield
    finally:
        conn.execute("PRAGMA synchronous = FULL")


def waiting_chats(
    conn: sqlite3.Connection, platform: Platform, received_before: str, stale_before: str, limit: int
) -> list[str]:
    rows = conn.execute(
        """SELECT DISTINCT channel FROM inbox
           WHERE platform = ? AND received <= ? AND (started IS NULL OR started <= ?) LIMIT ?""",
        (platform, received_before, stale_before, limit),
    ).fetchall()
    return [channel for (channel,) in rows]
