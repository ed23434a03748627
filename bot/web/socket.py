"""One WebSocket of the web board (``GET /g/{game}/ws``).

The server pushes the game's state on connect and on every change. The client may sign in
with ``{"type": "auth", "token": ...}`` (a link's HMAC token) or ``{"type": "auth", "id_token":
...}`` (LIFF), and then, if it is a player's, send ``move``, ``resign``, ``draw``, ``accept``,
``decline``, ``count`` and ``stopcount``. Each goes through the game service as the same
words typed in the chat would, and is announced in the chat by the outbox. A refusal comes back
as ``{"type": "error", "code": ..., "text": ...}`` in the chat's language. Tokens are never
logged.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from ..messages import Incoming, User
from .hub import dumps
from .state import side_of
from .tokens import BadToken, Bearer

if TYPE_CHECKING:
    from .server import WebBoard

log = logging.getLogger(__name__)

COMMANDS = ("resign", "draw", "accept", "decline", "count", "stopcount")
MAX_MESSAGE = 4096  # bytes of one client message
BURST, RATE = 8.0, 2.0  # a connection (and a user) may send BURST messages at once, then RATE a second
CLOSE_AFTER = 200  # messages refused for their rate: the client is broken or hostile; closed


@dataclass
class Bucket:
    """A token bucket: ``take`` is false while the sender is over its rate (``burst`` at once,
    then ``rate`` a second)."""

    burst: float = BURST
    rate: float = RATE
    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Socket:
    """One client's socket in a game's room."""

    def __init__(self, board: WebBoard, game_id: int, ws: web.WebSocketResponse) -> None:
        self.board = board
        self.game_id = game_id
        self.ws = ws
        self.bearer: Bearer | None = None
        self.bucket = Bucket()
        self.refused = 0

    async def send(self, data: dict[str, Any]) -> None:
        await self.send_text(dumps(data))

    async def send_text(self, text: str) -> None:
        if not self.ws.closed:
            await self.ws.send_str(text)

    async def close(self) -> None:
        await self.ws.close(code=1001, message=b"going away")

    async def run(self) -> None:
        hub = self.board.hub
        hub.join(self.game_id, self)
        try:
            async for message in self.ws:
                if message.type != WSMsgType.TEXT:
                    continue
                if not await self._allowed():
                    if self.refused > CLOSE_AFTER:
                        await self.ws.close(code=1008, message=b"too many messages")
                        break
                    continue
                await self._receive(message.data)
        finally:
            hub.leave(self.game_id, self)

    async def _allowed(self) -> bool:
        user = self.board.user_bucket(self.bearer) if self.bearer is not None else None
        if self.bucket.take() and (user is None or user.take()):
            return True
        self.refused += 1
        if self.refused == 1 or self.refused % 20 == 0:
            await self._error("slow_down")
        return False

    async def _receive(self, text: str) -> None:
        if len(text) > MAX_MESSAGE:
            return await self._error("bad_message")
        try:
            data = json.loads(text)
        except ValueError:
            return await self._error("bad_message")
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "auth":
            return await self._auth(data)
        if kind == "state":
            state = await self.board.hub.state_for(self.game_id, self.bearer)
            if state is not None:
                await self.send(state)
            return None
        if kind == "move" and isinstance(data.get("move"), str) and 2 <= len(data["move"]) <= 10:
            return await self._command(f"move {data['move']}")
        if kind in COMMANDS:
            return await self._command(kind)
        return await self._error("bad_message")

    async def _auth(self, data: dict[str, Any]) -> None:
        try:
            bearer = await self.board.authenticate(self.game_id, data.get("token"), data.get("id_token"))
        except BadToken as error:
            log.info("a web board sign-in to game %d was refused: %s", self.game_id, error)  # never the token
            await self._error("auth")
            return
        record = await self.board.games.game_record(self.game_id)
        if record is None or side_of(record, bearer) is None:
            await self._error("not_playing")
            return
        self.bearer = bearer
        await self.send({"type": "auth", "ok": True, "side": side_of(record, bearer)})
        state = await self.board.hub.state_for(self.game_id, bearer)
        if state is not None:
            await self.send(state)

    async def _command(self, text: str) -> None:
        if self.bearer is None:
            return await self._error("auth")
        record = await self.board.games.game_record(self.game_id)
        side = side_of(record, self.bearer) if record is not None else None
        if record is None or side is None:
            return await self._error("not_playing")
        if record.game.status != "active":
            return await self._error("game_over")  # the chat's open game is another one now
        game = record.game
        msg = Incoming(game.platform, game.channel, User(self.bearer.user_id, record.names[side]), text,
                       community=game.community, event=f"web-{uuid.uuid4().hex}", shown=False, pictures=False,
                       game=game.id)
        replies = await self.board.games.handle(msg)
        for reply in replies:
            if reply.error:
                await self.send({"type": "error", "code": reply.error, "text": reply.text})
            elif reply.kind not in ("game", "game_over"):
                await self.send({"type": "info", "text": reply.text})
        owed = [r for r in replies if not r.error and not r.outbox_key]
        if owed:  # an answer that changed nothing (the bot declines a draw): the chat sees it too
            await self.board.games.undelivered(game.platform, game.channel, owed)
        if len(owed) < len(replies):
            self.board.owed(game.platform)
        self.board.hub.push(self.game_id)
        return None

    async def _error(self, code: str) -> None:
        language = await self.board.language_of(self.game_id)
        key = f"web.error.{code}"
        catalog = self.board.games.catalog
        text = catalog.text(language, key) if catalog.has(key) else catalog.text(language, "web.error.bad_message")
        await self.send({"type": "error", "code": code, "text": text})
