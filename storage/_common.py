"""What opening either backend takes: the clock that stamps times and the busy timeout."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Final

Clock = Callable[[], datetime]

# How long a call waits for another writer's lock before it raises StorageBusy.
BUSY_TIMEOUT_MS: Final = 5000
# How many games' move lists a storage keeps in memory.
MOVE_CACHE_SIZE: Final = 256


def utc_now() -> datetime:
    return datetime.now(UTC)
