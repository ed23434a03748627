"""One worker per busy chat, so a chat's events are handled one after another and different
chats side by side.

The events themselves wait in the database (the inbox, ``inbox.py``); here a chat only counts
how many it was told of. ``put(chat)`` after an event is stored wakes the chat's worker, or
asks the running one for another pass: an event stored while a pass was looking may have been
missed by it. A worker ends when a pass saw nothing new, so an idle chat costs nothing. The
count bounds what one process lets wait (beyond it the webhook asks LINE to come back).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

MAX_WAITING = 10_000  # events waiting in all chats; beyond this the webhook asks LINE to come back

# work(chat, took): handles the chat's waiting events, calling took() for each one it takes.
Work = Callable[[str, Callable[[], None]], Awaitable[None]]


class ChatQueues:
    def __init__(self, work: Work, *, limit: int = MAX_WAITING) -> None:
        self._work_on = work
        self.limit = limit
        self._owed: dict[str, int] = {}  # events each busy chat was told of and has not taken
        self._again: set[str] = set()  # chats told of an event during their worker's pass
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._waiting = 0

    @property
    def waiting(self) -> int:
        """Events this process was told of and has not taken up."""
        return self._waiting

    @property
    def busy_chats(self) -> int:
        return len(self._workers)

    def room(self) -> int:
        return self.limit - self._waiting

    def put(self, chat: str, count: int = 1) -> None:
        """Says ``count`` events of ``chat`` wait (no await: workers start in the call order)."""
        self._owed[chat] = self._owed.get(chat, 0) + count
        self._waiting += count
        self._again.add(chat)
        if chat not in self._workers:
            self._workers[chat] = asyncio.create_task(self._work(chat), name=f"line-chat-{chat[:40]}")

    async def drain(self, timeout: float | None = None) -> int:
        """Waits until every chat's worker is done; after ``timeout`` seconds they are cancelled
        (what they had not taken up stays in the inbox). Returns how many events that was."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self._workers:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            _, pending = await asyncio.wait(list(self._workers.values()), timeout=left)
            if pending and deadline is not None and loop.time() >= deadline:
                dropped = self._waiting
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                for chat in [chat for chat, task in self._workers.items() if task.done()]:
                    self._forget(chat)  # a worker cancelled before it started never ran its finally
                return dropped
        return 0

    async def _work(self, chat: str) -> None:
        try:
            while chat in self._again:
                self._again.discard(chat)
                try:
                    await self._work_on(chat, lambda: self._took(chat))
                except Exception:
                    log.exception("could not handle the events of %s", chat)
        finally:
            # No await since the loop saw no new event: a put() after this starts a new worker.
            self._forget(chat)

    def _took(self, chat: str) -> None:
        if self._owed.get(chat, 0) > 0:
            self._owed[chat] -= 1
            self._waiting -= 1

    def _forget(self, chat: str) -> None:
        # What is left was taken by another process, or stays in the inbox for later.
        self._waiting -= self._owed.pop(chat, 0)
        self._again.discard(chat)
        self._workers.pop(chat, None)
