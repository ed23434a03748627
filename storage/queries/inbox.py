"""The inbox: webhook events stored before they are acknowledged, handled one chat at a time
by whichever process takes them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .._plan import Plan, count, lock, rows
from .._rows import instant, utc
from ..records import InboxEvent, NewEvent, Platform, Taken
from .outbox import mark_sent


def receive_events(events: Sequence[NewEvent], now: datetime) -> Plan[list[str]]:
    stored = []
    for event in events:  # one by one: the ids keep the order of arrival
        new = yield count(
            "INSERT INTO processed_events (event_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING", event.event_id, now
        )
        if not new:  # a redelivery, or an id seen before
            continue
        yield count(
            """INSERT INTO inbox (platform, channel, event_id, sent, body, received)
               VALUES (?, ?, ?, ?, ?, ?)""",
            event.platform, event.channel, event.event_id, utc(event.sent), event.body, now,
        )
        stored.append(event.event_id)
    return stored


def take_event(
    platform: Platform, channel: str, holder: str, finished: int | None, shown: Sequence[str],
    stale_before: datetime, now: datetime,
) -> Plan[Taken]:
    # The chat's own lock, for this transaction: two processes never both see the chat idle
    # and take two of its events (PostgreSQL; SQLite's single writer makes "nobody else is
    # busy, so I take the next one" atomic across processes by itself). Bookkeeping: its
    # commit need not wait for the disk (a power cut may lose it; then an event is taken
    # again or dropped as stale, and the game's compare-and-set still applies a move once).
    yield lock(f"inbox:{platform}:{channel}")
    if finished is not None:
        yield count("DELETE FROM inbox WHERE id = ? AND holder = ?", finished, holder)
    # Its answers, shown: with the event's end, so that the commit the door owes them costs nothing.
    yield from mark_sent(shown, now)
    busy = yield rows(
        """SELECT 1 FROM inbox WHERE platform = ? AND channel = ? AND started IS NOT NULL
               AND holder <> ? AND started > ? LIMIT 1""",
        platform, channel, holder, stale_before,
    )
    if busy:
        return Taken(None, busy=True)
    # The first event, also one started by a process gone quiet (or by this one, abandoned):
    # taken again, its tries counted.
    found = yield rows(
        """UPDATE inbox SET holder = ?, started = ?, tries = tries + 1
           WHERE id = (SELECT id FROM inbox WHERE platform = ? AND channel = ? ORDER BY sent, id LIMIT 1)
           RETURNING id, event_id, sent, body, tries""",
        holder, now, platform, channel,
    )
    if not found:
        return Taken(None)
    id_, event_id, sent, body, tries = found[0]
    return Taken(InboxEvent(id_, platform, channel, event_id, instant(sent), body, tries=tries))


def event_holders(prefix: str) -> Plan[set[str]]:
    # substr, not LIKE: a holder's name may hold LIKE's wildcards.
    found = yield rows(
        "SELECT DISTINCT holder FROM inbox WHERE started IS NOT NULL AND substr(holder, 1, ?) = ?",
        len(prefix), prefix,
    )
    return {holder for (holder,) in found}


def release_started_events(holder: str) -> Plan[list[str]]:
    found = yield rows(
        "UPDATE inbox SET holder = NULL, started = NULL WHERE holder = ? AND started IS NOT NULL RETURNING channel",
        holder,
    )
    return sorted({channel for (channel,) in found})


def give_back_event(event: int, holder: str) -> Plan[None]:
    yield count(
        "UPDATE inbox SET holder = NULL, started = NULL, tries = tries - 1 WHERE id = ? AND holder = ?", event, holder
    )


def waiting_chats(platform: Platform, received_before: datetime, stale_before: datetime, limit: int) -> Plan[list[str]]:
    found = yield rows(
        """SELECT DISTINCT channel FROM inbox
           WHERE platform = ? AND received <= ? AND (started IS NULL OR started <= ?) LIMIT ?""",
        platform, received_before, stale_before, limit,
    )
    return [channel for (channel,) in found]
