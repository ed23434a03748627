"""What wakes the scheduler for the next deadline (a live game's flag) instead of polling.

The service rings the bell when it stores a live game's change (its deadline may now be the
earliest); each door's scheduler asks its ``Wake`` how long to sleep: until the next deadline
in the database, or until the bell rings.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from datetime import timedelta

from storage import Storage

from ...clock import Clock
from ...messages import Platform
from ...scheduler import Job

STUCK = timedelta(seconds=2)  # a deadline still due this long after it passed is left to the full rounds


class Bell:
    """Rung by the service when a deadline may have come sooner; heard by every Wake."""

    def __init__(self) -> None:
        self._listeners: set[asyncio.Event] = set()

    def ring(self) -> None:
        for heard in self._listeners:
            heard.set()

    def listener(self) -> asyncio.Event:
        heard = asyncio.Event()
        self._listeners.add(heard)
        return heard


class DeadlineWake:
    """A scheduler's sleep (bot/scheduler.py ``Wake``) until the next deadline of
    ``platform``'s games, or until the bell rings; ``jobs``, what the scheduler runs when it
    wakes so, before its interval is up."""

    def __init__(self, storage: Storage, clock: Clock, bell: Bell, platform: Platform | None = None,
                 jobs: Sequence[Job] = ()) -> None:
        self.storage = storage
        self.clock = clock
        self.platform = platform
        self.jobs = list(jobs)
        self._heard = bell.listener()

    async def seconds_to_next(self) -> float | None:
        # A deadline passed long ago is one another process holds, or whose step failed: the
        # scheduler's full rounds look at it again; the wake waits for the next one after it.
        now = self.clock.now()
        due = await self.storage.next_deadline(after=now - STUCK, platform=self.platform)
        return None if due is None else (due - now).total_seconds()

    async def wait(self, seconds: float) -> None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for may swallow a cancel that comes
        # as its timeout fires, and the scheduler being stopped would then sleep on for ever.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._heard.wait()
        self._heard.clear()
