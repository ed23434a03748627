"""A stopped scheduler stops: also when a job swallowed the first cancel and went on (as
asyncio.wait_for may on Python 3.11 when a cancel meets its timeout), and also while it sleeps
on its wake."""

from __future__ import annotations

import asyncio

from bot.scheduler import Scheduler


async def test_stop_ends_a_scheduler_whose_job_swallowed_a_cancel() -> None:
    started = asyncio.Event()
    cancels = 0

    async def stubborn() -> int:
        nonlocal cancels
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancels += 1
            if cancels == 1:
                return 0  # swallowed: the scheduler goes on to its next round
            raise
        return 0

    scheduler = Scheduler([stubborn], interval=0.01)
    scheduler.start()
    await started.wait()
    await scheduler.stop()  # before the fix it waited for ever here (pytest-timeout ends it)
    assert not scheduler.running and cancels == 2


class EndlessWake:
    """A wake with a deadline always just ahead, and nothing to run: the scheduler naps in it."""

    jobs = ()

    def __init__(self) -> None:
        self.napping = asyncio.Event()

    async def seconds_to_next(self) -> float | None:
        return 0.0

    async def wait(self, seconds: float) -> None:
        self.napping.set()
        try:
            async with asyncio.timeout(seconds):
                await asyncio.Event().wait()
        except TimeoutError:
            pass


async def test_stop_ends_a_scheduler_napping_on_its_wake() -> None:
    wake = EndlessWake()
    scheduler = Scheduler([], interval=60, wake=wake)
    scheduler.start()
    await wake.napping.wait()
    await scheduler.stop()
    assert not scheduler.running
