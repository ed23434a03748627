"""Fixtures for the service tests: a real SQLite file, a fake clock, a service."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService
from storage import open_storage

from .support import Chat, no_image


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "bot.db"


@pytest.fixture
async def storage(db_path, clock):
    store = await open_storage(db_path, clock=clock.now)
    yield store
    await store.close()


@pytest.fixture
async def service(storage, clock):
    return GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1), render=no_image)


@pytest.fixture
def chat(service) -> Chat:
    return Chat(service)
