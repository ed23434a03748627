"""Fixtures for the operations tests: a real app over a SQLite file, counting on metrics of its own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import App, open_app
from bot.config import Settings
from bot.engines import RandomMover
from bot.observability.metrics import Metrics

from ..bot.support import no_image


@pytest.fixture
def metrics() -> Metrics:
    """Metrics of this test's own: no count is shared with another test."""
    return Metrics()


@pytest.fixture
async def app(tmp_path, clock, metrics) -> AsyncIterator[App]:
    settings = Settings(database_path=tmp_path / "bot.db", language="en")
    async with open_app(settings, clock=clock, engine=RandomMover(seed=1), render=no_image, card_render=no_image,
                        metrics=metrics) as running:
        yield running
