"""Fixtures for the service tests: a real SQLite file, a fake clock, a service."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService

from .support import Chat, no_image


@pytest.fixture
async def service(storage, clock):
    return GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1), render=no_image)


@pytest.fixture
def chat(service) -> Chat:
    return Chat(service)
