"""The in-process scheduler: every few seconds it lets the services act on time.

Deadlines and the outbox live in the database, so a restarted bot picks up whatever came due
while it was down on its first tick (it runs at once when started). Each job runs on its own:
one that fails is logged and runs again next time; the others are not held up.

With a ``wake`` (the game service's, see GameService.wake) it does not wait the whole interval
when a deadline comes sooner: a live game's flag falls within a second. It sleeps until the
next deadline the database holds, and is woken early when the service stores an earlier one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable["int | None"]]  # returns how many notices it delivered, if it delivers
# The shortest sleep: a deadline that stays due (another process holds the game, a step that
# failed) is looked at again this often, not in a busy loop; still well within a second.
SHORTEST_NAP = 0.1
# A nap ends this much after the deadline it is for, so the clock has passed it when the jobs run.
PAST_THE_DEADLINE = 0.01


class Wake(Protocol):
    @property
    def jobs(self) -> Sequence[Job]:
        """What runs when a deadline wakes the scheduler before its interval is up."""
        ...

    async def seconds_to_next(self) -> float | None:
        """Seconds until the next deadline (None: there is none)."""
        ...

    async def wait(self, seconds: float) -> None:
        """Returns after ``seconds``, or sooner when an earlier deadline was stored."""
        ...


class Scheduler:
    def __init__(self, jobs: Sequence[Job], *, interval: float = 20.0, wake: Wake | None = None) -> None:
        self.jobs = list(jobs)
        self.interval = interval
        self.wake = wake
        self._task: asyncio.Task[None] | None = None

    async def run_once(self, jobs: Sequence[Job] | None = None) -> int:
        """Runs every job (or ``jobs``) once, in order; returns how many notices they delivered."""
        delivered = 0
        for job in self.jobs if jobs is None else jobs:
            try:
                delivered += await job() or 0
            except Exception:
                log.exception("scheduled job %s failed; it runs again next time", job)
        return delivered

    async def run_forever(self) -> None:
        while True:
            round_started = time.monotonic()
            await self.run_once()
            await self.nap()
            # Woken for a deadline before the interval is up: only what deadlines need, until it is.
            while self.wake is not None and (left := self.interval - (time.monotonic() - round_started)) > 0:
                await self.run_once(self.wake.jobs)
                await self.nap(left)

    async def nap(self, limit: float | None = None) -> None:
        """Waits until the jobs should run again (at most ``limit`` seconds)."""
        delay = await self.next_delay()
        if limit is not None:
            delay = max(0.0, min(delay, limit))
        if self.wake is None:
            await asyncio.sleep(delay)
        else:
            await self.wake.wait(delay)

    async def next_delay(self) -> float:
        """The interval, or less when a deadline comes sooner (never less than SHORTEST_NAP)."""
        if self.wake is None:
            return self.interval
        try:
            due = await self.wake.seconds_to_next()
        except Exception:
            log.exception("the next deadline could not be read; the scheduler waits its interval")
            return self.interval
        if due is None:
            return self.interval
        return min(self.interval, max(SHORTEST_NAP, due + PAST_THE_DEADLINE))

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.create_task(self.run_forever(), name="scheduler")
        return self._task

    async def stop(self) -> None:
        task, self._task = self._task, None
        # Cancelled until it is done: a job may have caught one cancel (a library that swallows
        # it) and gone on; a scheduler that is stopped must not keep running.
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=1.0)
        if task is not None and not task.cancelled() and task.exception() is not None:
            log.error("the scheduler had stopped with an error", exc_info=task.exception())
