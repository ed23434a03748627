"""A fake LINE Messaging API on loopback for black-box runs: it notes what each chat was shown.

It answers as LINE does where it matters for counting what people saw: a reply token is
issued with its event, used once and expires (a second reply with it, or a late one, gets 400
"Invalid reply token" and shows nothing); a push with an ``X-Line-Retry-Key`` LINE already took
gets 409 and shows nothing again. Everything shown (an accepted reply or push) is kept, by chat,
in the order it arrived. Profile look-ups answer the names it was told; the quota has no limit.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

TOKEN_LIFE = 60.0  # seconds a reply token can be used (LINE: about a minute)


@dataclass(frozen=True)
class Shown:
    """What one chat was shown by one accepted call."""

    chat: str  # the group, room or user id
    how: str  # "reply" or "push"
    at: float  # time.monotonic()
    messages: list[dict[str, Any]]


class FakeMessagingApi:
    """The Messaging API as the bot's SDK sees it; ``shown`` is what reached the chats."""

    def __init__(self, access_token: str, *, token_life: float = TOKEN_LIFE) -> None:
        self.access_token = access_token
        self.token_life = token_life
        self.names: dict[str, str] = {}  # user id -> display name
        self.shown: list[Shown] = []
        self.on_shown: Callable[[Shown], None] | None = None
        self.refused_replies = 0  # used, expired or unknown tokens
        self.repeated_pushes = 0  # 409: the retry key was taken before
        self._tokens: dict[str, tuple[str, float]] = {}  # reply token -> (chat, issued at)
        self._used: set[str] = set()
        self._retry_keys: set[str] = set()
        self._ids = itertools.count(1)

    def issue(self, reply_token: str, chat: str) -> None:
        """LINE made ``reply_token`` for an event of ``chat`` (now)."""
        self._tokens.setdefault(reply_token, (chat, time.monotonic()))

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._authorized])
        app.router.add_post("/v2/bot/message/reply", self._reply)
        app.router.add_post("/v2/bot/message/push", self._push)
        app.router.add_get("/v2/bot/message/quota", self._quota)
        app.router.add_get("/v2/bot/message/quota/consumption", self._consumption)
        app.router.add_get("/v2/bot/profile/{user}", self._profile)
        app.router.add_get("/v2/bot/group/{chat}/member/{user}", self._profile)
        app.router.add_get("/v2/bot/room/{chat}/member/{user}", self._profile)
        return app

    @web.middleware
    async def _authorized(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if request.headers.get("Authorization") != f"Bearer {self.access_token}":
            return web.json_response({"message": "Authentication failed"}, status=401)
        response: web.StreamResponse = await handler(request)
        return response

    async def _reply(self, request: web.Request) -> web.Response:
        body = await request.json()
        token = body.get("replyToken")
        issued = self._tokens.get(token) if isinstance(token, str) else None
        if not _messages_ok(body.get("messages")):
            return web.json_response({"message": "May not be empty or longer than 5"}, status=400)
        if issued is None or token in self._used or time.monotonic() - issued[1] > self.token_life:
            self.refused_replies += 1
            return web.json_response({"message": "Invalid reply token"}, status=400)
        self._used.add(token)
        self._show(Shown(issued[0], "reply", time.monotonic(), body["messages"]))
        return self._sent(body["messages"])

    async def _push(self, request: web.Request) -> web.Response:
        body = await request.json()
        if not _messages_ok(body.get("messages")) or not isinstance(body.get("to"), str):
            return web.json_response({"message": "The request body has 1 error(s)"}, status=400)
        key = request.headers.get("X-Line-Retry-Key")
        if key is not None and key in self._retry_keys:
            self.repeated_pushes += 1
            return web.json_response({"message": "The retry key is already accepted"}, status=409,
                                     headers={"x-line-accepted-request-id": "accepted"})
        if key is not None:
            self._retry_keys.add(key)
        self._show(Shown(body["to"], "push", time.monotonic(), body["messages"]))
        return self._sent(body["messages"])

    async def _quota(self, request: web.Request) -> web.Response:
        return web.json_response({"type": "none"})

    async def _consumption(self, request: web.Request) -> web.Response:
        return web.json_response({"totalUsage": 0})

    async def _profile(self, request: web.Request) -> web.Response:
        user = request.match_info["user"]
        if user not in self.names:
            return web.json_response({"message": "Not found"}, status=404)
        return web.json_response({"userId": user, "displayName": self.names[user]})

    def _show(self, shown: Shown) -> None:
        self.shown.append(shown)
        if self.on_shown is not None:
            self.on_shown(shown)

    def _sent(self, messages: list[dict[str, Any]]) -> web.Response:
        return web.json_response({"sentMessages": [{"id": str(next(self._ids)), "quoteToken": "q"}
                                                   for _ in messages]})


def _messages_ok(messages: object) -> bool:
    return isinstance(messages, list) and 1 <= len(messages) <= 5 and all(isinstance(m, dict) for m in messages)
