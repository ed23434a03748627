"""Leases: one process at a time does a piece of scheduled work; a dead holder's claim runs out."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from storage import Storage, open_storage

from .storage_helpers import FakeClock


async def test_a_claim_is_held_until_released_or_run_out(storage: Storage, clock: FakeClock) -> None:
    until = clock.now + timedelta(seconds=60)
    assert await storage.claim(["game:1", "game:2"], "a", until=until) == {"game:1", "game:2"}
    assert await storage.claim(["game:1", "game:3"], "b", until=until) == {"game:3"}

    await storage.release(["game:1"], "a")
    assert await storage.claim(["game:1"], "b", until=until) == {"game:1"}

    # a's claim on game:2 runs out: a process that died holds nothing for ever.
    assert await storage.claim(["game:2"], "b", until=until) == set()
    clock.advance(60)
    assert await storage.claim(["game:2"], "b", until=clock.now + timedelta(seconds=60)) == {"game:2"}


async def test_a_holder_extends_its_own_claim_and_cannot_release_anothers(
    storage: Storage, clock: FakeClock
) -> None:
    assert await storage.claim(["outbox:line:C1"], "a", until=clock.now + timedelta(seconds=10))
    clock.advance(5)
    assert await storage.claim(["outbox:line:C1"], "a", until=clock.now + timedelta(seconds=10))
    clock.advance(6)  # past the first claim, within the extended one
    assert await storage.claim(["outbox:line:C1"], "b", until=clock.now + timedelta(seconds=10)) == set()
    await storage.release(["outbox:line:C1"], "b")  # not b's: nothing happens
    assert await storage.claim(["outbox:line:C1"], "b", until=clock.now + timedelta(seconds=10)) == set()


async def test_racing_processes_each_claim_a_name_once(database: str, clock: FakeClock) -> None:
    """Four connections (as four processes would) race for the same 200 names: every name is
    won by exactly one."""
    names = [f"game:{i}" for i in range(200)]
    stores = [await open_storage(database, clock=clock) for _ in range(4)]
    try:
        until = clock.now + timedelta(seconds=60)
        won = await asyncio.gather(
            *(store.claim(names[i::2] + names[1 - i % 2::2], f"p{i}", until=until)
              for i, store in enumerate(stores))
        )
    finally:
        for store in stores:
            await store.close()
    assert sorted(name for held in won for name in held) == sorted(names)
