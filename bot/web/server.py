"""The web board's routes on an aiohttp app, and the server the Discord and console doors start.

    GET /g/{game}            the page (404 page: no such game)
    GET /g/{game}/state      the state JSON (``Authorization: Bearer TOKEN``: a player's; 401 if bad)
    GET /g/{game}/ws         the WebSocket (socket.py)
    GET /g/{game}/pgn        a finished game's PGN;  GET /g/{game}/gif  its replay
    GET /web/static/{name}   the page's scripts and style;  GET /web/piece/{letter}.svg  a piece
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from aiohttp import web

from ..clock import Clock
from ..config import Settings
from ..pgn import export_pgn
from ..services.games import GameService
from ..services.outbox import Outbox
from .hub import Hub
from .liff import LiffVerifier
from .page import not_found_page, page
from .pieces import piece_svg
from .socket import Bucket, Socket
from .tokens import BadToken, Bearer, read_token

log = logging.getLogger(__name__)

STATIC = resources.files(__package__) / "static"
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css"}
USERS_KEPT = 4096  # rate buckets of signed-in users kept
Owed = Callable[[str], None]  # a door's "push the outbox of this platform soon"


class WebBoard:
    """The board's parts for one running app: the hub, the sign-ins, the routes."""

    def __init__(self, games: GameService, settings: Settings, clock: Clock, *, base: str = "",
                 owed: Owed | None = None) -> None:
        self.games = games
        self.settings = settings
        self.clock = clock
        self.hub = Hub(games, clock, base=base)
        self._owed = owed
        self.liff = (LiffVerifier(settings.line_login_channel_id, settings.line_jwks_url)
                     if settings.line_login_channel_id else None)
        self._users: OrderedDict[Bearer, Bucket] = OrderedDict()

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/g/{game:\\d{1,12}}", self.page)
        app.router.add_get("/g/{game:\\d{1,12}}/state", self.state)
        app.router.add_get("/g/{game:\\d{1,12}}/ws", self.socket)
        app.router.add_get("/g/{game:\\d{1,12}}/pgn", self.pgn)
        app.router.add_get("/g/{game:\\d{1,12}}/gif", self.gif)
        app.router.add_get("/web/static/{name}", self.static)
        app.router.add_get("/web/piece/{letter}.svg", self.piece)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._stop)

    async def _start(self, app: web.Application) -> None:
        self.hub.start()

    async def _stop(self, app: web.Application) -> None:
        await self.hub.stop()

    # --- for the sockets ----------------------------------------------------------------

    async def authenticate(self, game_id: int, token: Any, id_token: Any) -> Bearer:
        """Who a sign-in names: a link's token, or a LIFF ID token; BadToken otherwise."""
        if isinstance(token, str):
            return read_token(self.settings.web_secret or "", token, game_id, self.clock.now())
        if isinstance(id_token, str) and self.liff is not None:
            return await self.liff.verify(id_token, self.clock.now().timestamp())
        raise BadToken("no token")

    def user_bucket(self, bearer: Bearer) -> Bucket:
        """The rate of a signed-in user over all their sockets."""
        bucket = self._users.get(bearer)
        if bucket is None:
            bucket = self._users[bearer] = Bucket()
            while len(self._users) > USERS_KEPT:
                self._users.popitem(last=False)
        self._users.move_to_end(bearer)
        return bucket

    def owed(self, platform: str) -> None:
        if self._owed is not None:
            self._owed(platform)

    async def language_of(self, game_id: int) -> str:
        record = await self.games.game_record(game_id)
        return record.language if record is not None else self.settings.language

    # --- routes -------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        record = await self.games.game_record(int(request.match_info["game"]))
        if record is None:
            return web.Response(status=404, text=not_found_page(self.games.catalog, self.settings.language),
                                content_type="text/html", charset="utf-8")
        return web.Response(text=page(self.games.catalog, record, self.settings), content_type="text/html",
                            charset="utf-8", headers={"Cache-Control": "no-store"})

    async def state(self, request: web.Request) -> web.Response:
        game_id = int(request.match_info["game"])
        bearer = None
        header = request.headers.get("Authorization", "")
        if header:
            scheme, _, token = header.partition(" ")
            try:
                if scheme.lower() != "bearer":
                    raise BadToken("not a bearer token")
                bearer = await self.authenticate(game_id, token.strip(), None)
            except BadToken:
                return web.json_response({"error": "auth"}, status=401)
        state = await self.hub.state_for(game_id, bearer)
        if state is None:
            return web.json_response({"error": "not_found"}, status=404)
        return web.json_response(state, headers={"Cache-Control": "no-store"})

    async def socket(self, request: web.Request) -> web.StreamResponse:
        game_id = int(request.match_info["game"])
        if await self.games.game_record(game_id) is None:
            return web.json_response({"error": "not_found"}, status=404)
        ws = web.WebSocketResponse(heartbeat=25.0, max_msg_size=64 * 1024)
        await ws.prepare(request)
        await Socket(self, game_id, ws).run()
        return ws

    async def pgn(self, request: web.Request) -> web.Response:
        record = await self.games.game_record(int(request.match_info["game"]))
        if record is None:
            raise web.HTTPNotFound()
        game = record.game
        text = export_pgn(start_fen=game.start_fen, moves=[m.uci for m in game.moves], white=record.names["w"],
                          black=record.names["b"], result=game.result, date=game.created, promotion=game.promotion,
                          variant=game.variant)
        return web.Response(text=text, content_type="application/x-chess-pgn", charset="utf-8",
                            headers={"Content-Disposition": f'inline; filename="makruk-{game.id}.pgn"'})

    async def gif(self, request: web.Request) -> web.Response:
        record = await self.games.game_record(int(request.match_info["game"]))
        if record is None or record.game.status in ("active", "challenge"):
            raise web.HTTPNotFound()
        coords = record.settings.coordinates or ("thai" if record.language == "th" else "latin")
        gif = await self.games.replay_gif(record.game, coords=coords)
        if gif is None:
            raise web.HTTPNotFound()
        return web.Response(body=gif, content_type="image/gif", headers={"Cache-Control": "max-age=86400"})

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        suffix = name[name.rfind("."):] if "." in name else ""
        if suffix not in STATIC_TYPES or "/" in name or name.startswith("."):
            raise web.HTTPNotFound()
        item = STATIC / name
        if not item.is_file():
            raise web.HTTPNotFound()
        return web.Response(text=item.read_text("utf-8"), content_type=STATIC_TYPES[suffix], charset="utf-8",
                            headers={"Cache-Control": "max-age=300"})

    async def piece(self, request: web.Request) -> web.Response:
        svg = piece_svg(request.match_info["letter"])
        if svg is None:
            raise web.HTTPNotFound()
        return web.Response(text=svg, content_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


DEFAULT_PORT = 8080  # the Discord process's board when PUBLIC_BASE_URL is set and no --web PORT


def drain_soon(outbox: Outbox | None, platform: str) -> Owed:
    """An ``owed`` for a door whose outbox delivers ``platform``'s notices: a move made on the
    board is announced in the chat now rather than at the scheduler's next round."""
    tasks: set[asyncio.Task[int]] = set()

    def owed(owed_platform: str) -> None:
        if outbox is None or owed_platform != platform:
            return  # another door's chat: its own scheduler delivers it
        task = asyncio.create_task(outbox.drain(), name=f"web-owed-{platform}")
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    return owed


@asynccontextmanager
async def serving_board(games: GameService, settings: Settings, clock: Clock, port: int, *, host: str = "0.0.0.0",
                        base: str | None = None, owed: Owed | None = None) -> AsyncIterator[WebBoard]:
    """Serves the web board on ``host:port`` while the block runs (the Discord and console doors)."""
    board = WebBoard(games, settings, clock, base=(base or settings.public_base_url or "").rstrip("/"), owed=owed)
    app = web.Application(client_max_size=64 * 1024)
    board.add_routes(app)
    runner = web.AppRunner(app, access_log=None)  # tokens travel in fragments, but no access log at all
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("the web board is on %s:%d", host, port)
    try:
        yield board
    finally:
        await runner.cleanup()
