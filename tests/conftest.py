"""Fixtures most test folders share: a fake clock and a real SQLite file opened with it.

A folder's own conftest overrides what it needs (the puzzle tests start on a Monday, the
storage tests open the database with the clock itself)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import FakeClock
from storage import Storage, open_storage


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await open_storage(db_path, clock=clock.now)
    yield store
    await store.close()
