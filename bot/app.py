"""Wiring: settings -> storage -> engine -> game service, shared by every adapter."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass

from storage import Storage, open_storage

from .clock import Clock, SystemClock
from .config import Settings
from .engines import Engine, RandomMover
from .services.games import GameService


@dataclass
class App:
    settings: Settings
    storage: Storage
    games: GameService


@asynccontextmanager
async def open_app(settings: Settings, *, clock: Clock | None = None, engine: Engine | None = None, render=None):
    """The running parts of the bot; closes the database on exit."""
    clock = clock or SystemClock()
    storage = await open_storage(settings.database_path, clock=clock.now)
    try:
        games = GameService(storage, settings, clock=clock, engine=engine or RandomMover(), render=render)
        yield App(settings, storage, games)
    finally:
        await storage.close()


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
