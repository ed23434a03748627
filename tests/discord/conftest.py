"""Fixtures for the Discord adapter: a real service over SQLite, a bot that never connects."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import asynccontextmanager

import pytest

from bot.adapters.discord.client import MakrukBot
from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService

from .fakes import FakeDiscord, log_in


def cheap_board(view) -> bytes:
    """A stand-in for the renderer: PNG magic and the position, so tests can tell boards apart."""
    return b"\x89PNG\r\n\x1a\n" + view.fen.encode() + (b" flipped" if view.flip else b"")


@pytest.fixture
def settings() -> Settings:
    return Settings(language="en")


@pytest.fixture
def render():
    return cheap_board


@pytest.fixture
async def service(storage, clock, settings, render):
    return GameService(storage, settings, clock=clock, engine=RandomMover(seed=1), render=render)


@asynccontextmanager
async def offline_bot(service, settings, **options):
    """A bot set up as ``setup_hook`` does, logged in as far as discord.py can tell, never connected."""
    async with MakrukBot(service, settings, scheduler_seconds=None, **options) as made:
        await made.install()
        log_in(made)
        yield made


@pytest.fixture
async def bot(service, settings):
    async with offline_bot(service, settings) as made:
        yield made


@pytest.fixture
def discord_api(bot, caplog) -> Iterator[FakeDiscord]:
    fake = FakeDiscord(bot)
    fake.install()
    caplog.set_level(logging.WARNING)
    yield fake
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]
