"""LINE's events, kept in the database from the moment the webhook accepts them.

A webhook answers 200 only after its events are stored (``Storage.receive_events``; a
redelivery, to this process or another, is dropped there), so an event LINE was told we have
is never lost with a process. Any process of the channel then handles a chat's events: one
process at a time, one event after another, in the order LINE sent them, whichever process
received each (``Storage.take_event``). The process that received an event wakes its chat at
once; events a dead process left behind are found by the scheduler (``wake_waiting``).

Each event's change is applied exactly once. Taking an event marks it started; an event whose
process died before it finished is taken again, by whichever process takes the chat next (at
once by a process of the same machine, which sees the holder's pid gone; else after STALE), and
handled again as ``retried``: the game service finds the change and its answer stored under
the event's id if the dead process had committed them, and applies it now if not. An event
taken but cut short before the game service acted on it (a shutdown while it waited for a name
from LINE) is given back, and handled after the restart. An event taken MAX_TRIES times (it
kills its process, say) is given up and logged, so that its chat goes on.

Requests that come while an insert is on its way are stored together in the next one (one
transaction for all of them), in the order they came.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from linebot.v3.webhooks import Event  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

from storage import NewEvent, Storage, StorageError, Taken

from ...clock import Clock
from ...services.claims import gone, here
from ...services.errors import HandleAgain
from .queues import ChatQueues

log = logging.getLogger(__name__)

STALE: Final = timedelta(minutes=2)  # an event started this long ago by a silent process is taken again
MAX_TRIES: Final = 8  # takes of one event before it is given up
AGAIN: Final = (0.25, 5.0)  # pauses before handling again an event the database failed (first, most)
LEFT_BEHIND: Final = timedelta(seconds=10)  # an event nobody took this long after it came
TAKE_RETRIES: Final = (0.1, 0.5, 2.0)  # pauses before asking the database again
POLL: Final = (0.01, 1.0)
READ_KEPT: Final = 10_000  # how often to ask again while another process has the chat (first, most)

# Set by the handler right before the game service acts on the event being handled.
_acting: contextvars.ContextVar[list[bool] | None] = contextvars.ContextVar("line_inbox_acting", default=None)


def acting() -> None:
    """Says the event being handled now reaches the game service: from here on, cut short, it
    counts as handled (the service may have acted on it)."""
    flag = _acting.get()
    if flag is not None:
        flag[0] = True


class Inbox:
    """``receive`` stores accepted events and wakes their chats; each chat's worker handles
    them with ``handle``, one at a time."""

    def __init__(self, storage: Storage, handle: Callable[[Event, bool], Awaitable[Sequence[str]]], *, holder: str,
                 clock: Clock) -> None:
        self.storage = storage
        self._handle = handle
        self.holder = holder
        self.clock = clock
        self.queues = ChatQueues(self._work)
        self._batch: list[tuple[list[NewEvent], asyncio.Future[None]]] = []
        self._storing: asyncio.Task[None] | None = None
        # Events this process received, as the SDK read them, until taken (by whichever process):
        # the common case, taking one's own event, need not read it again.
        self._read: OrderedDict[str, Event] = OrderedDict()

    def room(self) -> int:
        return self.queues.room()

    async def receive(self, events: Sequence[tuple[str, dict[str, Any], Event]]) -> None:
        """Stores ``(chat, raw event, event)`` triples and wakes their chats; raises StorageError
        if the database did not take them (then nothing was acknowledged)."""
        if not events:
            return
        new = [NewEvent("line", chat, str(item["webhookEventId"]), _sent(item), json.dumps(item, ensure_ascii=False))
               for chat, item, _ in events]
        for _, item, event in events:
            self._read[str(item["webhookEventId"])] = event
        while len(self._read) > READ_KEPT:
            self._read.popitem(last=False)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._batch.append((new, done))  # no await before this: the batch keeps the order requests came in
        if self._storing is None or self._storing.done():
            self._storing = asyncio.create_task(self._store(), name="line-inbox-store")
        await asyncio.shield(done)

    async def _store(self) -> None:
        while self._batch:
            batch, self._batch = self._batch, []
            try:
                stored = set(await self.storage.receive_events([e for events, _ in batch for e in events]))
            except StorageError as error:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            except BaseException as error:  # cancelled: the requests fail, LINE sends them again
                for _, done in batch + self._batch:
                    if not done.done():
                        done.set_exception(StorageError(f"not stored: {type(error).__name__}"))
                raise
            for events, done in batch:
                for event in events:
                    if event.event_id in stored:
                        self.queues.put(event.channel)
                    else:
                        log.info("LINE event %s was received already (redelivery)", event.event_id)
                if not done.done():
                    done.set_result(None)

    async def release_the_dead(self) -> int:
        """Releases the events started by processes of this machine that are gone (killed in
        the middle of one) and wakes their chats: each is handled again now rather than after
        STALE. Returns how many chats."""
        chats: set[str] = set()
        for holder in gone(await self.storage.event_holders(here()), me=self.holder):
            chats.update(await self.storage.release_started_events(holder))
        for chat in sorted(chats):
            self.queues.put(chat, 0)
        if chats:
            log.warning("taking up again the LINE events of %d chats a process that is gone had started", len(chats))
        return len(chats)

    async def wake_waiting(self, *, left_behind: timedelta = LEFT_BEHIND) -> int:
        """Wakes the chats whose events nobody took for ``left_behind`` (their process died, or
        was stopped before it got to them) or whose handler went silent; how many."""
        now = self.clock.now()
        chats = await self.storage.waiting_chats("line", received_before=now - left_behind, stale_before=now - STALE,
                                                 limit=self.queues.room())
        for chat in chats:
            self.queues.put(chat, 0)
        return len(chats)

    async def drain(self, timeout: float | None = None) -> int:
        return await self.queues.drain(timeout)

    async def _work(self, chat: str, took: Callable[[], None]) -> None:
        """Handles the chat's events until none is left, or another process has the chat and
        what this process was told of has been taken (by whichever)."""
        finished: int | None = None
        shown: Sequence[str] = ()  # the finished event's answers that the door showed
        delay = POLL[0]
        again = AGAIN[0]
        while True:
            taken = await self._take(chat, finished, shown)
            finished, shown = None, ()
            if taken.event is None:
                if not taken.busy:
                    return
                await asyncio.sleep(delay)  # another process is on this chat: it takes ours too
                delay = min(delay * 2, POLL[1])
                continue
            took()
            delay = POLL[0]
            stored = taken.event
            finished = stored.id
            if stored.tries > MAX_TRIES:
                log.error("gave up LINE event %s in %s after %d tries", stored.event_id, chat, stored.tries - 1)
                continue
            flag = [False]
            token = _acting.set(flag)
            try:
                event = self._read.pop(stored.event_id, None) or Event.from_dict(json.loads(stored.body))
                shown = await self._handle(event, stored.retried)
                again = AGAIN[0]
            except HandleAgain as error:
                # Not finished: taken again (a retry), which finds what the database stored.
                log.warning("LINE event %s in %s is handled again in %g s (%s)", stored.event_id, chat, again, error)
                finished = None
                await asyncio.sleep(again)
                again = min(again * 2, AGAIN[1])
            except asyncio.CancelledError:
                if not flag[0]:  # the service never saw it: give it back for after the restart
                    await asyncio.shield(self._give_back(stored.id))
                raise
            except Exception:
                log.exception("could not handle LINE event %s in %s", stored.event_id, chat)
            finally:
                _acting.reset(token)

    async def _take(self, chat: str, finished: int | None, shown: Sequence[str]) -> Taken:
        # A few tries: until the handled event is finished, other processes see the chat busy.
        for pause in TAKE_RETRIES:
            try:
                return await self.storage.take_event("line", chat, self.holder, finished=finished, shown=shown,
                                                     stale_before=self.clock.now() - STALE)
            except StorageError as error:
                log.warning("could not take the next LINE event of %s (%r); trying again", chat, error)
                await asyncio.sleep(pause)
        return await self.storage.take_event("line", chat, self.holder, finished=finished, shown=shown,
                                             stale_before=self.clock.now() - STALE)

    async def _give_back(self, event: int) -> None:
        try:
            await self.storage.give_back_event(event, self.holder)
        except StorageError:
            log.warning("could not give back LINE event %d; it is lost if this process stops", event)


def _sent(item: dict[str, Any]) -> datetime:
    """When LINE says the event happened (milliseconds since 1970); now if it does not say."""
    stamp = item.get("timestamp")
    if isinstance(stamp, int) and not isinstance(stamp, bool):
        try:
            return datetime.fromtimestamp(stamp / 1000, UTC)
        except (OverflowError, OSError, ValueError):
            pass
    return datetime.now(UTC)
