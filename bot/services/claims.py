"""Claims on scheduled work, so that several bot processes on one database each do a piece once.

Every process runs the scheduler. Before it acts on a game's deadline, reminder or waiting
engine turn, on a chat's outbox, or on a daily post, it claims that piece of work in the
database (storage leases) for a while. Another process skips what it cannot claim; a process
that dies holds its claims only until they run out, and then another takes the work over.

Claims save work and keep a chat's notices in order across processes; they are not what
makes an effect happen once. That is the game's compare-and-set (a deadline's loss is
stored once, with its notice, whoever claims it) and the outbox's keys.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import TYPE_CHECKING, Final

from ..clock import Clock

if TYPE_CHECKING:
    from storage import Storage

log = logging.getLogger(__name__)

LEASE: Final = timedelta(minutes=2)  # how long a dead process's work waits to be taken over


def new_holder() -> str:
    """A name for one app among those sharing the database: host, pid and a nonce (pids are
    reused after a restart, and the old claims must not look like ours; two apps in one
    process, as in the tests, are two holders)."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(3)}"

Counter = Callable[[str, int], None]  # (kind, how many claimed): for the metrics


class Claims:
    def __init__(self, storage: Storage, clock: Clock, *, holder: str | None = None, lease: timedelta = LEASE,
                 counter: Counter | None = None) -> None:
        self.storage = storage
        self.clock = clock
        self.holder = holder or new_holder()
        self.lease = lease
        self.counter = counter

    @asynccontextmanager
    async def hold(self, kind: str, names: Iterable[str]) -> AsyncIterator[set[str]]:
        """Claims ``kind:name`` for each name; yields the names this process now holds, and
        gives them back at the end (also on an error: then another process may retry them)."""
        wanted = {f"{kind}:{name}": name for name in names}
        if not wanted:
            yield set()
            return
        held = await self.storage.claim(list(wanted), self.holder, until=self.clock.now() + self.lease)
        if self.counter is not None:
            self.counter(kind, len(held))
        try:
            yield {wanted[key] for key in held}
        finally:
            try:
                await self.storage.release(sorted(held), self.holder)
            except Exception:
                log.warning("could not give back %d %s claims; they run out in %s", len(held), kind, self.lease,
                            exc_info=True)
