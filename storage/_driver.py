"""What every Storage method stands on: the three driver methods each database supplies
(`_write`, `_read`, `_snapshot`), the clock and the move cache, and `Answer`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TypeAlias, TypeVar

from ._cache import MoveCache
from ._common import Clock
from ._plan import Plan
from ._rows import utc
from .queries import outbox
from .records import NewNotice

T = TypeVar("T")

# The answer to the message that makes a change, as outbox rows made from what the change
# returns (a new game's answer shows its id): the storage stores them in the change's own
# transaction, so that a message handled again after a crash finds both or neither. It runs
# inside the transaction (on SQLite's worker thread): quick, pure, no I/O.
Answer: TypeAlias = Callable[[T], Sequence[NewNotice]]


class Driver(ABC):
    """How a plan runs: SqliteStorage and PostgresStorage supply it, Storage's methods use it."""

    _clock: Clock
    _moves: MoveCache

    @abstractmethod
    async def _write(self, plan: Plan[T], *, synced: bool = True) -> T:
        """Run `plan` as one write transaction. `synced=False` for bookkeeping that need not
        wait for the disk: a power cut may lose it (the next synced commit writes it out in
        order with itself); a crash of the process loses nothing."""

    @abstractmethod
    async def _read(self, plan: Plan[T]) -> T:
        """Run `plan`, which only reads; each of its statements sees what was committed when it began."""

    @abstractmethod
    async def _snapshot(self, plan: Plan[T]) -> T:
        """Run `plan`, which only reads, in one snapshot of the database."""

    def _time(self) -> datetime:
        return utc(self._clock())


def answered(plan: Plan[T], answer: Answer[T] | None, now: datetime) -> Plan[T]:
    """`plan`, then the notices `answer` makes from what it returns, in the same transaction."""
    result = yield from plan
    if answer is not None:
        yield from outbox.insert_notices(list(answer(result)), now)
    return result
