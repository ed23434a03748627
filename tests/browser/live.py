"""A web board served for the browser: a real SQLite file, a game service with a fake clock, the
board's routes on a real aiohttp server on the loopback, and a key set standing in for LINE's
served as LINE serves its own (for LIFF sign-ins). Everything runs on the folder's event loop,
as the browser does (see conftest.py)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestServer
from playwright.async_api import Locator, Page, expect

from bot.clock import FakeClock
from bot.engines import RandomMover
from bot.messages import Notice
from bot.services.games import GameService
from bot.web.server import WebBoard
from bot.web.tokens import TOKEN_LIFETIME, make_token
from storage import open_storage

from ..bot.support import Chat, drain, no_image
from ..web.conftest import SECRET, web_settings
from ..web.test_liff import CHANNEL, LineKeys

LIFF_ID = "1650000000-test"


@dataclass
class Live:
    """The running board: its address, its game service, a chat of the console and one of a LINE
    group, the clock, and LINE's stand-in keys."""

    base: str
    games: GameService
    board: WebBoard
    chat: Chat
    line: Chat
    clock: FakeClock
    keys: LineKeys

    def watch_link(self, game_id: int) -> str:
        return f"{self.base}/g/{game_id}"

    def link(self, game_id: int, user: str, *, lifetime: timedelta = TOKEN_LIFETIME, secret: str = SECRET,
             token_game: int | None = None) -> str:
        """A player's own link, as a door hands it out (the token in the fragment); the keywords
        make bad ones: signed with another secret, or for another game."""
        token = make_token(secret, token_game or game_id, "console", user, self.clock.now() + lifetime)
        return f"{self.watch_link(game_id)}#t={token}"

    def id_token(self, user: str, *, keys: LineKeys | None = None) -> str:
        """A LINE ID token for ``user``, as LIFF hands it to the page (``keys``: signed by others)."""
        return (keys or self.keys).id_token(user, self.clock.now().timestamp())

    async def new_game(self, white: str = "ann", black: str = "bob", *, chat: Chat | None = None) -> int:
        """A game between two people of the chat, ``white`` to move first."""
        chat = chat or self.chat
        await chat.ok(white, f"new @{black} white", black)
        game = (await chat.ok(black, "accept"))[-1].game
        assert game is not None and game.white == white
        return game.id

    async def text(self, game_id: int, key: str) -> str:
        """The catalogue's text ``key`` in the game's chat's language, as the page shows it."""
        record = await self.games.game_record(game_id)
        assert record is not None
        return self.games.catalog.text(record.language, key)

    async def status(self, game_id: int) -> str:
        """The status line the server sends every viewer now."""
        state = await self.board.hub.state_for(game_id, None)
        assert state is not None
        return str(state["statusText"])

    async def moves(self, game_id: int) -> list[str]:
        return [move.uci for move in (await self.games.storage.get_game(game_id)).moves]

    async def announced(self) -> list[Notice]:
        """What the chats were sent since the last look (the outbox, as a door delivers it)."""
        return await drain(self.games.outbox)


@asynccontextmanager
async def serving(db_path: Path, clock: FakeClock) -> AsyncIterator[Live]:
    keys = LineKeys()
    jwks = web.Application()

    async def certs(request: web.Request) -> web.Response:
        return web.json_response(keys.jwks())

    jwks.router.add_get("/oauth2/v2.1/certs", certs)
    async with TestServer(jwks, host="127.0.0.1") as line_server:
        settings = web_settings(liff_id=LIFF_ID, line_login_channel_id=CHANNEL,
                                line_jwks_url=str(line_server.make_url("/oauth2/v2.1/certs")))
        storage = await open_storage(str(db_path), clock=clock.now)
        games = GameService(storage, settings, clock=clock, engine=RandomMover(seed=1), render=no_image)
        try:
            board = WebBoard(games, settings, clock)
            app = web.Application()
            board.add_routes(app)
            async with TestServer(app, host="127.0.0.1") as server:
                base = str(server.make_url("")).rstrip("/")
                yield Live(base, games, board, Chat(games), Chat(games, channel="Cgroup", platform="line"), clock,
                           keys)
        finally:
            await storage.close()


# --- what a test does on a page ------------------------------------------------------------


def square(page: Page, name: str) -> Locator:
    return page.locator(f'[data-square="{name}"]')


def piece(page: Page, name: str) -> Locator:
    """The piece on square ``name`` (the contract: ``[data-square] [data-piece]``)."""
    return page.locator(f'[data-square="{name}"] [data-piece]')


async def play(page: Page, uci: str) -> None:
    """Clicks the move's two squares, as a player does, once the page shows it is the player's
    turn (signed in: a player's own side is at the bottom, and only players may resign)."""
    await expect(page.locator(".player.bottom")).to_have_class(re.compile(r"\bturn\b"))
    await expect(page.locator('[data-action="resign"]')).to_be_visible()
    await square(page, uci[:2]).click()
    await expect(square(page, uci[:2])).to_have_class(re.compile(r"\bselected\b"))
    await square(page, uci[2:4]).click()


async def shows(page: Page, name: str, letter: str | None) -> None:
    """Waits until the page shows ``letter`` on square ``name`` (None: an empty square)."""
    if letter is None:
        await expect(piece(page, name)).to_have_count(0)
    else:
        await expect(piece(page, name)).to_have_attribute("data-piece", letter)


async def ready(page: Page) -> None:
    """Waits until the board is drawn: 64 squares, the start's pieces in place."""
    await expect(page.locator("[data-square]")).to_have_count(64)
    await expect(page.locator("[data-square] [data-piece]")).to_have_count(32)
