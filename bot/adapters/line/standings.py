"""The standings picture of a tournament round, for LINE: a URL that names what to draw, and
the route LINE fetches it from (docs/line.md, Tournaments).

A standings table of 64 rows does not fit in a URL as a board view does (``pictures.py``), but
the standings after a closed round never change, so the URL names only ``(tournament, round,
language)``, signed, and whichever process LINE reaches asks the tournament service to draw
them (``TournamentService.standings_png``): the same bytes in every process.

- ``/standings/{tournament}-{round}-{language}-{mac}/1080.png``: the picture, 1080 px wide;
- ``/standings/.../preview.png``: 240 px wide, for the chat's preview (LINE allows 1 MB).

``mac`` is HMAC-SHA256 of the three, cut to 16 bytes, under a key derived from the channel
secret: nobody else can make the server draw, and every process of a channel accepts the
URLs of the others.

>>> signer = StandingsSigner("secret")
>>> token = signer.token(7, 2, "th")
>>> signer.named(token)
(7, 2, 'th')
>>> signer.named(token.replace("-2-", "-3-")) is None  # another round, the same signature
True
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

from .images import shrink
from .signing import MAC_PATTERN, UrlKey

log = logging.getLogger(__name__)

ORIGINAL = "1080.png"
PREVIEW = "preview.png"
PREVIEW_WIDTH = 240
KEEP = 32  # pictures kept in memory: the last rounds of the events being played
_KEY_LABEL = b"makruk-bot LINE standings URLs v1"
_TOKEN = re.compile(rf"(\d{{1,12}})-(\d{{1,4}})-([a-z]{{2}})-({MAC_PATTERN})")
_CACHE = {"Cache-Control": "public, max-age=31536000, immutable", "Content-Type": "image/png"}

Draw = Callable[[int, int, str], Awaitable[bytes | None]]  # (tournament, round, language) -> PNG or None


class StandingsSigner:
    def __init__(self, channel_secret: str) -> None:
        self._key = UrlKey(channel_secret, _KEY_LABEL)

    def token(self, tournament: int, round_number: int, language: str) -> str:
        named = f"{tournament}-{round_number}-{language}"
        return f"{named}-{self._key.sign(named)}"

    def named(self, token: str) -> tuple[int, int, str] | None:
        """What a token names, if this channel signed it (the signature is checked first)."""
        match = _TOKEN.fullmatch(token)
        if match is None:
            return None
        tournament, round_number, language, mac = match.groups()
        if not self._key.verify(f"{tournament}-{round_number}-{language}", mac):
            return None
        return int(tournament), int(round_number), language


class StandingsPictures:
    """URLs of standings pictures, and the route that serves them (drawn by ``draw``)."""

    def __init__(self, public_base_url: str, channel_secret: str, draw: Draw | None) -> None:
        self.base_url = public_base_url.rstrip("/")
        self._signer = StandingsSigner(channel_secret)
        self._draw = draw  # None: no tournament service, so no standings to draw
        self._recent: OrderedDict[str, bytes] = OrderedDict()

    def urls(self, tournament: int, round_number: int, language: str) -> tuple[str, str]:
        """The original and preview URLs; nothing is drawn until LINE asks."""
        base = f"{self.base_url}/standings/{self._signer.token(tournament, round_number, language)}"
        return f"{base}/{ORIGINAL}", f"{base}/{PREVIEW}"

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/standings/{token}/{variant}", self._get)

    async def _get(self, request: web.Request) -> web.Response:
        token, variant = request.match_info["token"], request.match_info["variant"]
        named = self._signer.named(token) if variant in (ORIGINAL, PREVIEW) else None
        if named is None or self._draw is None:
            raise web.HTTPNotFound()
        name = f"{token}/{variant}"
        png = self._recent.get(name)
        if png is None:
            png = await self._draw(*named)
            if png is None:  # no such round, or standings that may still change: nothing to keep
                raise web.HTTPNotFound()
            if variant == PREVIEW:
                png = await asyncio.to_thread(shrink, png, width=PREVIEW_WIDTH, tallest=16)
            self._recent[name] = png
            while len(self._recent) > KEEP:
                self._recent.popitem(last=False)
        self._recent.move_to_end(name)
        return web.Response(body=png, headers=_CACHE)
