"""A player's web board link carries a short-lived token: HMAC-SHA256 with ``WEB_SECRET`` over
the game, the platform, the user and the expiry. It travels in the URL's fragment
(``/g/12#t=TOKEN``), so it never reaches an access log; this module never logs one.

>>> from datetime import UTC, datetime, timedelta
>>> now = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
>>> token = make_token("s3cret", 12, "discord", "4242", now + TOKEN_LIFETIME)
>>> read_token("s3cret", token, 12, now)
Bearer(platform='discord', user_id='4242')
>>> read_token("s3cret", token, 13, now)
Traceback (most recent call last):
...
bot.web.tokens.BadToken: token of another game
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

TOKEN_LIFETIME = timedelta(hours=12)
MAX_TOKEN = 1024  # characters; anything longer is not ours


class BadToken(ValueError):
    """A token that is forged, expired, malformed, or for another game (no details are shown
    to the client: it is refused as a whole)."""


@dataclass(frozen=True)
class Bearer:
    """Who a valid token (or LIFF ID token) names."""

    platform: str
    user_id: str


def make_token(secret: str, game_id: int, platform: str, user_id: str, expires: datetime) -> str:
    """A token for ``user_id`` of ``platform`` in game ``game_id``, good until ``expires``."""
    body = _b64(json.dumps([game_id, platform, user_id, int(expires.timestamp())], separators=(",", ":")).encode())
    return f"{body}.{_b64(_mac(secret, body))}"


def read_token(secret: str, token: str, game_id: int, now: datetime) -> Bearer:
    """Who ``token`` names, if it is ours, unexpired and for ``game_id``; else BadToken."""
    if not secret:
        raise BadToken("no secret: tokens are off")
    if not isinstance(token, str) or len(token) > MAX_TOKEN or token.count(".") != 1:
        raise BadToken("malformed token")
    body, _, mac = token.partition(".")
    try:
        given = base64.urlsafe_b64decode(mac + "=" * (-len(mac) % 4))
    except ValueError:
        raise BadToken("malformed token") from None
    if not hmac.compare_digest(given, _mac(secret, body)):  # constant time
        raise BadToken("bad signature")
    try:
        game, platform, user_id, expires = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except ValueError:
        raise BadToken("malformed token") from None
    if not (isinstance(game, int) and isinstance(platform, str) and isinstance(user_id, str)
            and isinstance(expires, int)):
        raise BadToken("malformed token")
    if game != game_id:
        raise BadToken("token of another game")
    if expires <= now.timestamp():
        raise BadToken("expired token")
    return Bearer(platform, user_id)


def _mac(secret: str, body: str) -> bytes:
    return hmac.new(secret.encode(), b"makruk-web:" + body.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
