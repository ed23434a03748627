"""Fixtures for the puzzle tests: a real SQLite file, a fake clock on a Monday, the services."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from storage import open_storage

from .support import FLOW_PUZZLES, MONDAY, make_services


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(MONDAY)


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "bot.db"


@pytest.fixture
async def storage(db_path, clock):
    store = await open_storage(db_path, clock=clock.now)
    yield store
    await store.close()


@pytest.fixture
async def services(storage, clock):
    await storage.upsert_puzzles(FLOW_PUZZLES)
    return make_services(storage, clock)


@pytest.fixture
def games(services):
    return services[0]


@pytest.fixture
def puzzles(services):
    return services[1]
