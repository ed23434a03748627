"""Fixtures for the puzzle tests: a real SQLite file, a fake clock on a Monday, the services."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock

from .support import FLOW_PUZZLES, MONDAY, make_services


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(MONDAY)


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
