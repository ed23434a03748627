"""Storage's methods for the queues between processes: the inbox of webhook events, the leases on
scheduled work, and the outbox of notices."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ._driver import Driver
from ._rows import utc
from .queries import inbox, leases, outbox
from .records import (
    NewEvent,
    NewNotice,
    NoticeCounts,
    OutboxNotice,
    Platform,
    Taken,
)


class QueueMethods(Driver):
    """Storage's inbox, lease and outbox methods."""

    # The inbox: webhook events stored before they are acknowledged (storage/queries/inbox.py)

    async def receive_events(self, events: Sequence[NewEvent]) -> list[str]:
        """Store accepted events, in one transaction, before the webhook answers: from then on
        none is lost, whichever process handles it. An event whose id was recorded before (a
        redelivery, to this process or another, or an id `mark_event_processed` saw) is
        dropped. Returns the ids of the events stored."""
        return await self._write(inbox.receive_events(list(events), self._time()))

    async def take_event(
        self, platform: Platform, channel: str, holder: str, *, finished: int | None = None,
        shown: Sequence[str] = (), stale_before: datetime,
    ) -> Taken:
        """The chat's next event for `holder` to handle, in the order of `sent` (then arrival),
        marked as started by it; after removing `finished`, the one `holder` has just handled,
        and marking the notices `shown` (its answers, which the door showed) sent.

        One process at a time handles a chat's events: while another holder has one started
        since `stale_before`, nothing is taken and `busy` is set (ask again soon). An event
        started before `stale_before` and not finished (its process died or went quiet) is
        taken again, with `tries` counting each take: the game service recognises a change
        it had committed already, so nothing is applied twice and nothing is lost.
        """
        # Bookkeeping: unsynced (see inbox.take_event).
        return await self._write(
            inbox.take_event(platform, channel, holder, finished, list(shown), utc(stale_before), self._time()),
            synced=False,
        )

    async def event_holders(self, prefix: str) -> set[str]:
        """The holders whose names start with `prefix` that have an event started."""
        return await self._read(inbox.event_holders(prefix))

    async def release_started_events(self, holder: str) -> list[str]:
        """Release the events `holder` started (a process known to be dead), so the next
        taker of each chat takes them again at once; returns those chats."""
        return await self._write(inbox.release_started_events(holder))

    async def give_back_event(self, event: int, holder: str) -> None:
        """Undo `take_event` for an event `holder` took and did not act on (it was cut short
        first): the chat's next taker handles it."""
        await self._write(inbox.give_back_event(event, holder), synced=False)

    async def waiting_chats(
        self, platform: Platform, *, received_before: datetime, stale_before: datetime, limit: int = 100
    ) -> list[str]:
        """Chats with an event received by `received_before` that nobody started, or
        started before `stale_before` and not finished: what a process that died left behind."""
        return await self._read(inbox.waiting_chats(platform, utc(received_before), utc(stale_before), limit))

    # Leases on scheduled work (storage/queries/leases.py)

    async def claim(self, names: Sequence[str], holder: str, *, until: datetime) -> set[str]:
        """Claim the work each of `names` stands for, for `holder` (one process), until `until`.

        A name is taken when nobody holds it, its holder's claim ran out (the process died or
        stalled), or `holder` holds it already (the claim is extended). Returns the names
        `holder` now holds; the others are another process's to do.
        """
        return await self._write(leases.claim(names, holder, utc(until), self._time()))

    async def release(self, names: Sequence[str], holder: str) -> None:
        """Give back claims `holder` holds (names it does not hold are left alone)."""
        if names:
            await self._write(leases.release(names, holder))

    async def lease_holders(self, prefix: str) -> set[str]:
        """The holders whose names start with `prefix` and who hold a claim that has not run out."""
        return await self._read(leases.lease_holders(prefix, self._time()))

    async def release_holder(self, holder: str) -> int:
        """Give back every claim `holder` holds (a process known to be dead); returns how many."""
        return await self._write(leases.release_holder(holder))

    # The outbox (storage/queries/outbox.py)

    async def add_notices(self, notices: Sequence[NewNotice]) -> None:
        """Put notices in the outbox on their own (e.g. a reply a door could not deliver).

        A notice whose key exists already is ignored, so adding twice is harmless.
        """
        if notices:
            await self._write(outbox.insert_notices(list(notices), self._time()))

    async def due_notices(
        self, platform: Platform, now: datetime, *, limit: int = 100
    ) -> list[OutboxNotice]:
        """Notices to push now: not sent, not dead, `push` set, `due` at or before `now`,
        oldest (lowest id) first, at most `limit`.

        A notice is withheld while an older notice of the same chat (platform and channel)
        is neither sent nor dead and has `push` set, whatever that one's `due`: a chat's
        notices arrive in order, and a later one never overtakes one waiting for a retry.
        """
        return await self._read(outbox.due_notices(platform, utc(now), limit))

    async def notices_with_keys(self, keys: Sequence[str]) -> list[OutboxNotice]:
        """The notices with these keys that exist (sent, dead or waiting), in outbox order:
        the rows one event caused, whose keys the service derives from the event."""
        return await self._read(outbox.notices_with_keys(list(keys)))

    async def pending_notices(self, platform: Platform, channel: str) -> list[OutboxNotice]:
        """The chat's notices neither sent nor dead, whatever their `push` and `due`,
        oldest first: what a door replying to a person in that chat may carry along."""
        return await self._read(outbox.pending_notices(platform, channel))

    async def mark_notices_sent(self, keys: Sequence[str]) -> None:
        """Stamp the notices with these keys sent (now). Idempotent: the first time stays;
        unknown keys are ignored. A dead notice that was delivered after all counts as sent."""
        if keys:
            await self._write(outbox.mark_sent(list(keys), self._time()))

    async def retry_notice(
        self, key: str, *, due: datetime, error: str, count: bool = True
    ) -> None:
        """A try failed: not before `due` again, with `error` kept as `last_error`;
        `attempts` goes up by one when `count` (not for a wait the platform imposed, such
        as a used-up quota). Ignored for an unknown key or a notice already sent or dead."""
        await self._write(outbox.retry_notice(key, utc(due), error, count))

    async def bury_notice(self, key: str, *, error: str) -> None:
        """Give a notice up as undeliverable: `dead` is set (now), `last_error` kept,
        `attempts` up by one. It is kept, never deleted by prune_notices, and counted.
        Ignored for an unknown key or a notice already sent or dead."""
        await self._write(outbox.bury_notice(key, error, self._time()))

    async def notice_counts(self, platform: Platform | None = None) -> NoticeCounts:
        """How many notices wait (neither sent nor dead) and how many are dead and unsent;
        only `platform`'s, if given."""
        return await self._read(outbox.notice_counts(platform))

    async def prune_notices(self, before: datetime) -> int:
        """Delete notices sent before `before` (never pending or dead unsent ones);
        returns how many."""
        return await self._write(outbox.prune_notices(utc(before)))
