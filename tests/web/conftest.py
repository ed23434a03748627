"""Fixtures for the web board: a real SQLite file, a game service with a fake clock, and the
board's routes on a real aiohttp server on the loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService
from bot.web.server import WebBoard
from bot.web.tokens import TOKEN_LIFETIME, make_token
from storage import Storage, open_storage

from ..bot.support import Chat, no_image

SECRET = "test-secret"


@dataclass
class Site:
    """The running board, its service and chat, and a client of its server."""

    games: GameService
    board: WebBoard
    client: TestClient
    chat: Chat
    clock: FakeClock
    owed: list[str]

    def token(self, game_id: int, user: str, lifetime: timedelta = TOKEN_LIFETIME) -> str:
        return make_token(SECRET, game_id, "console", user, self.clock.now() + lifetime)

    async def new_game(self, white: str = "ann", black: str = "bob") -> int:
        """A game between two people of the console chat, ``white`` to move first."""
        await self.chat.ok(white, f"new @{black} white", black)
        replies = await self.chat.ok(black, "accept")
        game = replies[-1].game
        assert game is not None and game.white == white
        return game.id


@pytest.fixture
async def db(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await open_storage(str(db_path), clock=clock.now)
    yield store
    await store.close()


def web_settings(**more: object) -> Settings:
    return Settings(language="en", web_secret=SECRET, **more)  # type: ignore[arg-type]


@pytest.fixture
async def site(db: Storage, clock: FakeClock) -> AsyncIterator[Site]:
    settings = web_settings()
    games = GameService(db, settings, clock=clock, engine=RandomMover(seed=1), render=no_image)
    owed: list[str] = []
    board = WebBoard(games, settings, clock, base="http://board.test", owed=owed.append)
    board.hub.poll = 0.05
    app = web.Application()
    board.add_routes(app)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    try:
        yield Site(games, board, client, Chat(games), clock, owed)
    finally:
        await client.close()
