"""An event's TRF file for LINE (``export ID trf``), which cannot attach a file to a message: the
text when it fits in one, else a link that downloads it (docs/line.md, Tournaments).

As with the standings pictures (``standings.py``), the URL names the event only, signed, and
whichever process LINE's browser reaches asks the tournament service for the file as it is
then (``TournamentService.trf``):

- ``/trf/{tournament}-{mac}/tournament-{tournament}.trf``: the TRF-16 text, as a download.

``mac`` is HMAC-SHA256 of the event's id, cut to 16 bytes, under a key derived from the channel
secret: only events the bot itself linked are served.

>>> signer = TrfSigner("secret")
>>> token = signer.token(7)
>>> signer.named(token), signer.named(token.replace("7-", "8-", 1))
(7, None)
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from aiohttp import web

from .signing import MAC_PATTERN, UrlKey

Export = Callable[[int], Awaitable[str | None]]  # tournament -> its TRF, None if there is none

_KEY_LABEL = b"makruk-bot LINE TRF URLs v1"
_TOKEN = re.compile(rf"(\d{{1,12}})-({MAC_PATTERN})")


class TrfSigner:
    def __init__(self, channel_secret: str) -> None:
        self._key = UrlKey(channel_secret, _KEY_LABEL)

    def token(self, tournament: int) -> str:
        return f"{tournament}-{self._key.sign(str(tournament))}"

    def named(self, token: str) -> int | None:
        """The event a token names, if this channel signed it (the signature is checked first)."""
        match = _TOKEN.fullmatch(token)
        if match is None or not self._key.verify(match.group(1), match.group(2)):
            return None
        return int(match.group(1))


class TrfLinks:
    """Links to events' TRF files, and the route that serves them (made by ``export``)."""

    def __init__(self, public_base_url: str, channel_secret: str, export: Export | None) -> None:
        self.base_url = public_base_url.rstrip("/")
        self._signer = TrfSigner(channel_secret)
        self._export = export  # None: no tournament service, so no files to serve

    def url(self, tournament: int) -> str:
        return f"{self.base_url}/trf/{self._signer.token(tournament)}/tournament-{tournament}.trf"

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/trf/{token}/{name}", self._get)

    async def _get(self, request: web.Request) -> web.Response:
        tournament = self._signer.named(request.match_info["token"])
        name = f"tournament-{tournament}.trf"
        if tournament is None or request.match_info["name"] != name or self._export is None:
            raise web.HTTPNotFound()
        text = await self._export(tournament)
        if text is None:
            raise web.HTTPNotFound()
        # A running event's file changes with each round: fetched afresh every time.
        return web.Response(text=text, content_type="text/plain", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{name}"',
                                     "Cache-Control": "no-store"})
