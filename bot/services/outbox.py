"""The outbox: what the bot owes a chat, delivered until it arrives.

Every notice (the bot's move, a reminder, a loss on time, an expired challenge, a daily
puzzle, a reply a door could not show) is written to the database in the same transaction as
the change that causes it. ``Outbox.drain`` sends the ones that are due through the door's
``send``, marks them sent, and on a failure tries again later with a growing pause; after
``max_attempts`` a notice is kept as undeliverable (logged and counted), never dropped.

Doors pass the notice's ``key`` to the platform's de-duplication (LINE's retry key, Discord's
nonce), so a notice sent twice (a crash between the send and the mark) shows once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from storage import Answer
from storage.records import NewNotice

from ..clock import Clock
from ..messages import Notice, Platform, Reply
from .claims import Claims, Held

if TYPE_CHECKING:
    from storage import Storage
    from storage.records import OutboxNotice

log = logging.getLogger(__name__)

BASE_DELAY = 5.0  # seconds before the first retry; doubled each time
MAX_DELAY = 3600.0  # the longest pause between two tries
MAX_ATTEMPTS = 32  # about a day of tries (the pauses reach an hour after ten) before it is kept as undeliverable


class DeliveryError(Exception):
    """A door could not deliver a notice.

    ``retry_after``: the platform said when to try again (seconds). ``quota``: the platform's
    message quota is used up (LINE's 429 on pushes): the notice waits, without counting as a
    failed try, until the quota allows. ``permanent``: trying again cannot help (the bot was
    removed from the chat): the notice is kept as undeliverable at once.
    """

    def __init__(self, reason: str, *, retry_after: float | None = None, quota: bool = False,
                 permanent: bool = False) -> None:
        super().__init__(reason)
        self.retry_after = retry_after
        self.quota = quota
        self.permanent = permanent


T = TypeVar("T")
Send = Callable[[Notice], Awaitable[None]]
Prepare = Callable[[Reply], Awaitable[Reply]]


def notice_of(row: OutboxNotice) -> Notice:
    """The notice an outbox row stands for."""
    return Notice(row.platform, row.channel, Reply.from_dict(json.loads(row.payload)), key=row.key)


def payload_of(reply: Reply) -> str:
    return json.dumps(reply.to_dict(), ensure_ascii=False, separators=(",", ":"))


def new_notice(platform: Platform, channel: str, kind: str, reply: Reply, *, due: datetime | None = None,
               push: bool = True, key: str | None = None) -> tuple[NewNotice, Reply]:
    """An outbox row holding ``reply`` for a chat (to store with the change that causes it),
    with ``key`` (else a fresh one), and the reply marked with that key."""
    key = key or secrets.token_hex(10)  # 20 characters: within Discord's 25 for a nonce
    reply = dataclasses.replace(reply, outbox_key=key)
    return NewNotice(platform, channel, key, kind, payload_of(reply), due=due, push=push), reply


EVENT_KEYS = 64  # outbox rows one message may cause: its answer, the engine's moves after it


def event_keys(platform: Platform, event: str) -> list[str]:
    """The keys of the outbox rows a message causes, in the order it writes them. Derived from
    the platform's id of the message, so that whoever handles the message again (its process
    died) finds what it had stored; 22 characters, within Discord's 25 for a nonce.

    >>> keys = event_keys("line", "01HXYZ")
    >>> keys == event_keys("line", "01HXYZ"), len(keys[0]), keys[0][:20] == keys[1][:20]
    (True, 22, True)
    """
    digest = hashlib.blake2b(f"{platform}:{event}".encode(), digest_size=10).hexdigest()
    return [f"{digest}{n:02d}" for n in range(EVENT_KEYS)]


class AnswerWith(Protocol):
    """Makes the storage's ``answer`` for a change from ``build``, which makes the replies out of
    what the change returns, and the list that gets them (the game service's Table.answer_with:
    the answer is stored in the outbox with the change)."""

    def __call__(self, build: Callable[[T], Sequence[Reply]]) -> tuple[Answer[T], list[Reply]]: ...


def unkept(build: Callable[[T], Sequence[Reply]]) -> tuple[Answer[T], list[Reply]]:
    """An AnswerWith that keeps nothing in the outbox (a message without an event id)."""
    shown: list[Reply] = []

    def answer(result: T) -> list[Any]:
        shown[:] = build(result)
        return []
    return answer, shown


class Outbox:
    """Delivers one platform's notices through its door's ``send``."""

    def __init__(self, storage: Storage, clock: Clock, platform: Platform, send: Send, *,
                 prepare: Prepare | None = None, base_delay: float = BASE_DELAY, max_delay: float = MAX_DELAY,
                 max_attempts: int = MAX_ATTEMPTS, claims: Claims | None = None) -> None:
        self.storage = storage
        # With several processes on one database, a chat's notices are sent by the one that
        # claims the chat, so they arrive once and in order (None: this process is alone).
        self.claims = claims
        self.prepare = prepare  # draws a reply's board again (the outbox keeps no images)
        self.clock = clock
        self.platform = platform
        self.send = send
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.max_attempts = max_attempts
        self._paused_until: datetime | None = None  # the platform's quota is used up until then
        # One delivery at a time in this process: the claims are the process's own, so a drain
        # started by a move on the web board and the scheduler's would both send a notice.
        self._turn = asyncio.Lock()

    async def drain(self, limit: int = 100) -> int:
        """Sends every notice that is due (at most ``limit``); returns how many arrived.

        Storage hands out one chat's notices in order, each after the one before it arrived,
        so this asks again while the last round delivered something.
        """
        sent = 0
        async with self._turn:
            while sent < limit:
                now = self.clock.now()
                if self._paused(now):
                    break
                delivered = await self._round(now, limit - sent)
                sent += delivered
                if not delivered:
                    break
        return sent

    async def _round(self, now: datetime, limit: int) -> int:
        """Delivers the due head of each chat's queue; how many arrived."""
        rows = await self.storage.due_notices(self.platform, now, limit=limit)
        if self.claims is None or not rows:
            return await self._deliver_all(rows, now)
        async with self.claims.hold(f"outbox:{self.platform}", {row.channel for row in rows}) as chats:
            if not chats:
                return 0  # other processes are delivering to these chats
            # Read again under the claims: another process may have delivered some meanwhile.
            rows = await self.storage.due_notices(self.platform, now, limit=limit)
            return await self._deliver_all([row for row in rows if row.channel in chats], now, chats)

    async def _deliver_all(self, rows: Sequence[OutboxNotice], now: datetime, chats: Held | None = None) -> int:
        delivered = 0
        for row in rows:
            if chats is not None and not await chats.keep(row.channel):
                continue  # the claim ran out meanwhile and another process has the chat
            if await self._deliver(row):
                delivered += 1
            elif self._paused(now):
                break  # the quota is used up: the rest would be refused too
        return delivered

    def _paused(self, now: datetime) -> bool:
        return self._paused_until is not None and now < self._paused_until

    async def _deliver(self, row: OutboxNotice) -> bool:
        try:
            await self.send(await self._notice(row))
        except DeliveryError as error:
            await self._failed(row, error)
            return False
        except Exception as error:  # a door's bug or a network error: try again later
            log.warning("notice %s to %s/%s failed: %r", row.key, row.platform, row.channel, error)
            await self._failed(row, DeliveryError(repr(error)))
            return False
        await self.storage.mark_notices_sent([row.key])
        return True

    async def carry(self, channel: str, send: Send) -> None:
        """Sends what ``channel`` is still owed (notices it does not get pushed, or ones waiting
        for a retry) after the bot's answer there, in order, never while a drain is sending; on a
        failure the rest wait for the outbox or the next answer."""
        async with self._turn:
            try:
                pending = await self.pending_for(channel)
            except Exception:  # the outbox still has them: pushed later, or carried by the next answer
                log.warning("could not look at the notices waiting for %s", channel, exc_info=True)
                return
            for notice in pending:
                try:
                    await send(notice)
                except DeliveryError as error:
                    log.warning("a notice for %s waits in the outbox: %s", channel, error)
                    return
                await self.delivered([notice.key] if notice.key else [])

    async def pending_for(self, channel: str, *, skip: Callable[[str], bool] = lambda key: False) -> list[Notice]:
        """The chat's notices not yet delivered, but for those whose key ``skip`` names (the reply's
        own answer, say): a door that is replying to a person there may carry them in its reply
        (and then calls ``delivered``). Only the notices returned are read and drawn."""
        rows = await self.storage.pending_notices(self.platform, channel)
        return [await self._notice(row) for row in rows if not skip(row.key)]

    async def delivered(self, keys: Sequence[str]) -> None:
        if keys:
            await self.storage.mark_notices_sent(list(keys))

    async def _notice(self, row: OutboxNotice) -> Notice:
        notice = notice_of(row)
        if self.prepare is None:
            return notice
        return dataclasses.replace(notice, reply=await self.prepare(notice.reply))

    async def _failed(self, row: OutboxNotice, error: DeliveryError) -> None:
        now = self.clock.now()
        if error.quota:
            pause = max(error.retry_after or 0.0, self.max_delay)
            self._paused_until = now + timedelta(seconds=pause)
            log.warning("%s's message quota is used up; pushes wait until %s", self.platform,
                        self._paused_until.isoformat(timespec="seconds"))
            await self.storage.retry_notice(row.key, due=self._paused_until, error=str(error), count=False)
            return
        if error.permanent or row.attempts + 1 >= self.max_attempts:
            await self.storage.bury_notice(row.key, error=str(error))
            log.error("notice %s to %s/%s is undeliverable after %d tries (%s); kept in the outbox",
                      row.key, row.platform, row.channel, row.attempts + 1, error)
            return
        delay = min(self.max_delay, self.base_delay * 2 ** row.attempts)
        if error.retry_after is not None:
            delay = max(delay, error.retry_after)
        await self.storage.retry_notice(row.key, due=now + timedelta(seconds=delay), error=str(error))
