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
    """A name for one app among those sharing the database: where it runs (host and pid
    namespace), its pid and a nonce (pids are reused after a restart, and the old claims must
    not look like ours; two apps in one process, as in the tests, are two holders)."""
    return f"{_here()}{os.getpid()}/{secrets.token_hex(3)}"


def _here() -> str:
    """The prefix of the holders whose pids this process can look up: same host, same pid
    namespace (two containers may share a host name, never a pid namespace)."""
    try:
        namespace = os.readlink("/proc/self/ns/pid").removeprefix("pid:").strip("[]")
    except OSError:
        namespace = "-"
    return f"{socket.gethostname()}/{namespace}/"


def here() -> str:
    """The prefix of the holders on this machine (see ``gone``)."""
    return _here()


def gone(holders: Iterable[str], *, me: str | None = None) -> list[str]:
    """Those of ``holders`` (names from ``new_holder``) that ran on this machine and whose
    process no longer exists. Holders elsewhere, or whose pid is taken again, are not gone."""
    prefix = _here()
    dead = []
    for holder in holders:
        if holder == me or not holder.startswith(prefix):
            continue
        pid = holder.removeprefix(prefix).partition("/")[0]
        if pid.isdigit() and not _alive(int(pid)):
            dead.append(holder)
    return dead


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, as another user
    return True


Counter = Callable[[str, int], None]  # (kind, how many claimed): for the metrics


class Claims:
    def __init__(self, storage: Storage, clock: Clock, *, holder: str | None = None, lease: timedelta = LEASE,
                 counter: Counter | None = None) -> None:
        self.storage = storage
        self.clock = clock
        self.holder = holder or new_holder()
        self.lease = lease
        self.counter = counter

    async def release_the_dead(self) -> int:
        """Gives back the claims of holders on this machine whose process is gone: a bot that
        was killed and started again takes its work up at once, not when the old claims run
        out. Holders elsewhere keep theirs until their lease ends. Returns how many."""
        released = 0
        for holder in gone(await self.storage.lease_holders(_here()), me=self.holder):
            released += await self.storage.release_holder(holder)
        if released:
            log.info("took over %d claims of processes on this machine that are gone", released)
        return released

    @asynccontextmanager
    async def hold(self, kind: str, names: Iterable[str]) -> AsyncIterator[Held]:
        """Claims ``kind:name`` for each name; yields what this process now holds, and gives it
        back at the end (also on an error: then another process may retry the work)."""
        held = Held(self, kind, names)
        await held.take()
        try:
            yield held
        finally:
            await held.give_back()


class Held:
    """The claims one ``Claims.hold`` got. Ask ``keep(name)`` before each piece of work: past
    half the lease it extends the claims, so that long work is not taken over while it runs,
    and it says whether the claim is still this process's."""

    def __init__(self, claims: Claims, kind: str, names: Iterable[str]) -> None:
        self._claims = claims
        self._kind = kind
        self._keys = {f"{kind}:{name}": name for name in names}
        self._held: set[str] = set()
        self._since = claims.clock.now()

    def __contains__(self, name: object) -> bool:
        return f"{self._kind}:{name}" in self._held

    def __bool__(self) -> bool:
        return bool(self._held)

    @property
    def names(self) -> set[str]:
        return {self._keys[key] for key in self._held}

    async def keep(self, name: str) -> bool:
        claims = self._claims
        now = claims.clock.now()
        if self._held and now - self._since >= claims.lease / 2:
            self._held = await claims.storage.claim(sorted(self._held), claims.holder, until=now + claims.lease)
            self._since = now
        return name in self

    async def take(self) -> None:
        if not self._keys:
            return
        claims = self._claims
        self._since = claims.clock.now()
        self._held = await claims.storage.claim(list(self._keys), claims.holder, until=self._since + claims.lease)
        if claims.counter is not None:
            claims.counter(self._kind, len(self._held))

    async def give_back(self) -> None:
        if not self._held:
            return
        claims = self._claims
        try:
            await claims.storage.release(sorted(self._held), claims.holder)
        except Exception:
            log.warning("could not give back %d %s claims; they run out in %s", len(self._held), self._kind,
                        claims.lease, exc_info=True)
        self._held = set()
