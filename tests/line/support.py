"""A fake LINE Messaging API on loopback, signed webhook events, and a harness that plays chats.

The fake answers like LINE does (status codes, JSON shapes, the reply token being single-use,
409 for a retry key it already accepted, 429 once the monthly quota is used up, counted per
member of a group) and records every request it gets, each try of a push included. ``Fault``s
make it fail the next pushes: a status, or no answer at all until the test ends.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import io
import itertools
import json
import socket
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web
from PIL import Image

if TYPE_CHECKING:
    from bot.adapters.line.main import LineDoor
    from bot.app import App
    from bot.clock import FakeClock

SECRET = "test-channel-secret"
TOKEN = "test-access-token"
GROUP = "Cgroup0001"
ROOM = "Rroom0001"
BOT_ID = "Ubot0000"
PEOPLE = {"Ualice001": "Alice", "Ubob00002": "Bob Builder", "Ucarol003": "Carol", "Udave0004": "Dave"}
ALICE, BOB, CAROL, DAVE = PEOPLE


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict
    body: dict | None
    status: int = 0  # what the fake answered


MONTHLY_LIMIT = "You have reached your monthly limit."
RECORDED = web.RequestKey("recorded", Recorded)


@dataclass
class Fault:
    """How the fake answers one try of a push instead of taking it: ``status`` with LINE's
    ``message`` and ``headers``; or (``hang``) no answer until the test ends, so the client
    times out, after taking the push (``taken``: the answer was lost) or not."""

    status: int = 500
    message: str = "Internal error"
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False
    taken: bool = False


@dataclass
class FakeLine:
    """The Messaging API as the SDK sees it."""

    friends: dict[str, str] = field(default_factory=lambda: {ALICE: PEOPLE[ALICE], DAVE: PEOPLE[DAVE]})
    members: dict[str, dict[str, str]] = field(default_factory=lambda: {GROUP: dict(PEOPLE), ROOM: dict(PEOPLE)})
    requests: list[Recorded] = field(default_factory=list)
    delivered: list[Recorded] = field(default_factory=list)  # the pushes LINE took, once each
    expired_tokens: set[str] = field(default_factory=set)
    push_faults: list[Fault] = field(default_factory=list)  # how to answer the next tries of a push
    reply_failures: int = 0  # answer this many replies with 500 first
    profile_delay: float = 0.0  # seconds before a profile answer (a slow LINE)
    held_chats: set[str] = field(default_factory=set)  # member lookups here wait for let_profiles_go()
    quota_limit: int | None = 300  # messages a month (None: no limit)
    quota_used: int = 0  # counted as LINE does: once per recipient of a push
    quota_bodies: dict[str, str] = field(default_factory=dict)  # a quota path's odd answer (a field missing, not JSON)
    _used_tokens: set[str] = field(default_factory=set)
    _retry_keys: set[str] = field(default_factory=set)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    _profiles_go: asyncio.Event = field(default_factory=asyncio.Event)
    url: str = ""  # where it listens, once it does

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._record])
        app.router.add_post("/v2/bot/message/reply", self._reply)
        app.router.add_post("/v2/bot/message/push", self._push)
        app.router.add_get("/v2/bot/message/quota", self._quota)
        app.router.add_get("/v2/bot/message/quota/consumption", self._consumption)
        app.router.add_get("/v2/bot/profile/{user}", self._profile)
        app.router.add_get("/v2/bot/group/{chat}/member/{user}", self._member)
        app.router.add_get("/v2/bot/room/{chat}/member/{user}", self._member)
        return app

    def release(self) -> None:
        """Lets hanging answers end (the test is over)."""
        self._released.set()
        self._profiles_go.set()

    def let_profiles_go(self) -> None:
        self._profiles_go.set()

    # what was asked

    def calls(self, method: str | None = None, path_start: str = "") -> list[Recorded]:
        return [r for r in self.requests if (method is None or r.method == method) and r.path.startswith(path_start)]

    @property
    def replies(self) -> list[Recorded]:
        return self.calls("POST", "/v2/bot/message/reply")

    @property
    def pushes(self) -> list[Recorded]:
        return self.calls("POST", "/v2/bot/message/push")

    def profile_lookups(self) -> list[str]:
        return [r.path for r in self.calls("GET") if not r.path.startswith("/v2/bot/message/")]

    def quota_reads(self) -> list[str]:
        return [r.path for r in self.calls("GET", "/v2/bot/message/quota")]

    # how LINE answers

    @web.middleware
    async def _record(self, request: web.Request, handler):
        body = await request.json() if request.method == "POST" else None
        recorded = Recorded(request.method, request.path, dict(request.headers), body)
        self.requests.append(recorded)
        request[RECORDED] = recorded
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            response = web.json_response({"message": "Authentication failed"}, status=401)
        else:
            response = await handler(request)
        recorded.status = response.status
        return response

    async def _reply(self, request: web.Request) -> web.Response:
        body = await request.json()
        token = body.get("replyToken")
        problem = _check_messages(body.get("messages"))
        if problem:
            return web.json_response({"message": problem}, status=400)
        if token in self.expired_tokens or token in self._used_tokens:
            return web.json_response({"message": "Invalid reply token"}, status=400)
        if self.reply_failures > 0:
            self.reply_failures -= 1
            return web.json_response({"message": "Internal error"}, status=500)
        self._used_tokens.add(token)
        return web.json_response(self._sent(body["messages"]))

    async def _push(self, request: web.Request) -> web.Response:
        body = await request.json()
        problem = _check_messages(body.get("messages")) or (None if body.get("to") else "'to' is required")
        if problem:
            return web.json_response({"message": problem}, status=400)
        key = request.headers.get("X-Line-Retry-Key")
        if key in self._retry_keys:
            return web.json_response({"message": "The retry key is already accepted"}, status=409,
                                     headers={"x-line-accepted-request-id": "accepted"})
        fault = self.push_faults.pop(0) if self.push_faults else None
        if fault is not None and not fault.hang:
            return web.json_response({"message": fault.message}, status=fault.status, headers=fault.headers)
        recipients = len(self.members.get(body["to"], {})) or 1
        if fault is None and self.quota_limit is not None and self.quota_used + recipients > self.quota_limit:
            return web.json_response({"message": MONTHLY_LIMIT}, status=429)
        if fault is None or fault.taken:
            if key:
                self._retry_keys.add(key)
            self.quota_used += recipients
            self.delivered.append(request[RECORDED])
        if fault is not None:
            await self._released.wait()  # the client gives up first
        return web.json_response(self._sent(body["messages"]))

    async def _quota(self, request: web.Request) -> web.Response:
        if request.path in self.quota_bodies:
            return self._odd_quota(request.path)
        if self.quota_limit is None:
            return web.json_response({"type": "none"})
        return web.json_response({"type": "limited", "value": self.quota_limit})

    async def _consumption(self, request: web.Request) -> web.Response:
        if request.path in self.quota_bodies:
            return self._odd_quota(request.path)
        return web.json_response({"totalUsage": self.quota_used})

    def _odd_quota(self, path: str) -> web.Response:
        return web.Response(text=self.quota_bodies[path], content_type="application/json")

    async def _profile(self, request: web.Request) -> web.Response:
        await asyncio.sleep(self.profile_delay)
        user = request.match_info["user"]
        if user not in self.friends:
            return web.json_response({"message": "Not found"}, status=404)
        return web.json_response({"userId": user, "displayName": self.friends[user], "language": "th",
                                  "pictureUrl": "https://profile.line-scdn.net/x"})

    async def _member(self, request: web.Request) -> web.Response:
        await asyncio.sleep(self.profile_delay)
        chat, user = request.match_info["chat"], request.match_info["user"]
        if chat in self.held_chats:
            await self._profiles_go.wait()
        name = self.members.get(chat, {}).get(user)
        if name is None:
            return web.json_response({"message": "Not found"}, status=404)
        return web.json_response({"userId": user, "displayName": name})

    def _sent(self, messages: list) -> dict:
        return {"sentMessages": [{"id": str(next(self._ids)), "quoteToken": "q"} for _ in messages]}


def _check_messages(messages) -> str | None:
    """The limits LINE enforces that our replies could break."""
    if not isinstance(messages, list) or not 1 <= len(messages) <= 5:
        return "May not be empty or longer than 5"
    for message in messages:
        quick = (message.get("quickReply") or {}).get("items", [])
        if len(quick) > 13 or any(len(i["action"]["label"]) > 20 for i in quick):
            return "invalid quick reply"
        if any(i["action"]["type"] == "uri" and not i["action"]["uri"].startswith(("https://", "line://"))
               for i in quick):
            return "invalid uri action"
        if message["type"] == "text" and not 0 < len(message["text"]) <= 5000:
            return "invalid text"
        if message["type"] == "imagemap":
            if not 0 < len(message["actions"]) <= 50 or len(message["altText"]) > 1500:
                return "invalid imagemap"
            if message["baseSize"]["width"] != 1040:
                return "invalid imagemap base size"
        if message["type"] == "image" and not all(message[k].startswith(("https://", "http://127.0.0.1"))
                                                  for k in ("originalContentUrl", "previewImageUrl")):
            return "invalid image url"
    return None


# --- webhook requests -----------------------------------------------------------------

_event_ids = itertools.count(1)


def sign(body: bytes, secret: str = SECRET) -> str:
    return base64.b64encode(hmac.new(secret.encode(), body, hashlib.sha256).digest()).decode()


def source(user: str | None, *, group: str | None = None, room: str | None = None) -> dict:
    if group:
        return {"type": "group", "groupId": group, **({"userId": user} if user else {})}
    if room:
        return {"type": "room", "roomId": room, **({"userId": user} if user else {})}
    return {"type": "user", "userId": user}


def event(kind: str, src: dict, *, redelivery: bool = False, event_id: str | None = None, **fields) -> dict:
    n = next(_event_ids)
    return {
        "type": kind,
        "mode": "active",
        "timestamp": 1767225600000 + n,
        "source": src,
        "webhookEventId": event_id or f"01HTESTEVENT{n:014d}",
        "deliveryContext": {"isRedelivery": redelivery},
        **fields,
    }


def text_event(text: str, src: dict, *, mentions: dict[str, str] | None = None, **options) -> dict:
    """A text message; ``mentions`` maps each ``@Display Name`` written in ``text`` to a user id
    (``BOT_ID`` marks the bot itself)."""
    message: dict[str, object] = {"id": str(next(_event_ids)), "type": "text", "text": text, "quoteToken": "qt"}
    if mentions:
        mentionees = []
        for written, user_id in mentions.items():
            index = text.index(written)
            utf16_index = len(text[:index].encode("utf-16-le")) // 2
            mentionees.append({"type": "user", "index": utf16_index, "length": len(written.encode("utf-16-le")) // 2,
                               "userId": user_id, **({"isSelf": True} if user_id == BOT_ID else {})})
        message["mention"] = {"mentionees": mentionees}
    n = next(_event_ids)
    return event("message", src, replyToken=f"reply-token-{n}", message=message, **options)


def payload(*events: dict) -> bytes:
    return json.dumps({"destination": BOT_ID, "events": list(events)}, ensure_ascii=False).encode()


# --- reading what we sent ----------------------------------------------------------------

def texts(messages: list[dict]) -> str:
    return "\n".join(m["text"] for m in messages if m["type"] in ("text", "textV2"))


def boards(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["type"] in ("image", "imagemap")]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def database_dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.setblocking(False)
    return sock


class Harness:
    """Posts signed webhooks to the real server and reads what reached the fake LINE."""

    def __init__(self, base_url: str, door: LineDoor, fake: FakeLine, http: aiohttp.ClientSession, db: Path, *,
                 app: App, clock: FakeClock) -> None:
        self.base_url = base_url
        self.door = door
        self.fake = fake
        self.http = http
        self.db = db
        self.app = app
        self.clock = clock

    async def post(self, body: bytes, *, signature: str | None = "sign", headers: dict | None = None,
                   wait: bool = True) -> int:
        """Posts a webhook request; with ``wait``, also waits until its events are handled."""
        sent = dict(headers or {})
        if signature == "sign":
            sent["X-Line-Signature"] = sign(body)
        elif signature is not None:
            sent["X-Line-Signature"] = signature
        sent.setdefault("Content-Type", "application/json")
        async with self.http.post(f"{self.base_url}/callback", data=body, headers=sent) as response:
            status = response.status
            await response.read()
        if wait:
            await self.door.settle()
        return status

    async def send(self, *events: dict) -> list[list[dict]]:
        """Posts the events in one webhook; returns the messages replied to each (empty: no reply)."""
        before = len(self.fake.replies)
        assert await self.post(payload(*events)) == 200
        by_token = {r.body["replyToken"]: r.body["messages"] for r in self.fake.replies[before:]
                    if r.status == 200 and r.body is not None}
        return [by_token.get(e.get("replyToken"), []) for e in events]

    async def say(self, user: str, text: str, *, group: str | None = None, room: str | None = None,
                  mentions: dict[str, str] | None = None) -> list[dict]:
        (messages,) = await self.send(text_event(text, source(user, group=group, room=room), mentions=mentions))
        return messages

    async def fetch(self, url: str) -> tuple[int, str, bytes]:
        async with self.http.get(url) as response:
            return response.status, response.headers.get("Content-Type", ""), await response.read()
