"""The in-process scheduler: every few seconds it lets the services act on time.

Deadlines live in the database, so a restarted bot picks up whatever came due while it was
down on its first tick.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from .messages import Notice

log = logging.getLogger(__name__)

Deliver = Callable[[Notice], Awaitable[None]]


class Scheduler:
    def __init__(self, jobs: Sequence[Callable[[], Awaitable[list[Notice]]]], deliver: Deliver,
                 *, interval: float = 20.0) -> None:
        self.jobs = list(jobs)
        self.deliver = deliver
        self.interval = interval
        self._task: asyncio.Task | None = None

    async def run_once(self) -> int:
        """Runs every job once and delivers what they produced; returns how many notices."""
        sent = 0
        for job in self.jobs:
            try:
                notices = await job()
            except Exception:
                log.exception("scheduled job %s failed; it runs again next time", job)
                continue
            for notice in notices:
                try:
                    await self.deliver(notice)
                    sent += 1
                except Exception:
                    log.exception("could not deliver a notice to %s/%s", notice.platform, notice.channel)
        return sent

    async def run_forever(self) -> None:
        while True:
            await self.run_once()
            await asyncio.sleep(self.interval)

    def start(self) -> asyncio.Task:
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
