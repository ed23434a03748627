"""The in-process scheduler: every few seconds it lets the services act on time.

Deadlines and the outbox live in the database, so a restarted bot picks up whatever came due
while it was down on its first tick (it runs at once when started). Each job runs on its own:
one that fails is logged and runs again next time; the others are not held up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable["int | None"]]  # returns how many notices it delivered, if it delivers


class Scheduler:
    def __init__(self, jobs: Sequence[Job], *, interval: float = 20.0) -> None:
        self.jobs = list(jobs)
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    async def run_once(self) -> int:
        """Runs every job once, in order; returns how many notices they delivered."""
        delivered = 0
        for job in self.jobs:
            try:
                delivered += await job() or 0
            except Exception:
                log.exception("scheduled job %s failed; it runs again next time", job)
        return delivered

    async def run_forever(self) -> None:
        while True:
            await self.run_once()
            await asyncio.sleep(self.interval)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.create_task(self.run_forever(), name="scheduler")
        return self._task

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
