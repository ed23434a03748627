"""The inbox in PostgreSQL: webhook events stored before they are acknowledged, handled one
chat at a time by whichever process takes them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .._rows import utc
from ..records import InboxEvent, NewEvent, Platform, Taken
from ._sql import Connection


async def receive_events(conn: Connection, events: Sequence[NewEvent], now: datetime) -> list[str]:
    stored = []
    async with conn.transaction():
        for event in events:  # one by one: the ids keep the order of arrival
            new = await conn.fetchval(
                """WITH seen AS (INSERT INTO processed_events (event_id, at) VALUES ($3, $6)
                                 ON CONFLICT DO NOTHING RETURNING event_id)
                   INSERT INTO inbox (platform, channel, event_id, sent, body, received)
                   SELECT $1, $2, event_id, $4, $5, $6 FROM seen RETURNING event_id""",
                event.platform, event.channel, event.event_id, utc(event.sent), event.body, now,
            )
            if new is not None:
                stored.append(new)
    return stored


async def take_event(
    conn: Connection, platform: Platform, channel: str, holder: str, finished: int | None,
    shown: Sequence[str], stale_before: datetime, now: datetime,
) -> Taken:
    async with conn.transaction():
        # The chat's own lock, for this transaction: two processes never both see the chat idle
        # and take two of its events. Bookkeeping: its commit need not wait for the disk (a
        # crash of the server may lose it; then an event is taken again or dropped as stale).
        await conn.execute("SET LOCAL synchronous_commit = off")
        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", f"inbox:{platform}:{channel}")
        if finished is not None:
            await conn.execute("DELETE FROM inbox WHERE id = $1 AND holder = $2", finished, holder)
        if shown:  # its answers, shown: with the event's end, so that marking them costs no commit
            await conn.execute("UPDATE outbox SET sent = $2 WHERE key = ANY($1::text[]) AND sent IS NULL",
                               list(shown), now)
        busy = await conn.fetchval(
            """SELECT EXISTS (SELECT FROM inbox WHERE platform = $1 AND channel = $2
                   AND started IS NOT NULL AND holder <> $3 AND started > $4)""",
            platform, channel, holder, stale_before,
        )
        if busy:
            return Taken(None, busy=True)
        # The first event, also one started by a process gone quiet (or by this one, abandoned):
        # taken again, its tries counted.
        row = await conn.fetchrow(
            """UPDATE inbox SET holder = $3, started = $4, tries = tries + 1
               WHERE id = (SELECT id FROM inbox WHERE platform = $1 AND channel = $2 ORDER BY sent, id LIMIT 1)
               RETURNING id, event_id, sent, body, tries""",
            platform, channel, holder, now,
        )
    if row is None:
        return Taken(None)
    return Taken(InboxEvent(row["id"], platform, channel, row["event_id"], utc(row["sent"]), row["body"],
                            tries=row["tries"]))


async def event_holders(conn: Connection, prefix: str) -> set[str]:
    rows = await conn.fetch(
        "SELECT DISTINCT holder FROM inbox WHERE started IS NOT NULL AND left(holder, $1) = $2", len(prefix), prefix
    )
    return {row["holder"] for row in rows}


async def release_started_events(conn: Connection, holder: str) -> list[str]:
    rows = await conn.fetch(
        "UPDATE inbox SET holder = NULL, started = NULL WHERE holder = $1 AND started IS NOT NULL RETURNING channel",
        holder,
    )
    return sorted({row["channel"] for row in rows})


async def give_back_event(conn: Connection, event: int, holder: str) -> None:
    await conn.execute(
        "UPDATE inbox SET holder = NULL, started = NULL, tries = tries - 1 WHERE id = $1 AND holder = $2", event, holder
    )


async def waiting_chats(
    conn: Connection, platform: Platform, received_before: datetime, stale_before: datetime, limit: int
) -> list[str]:
    rows = await conn.fetch(
        """SELECT DISTINCT channel FROM inbox
           WHERE platform = $1 AND received <= $2 AND (started IS NULL OR started <= $3) LIMIT $4""",
        platform, received_before, stale_before, limit,
    )
    return [row["channel"] for row in rows]
