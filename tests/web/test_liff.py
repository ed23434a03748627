"""LIFF sign-in: a LINE ID token signed with a locally made ES256 key, checked against a local
key set served over HTTP as LINE's is (issuer, audience, expiry, and the user must play)."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from bot.clock import FakeClock
from bot.engines import RandomMover
from bot.services.games import GameService
from bot.web.liff import ISSUER, LiffVerifier
from bot.web.server import WebBoard
from bot.web.tokens import BadToken
from storage import Storage

from ..bot.support import Chat, no_image
from .conftest import web_settings
from .test_board import next_of

CHANNEL = "1650000000"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class LineKeys:
    """A key pair standing in for LINE's, its JWKS, and ID tokens signed with it."""

    def __init__(self, kid: str = "k1") -> None:
        self.kid = kid
        self.key = ec.generate_private_key(ec.SECP256R1())

    def jwks(self) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        return {"keys": [{"kty": "EC", "crv": "P-256", "kid": self.kid, "alg": "ES256", "use": "sig",
                          "x": b64(numbers.x.to_bytes(32, "big")), "y": b64(numbers.y.to_bytes(32, "big"))}]}

    def id_token(self, sub: str, now: float, **claims: Any) -> str:
        head = b64(json.dumps({"alg": "ES256", "kid": self.kid, "typ": "JWT"}).encode())
        body = b64(json.dumps({"iss": ISSUER, "aud": CHANNEL, "sub": sub, "iat": int(now), "exp": int(now) + 3600,
                               **claims}).encode())
        r, s = decode_dss_signature(self.key.sign(f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256())))
        return f"{head}.{body}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


@pytest.fixture
def keys() -> LineKeys:
    return LineKeys()


@pytest.fixture
async def jwks_url(keys: LineKeys) -> AsyncIterator[str]:
    app = web.Application()
    fetched: list[int] = []

    async def certs(request: web.Request) -> web.Response:
        fetched.append(1)
        return web.json_response(keys.jwks())

    app.router.add_get("/oauth2/v2.1/certs", certs)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    try:
        yield str(server.make_url("/oauth2/v2.1/certs"))
    finally:
        await server.close()


async def test_the_verifier_checks_signature_issuer_audience_and_expiry(keys: LineKeys, jwks_url: str) -> None:
    verifier = LiffVerifier(CHANNEL, jwks_url)
    now = 1_800_000_000.0
    assert (await verifier.verify(keys.id_token("U123", now), now)).user_id == "U123"
    bad = [
        keys.id_token("U123", now, iss="https://evil.example"),
        keys.id_token("U123", now, aud="999"),
        keys.id_token("U123", now - 7200),  # expired an hour ago
        LineKeys().id_token("U123", now),  # signed by another key under the same key id
        keys.id_token("U123", now)[:-4] + "AAAA",
        "not.a.token",
    ]
    for token in bad:
        with pytest.raises(BadToken):
            await verifier.verify(token, now)


async def test_a_line_player_signs_in_on_the_page_with_liff(db: Storage, clock: FakeClock, keys: LineKeys,
                                                             jwks_url: str) -> None:
    settings = web_settings(line_login_channel_id=CHANNEL, line_jwks_url=jwks_url, liff_id="165-abc")
    games = GameService(db, settings, clock=clock, engine=RandomMover(seed=1), render=no_image)
    board = WebBoard(games, settings, clock)
    app = web.Application()
    board.add_routes(app)
    chat = Chat(games, platform="line", channel="Cgroup")
    await chat.ok("Uann", "new @Ubob white", "Ubob")
    game = (await chat.ok("Ubob", "accept"))[-1].game
    assert game is not None
    now = clock.now().timestamp()
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        html = await (await client.get(f"/g/{game.id}")).text()
        assert '"liff": "165-abc"' in html
        entry = await client.get("/", params={"liff.state": f"/g/{game.id}"})  # LIFF's first stop
        assert entry.status == 200 and 'liff.init({liffId:"165-abc"})' in await entry.text()
        ws = await client.ws_connect(f"/g/{game.id}/ws")
        await next_of(ws, "state")
        await ws.send_json({"type": "auth", "id_token": keys.id_token("Ueve", now)})  # not a player
        assert (await next_of(ws, "error"))["code"] == "not_playing"
        await ws.send_json({"type": "auth", "id_token": keys.id_token("Uann", now, aud="other")})
        assert (await next_of(ws, "error"))["code"] == "auth"
        await ws.send_json({"type": "auth", "id_token": keys.id_token("Uann", now)})
        assert (await next_of(ws, "auth"))["side"] == "w"
        state = await next_of(ws, "state")
        assert state["viewer"]["canMove"] and state["legal"]
        await ws.send_json({"type": "move", "move": "e3e4"})
        await next_of(ws, "state", turn="b")
        await ws.close()
    assert [m.uci for m in (await db.get_game(game.id)).moves] == ["e3e4"]
