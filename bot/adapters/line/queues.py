"""One queue per chat: a chat's events are handled one after another, in the order they came.

LINE may deliver two messages of one chat in separate requests a few milliseconds apart, and
the second must not overtake the first while the first waits for a profile or the database.
``put`` is synchronous, so events are queued in the order their requests were accepted; one
worker per busy chat handles them in order and ends when its queue is empty (an idle chat
costs nothing), and different chats run side by side.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_WAITING = 10_000  # events waiting in all chats; beyond this the webhook asks LINE to come back


class ChatQueues(Generic[T]):
    """``put(chat, items)`` queues items for ``handle``; ``drain`` waits for them at shutdown."""

    def __init__(self, handle: Callable[[T], Awaitable[None]], *, limit: int = MAX_WAITING) -> None:
        self._handle = handle
        self.limit = limit
        self._queues: dict[str, deque[T]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._waiting = 0

    @property
    def waiting(self) -> int:
        """Items queued and not yet taken up by their chat's worker."""
        return self._waiting

    @property
    def busy_chats(self) -> int:
        return len(self._workers)

    def room(self) -> int:
        return self.limit - self._waiting

    def put(self, chat: str, items: Sequence[T]) -> None:
        """Queues ``items`` behind the chat's earlier ones (no await: the order is the call order)."""
        if not items:
            return
        queue = self._queues.get(chat)
        if queue is None:
            queue = self._queues[chat] = deque()
        queue.extend(items)
        self._waiting += len(items)
        if chat not in self._workers:
            self._workers[chat] = asyncio.create_task(self._work(chat, queue), name=f"line-chat-{chat[:40]}")

    async def drain(self, timeout: float | None = None) -> int:
        """Waits until every queue is empty; after ``timeout`` seconds the workers are cancelled
        and what they had not taken up is left unhandled. Returns how many items that was."""
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

    async def _work(self, chat: str, queue: deque[T]) -> None:
        try:
            while queue:
                item = queue.popleft()
                self._waiting -= 1
                try:
                    await self._handle(item)
                except Exception:
                    log.exception("could not handle an item for %s", chat)
        finally:
            # No await since the loop saw the queue empty: a put() after this starts a new worker.
            self._forget(chat)

    def _forget(self, chat: str) -> None:
        queue = self._queues.pop(chat, None)
        self._workers.pop(chat, None)
        if queue:  # cancelled: the rest was never taken up
            log.warning("%d event(s) for %s left unhandled at shutdown", len(queue), chat)
            self._waiting -= len(queue)
