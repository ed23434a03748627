"""Claims on scheduled work: one app at a time does each piece; long work keeps its claim."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

from bot.services.claims import Claims


async def test_two_apps_split_the_work_and_give_it_back(storage, clock) -> None:
    first, second = Claims(storage, clock), Claims(storage, clock)
    async with first.hold("game", ["1", "2"]) as mine, second.hold("game", ["2", "3"]) as theirs:
        assert mine.names == {"1", "2"} and theirs.names == {"3"}
        assert "2" in mine and "2" not in theirs
    async with second.hold("game", ["1", "2"]) as theirs:  # given back at the end of the block
        assert theirs.names == {"1", "2"}


async def test_long_work_keeps_its_claim_and_a_stalled_one_loses_it(storage, clock) -> None:
    lease = timedelta(seconds=60)
    worker, other = Claims(storage, clock, lease=lease), Claims(storage, clock, lease=lease)
    async with worker.hold("outbox:line", ["C1", "C2"]) as chats:
        clock.advance(seconds=40)
        assert await chats.keep("C1")  # past half the lease: extended for another minute
        clock.advance(seconds=40)  # the first claim would have run out by now
        async with other.hold("outbox:line", ["C1"]) as taken:
            assert not taken
        clock.advance(seconds=61)  # stalled for longer than the lease
        async with other.hold("outbox:line", ["C1"]) as taken:
            assert taken.names == {"C1"}
            assert not await chats.keep("C1")  # the stalled worker learns it lost the chat
            assert await chats.keep("C2")


async def test_claims_are_counted_by_kind(storage, clock) -> None:
    counted: list[tuple[str, int]] = []
    claims = Claims(storage, clock, counter=lambda kind, n: counted.append((kind, n)))
    async with claims.hold("game", ["1", "2"]):
        pass
    async with claims.hold("game", []):
        pass
    assert counted == [("game", 2)]


async def test_a_restarted_bot_takes_over_the_claims_of_its_dead_predecessor_at_once(storage, clock) -> None:
    # A process on this machine that is gone: a child that ran and was reaped.
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                           check=True)
    dead = Claims(storage, clock)
    dead.holder = dead.holder.replace(f"/{os.getpid()}/", f"/{int(child.stdout)}/", 1)
    alive_here = Claims(storage, clock)  # this process: alive
    elsewhere = Claims(storage, clock, holder="another-host/4026531836/1/abcdef")
    for claims, name in ((dead, "1"), (alive_here, "2"), (elsewhere, "3")):
        await storage.claim([f"game:{name}"], claims.holder, until=clock.now() + claims.lease)
    restarted = Claims(storage, clock)
    assert await restarted.release_the_dead() == 1
    async with restarted.hold("game", ["1", "2", "3"]) as mine:
        assert mine.names == {"1"}  # the others wait for their lease
    assert await restarted.release_the_dead() == 0
