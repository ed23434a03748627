"""Pictures for LINE: URLs that name what to draw, and the routes LINE fetches them from.

LINE does not take uploads for image and imagemap messages: it fetches URLs, perhaps from
another process of the bot than the one that replied. So a URL carries the picture itself (a
signed token, see ``pictures.py``), and whichever process LINE reaches draws it on first
request, off the event loop, and keeps it on local disk (named by the token's hash) and, for
the pictures it drew or read lately, in memory, served from there without touching the disk:

- ``/pictures/{token}/800.png`` — the picture (a board or a puzzle card), 800 px wide;
- ``/pictures/{token}/preview.png`` — the same at 240 px for the chat's preview;
- ``/pictures/{token}/{width}`` — a tap-to-move board: the imagemap's ``baseUrl`` is
  ``/pictures/{token}`` and LINE appends 1040, 700, 460, 300 or 240; the tap areas are given
  for 1040.

A PNG that is not a board (the review's graph) comes without what drew it, so it is written at
once under its SHA-256 and served from ``/images/{sha256}.png`` (and ``-preview.png``) by this
process only. ``/images`` and ``/imagemap/{key}/{width}`` also serve what older versions wrote.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import os
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from ...messages import BoardView
from .pictures import IMAGEMAP_WIDTHS, ORIGINAL, PREVIEW, PREVIEW_WIDTH, VARIANTS, Picture, Signer, draw, picture_of

log = logging.getLogger(__name__)

IMAGEMAP_BASE = 1040  # tap areas are given for this width
KEEP_DAYS = 30  # pictures drawn longer ago are deleted (and drawn again if LINE asks)
_HASH = re.compile(r"[0-9a-f]{64}")
_CACHE = {"Cache-Control": "public, max-age=31536000, immutable"}  # a URL's picture never changes
RECENT_BYTES = 16 * 1024 * 1024  # pictures kept in memory: a few thousand previews and boards

Draw = Callable[[Picture, str], bytes]  # (picture, variant) -> PNG


class ImageStore:
    def __init__(self, directory: Path, public_base_url: str, channel_secret: str, *, draw: Draw = draw) -> None:
        self.directory = directory
        self.base_url = public_base_url.rstrip("/")
        self._signer = Signer(channel_secret)
        self._draw = draw
        self._drawing: dict[str, asyncio.Task[bytes]] = {}  # cache file name -> its drawing
        self._recent: OrderedDict[str, bytes] = OrderedDict()  # cache file name -> the PNG, newest last
        self._recent_bytes = 0
        self._recent_lock = threading.Lock()  # the loop serves from it, the prune (in a thread) forgets
        directory.mkdir(parents=True, exist_ok=True)

    # --- URLs -------------------------------------------------------------------------

    def picture(self, view: BoardView) -> tuple[str, str]:
        """The original and preview URLs of ``view``'s picture; nothing is drawn until LINE asks."""
        base = self._base(picture_of(view))
        return f"{base}/{ORIGINAL}", f"{base}/{PREVIEW}"

    def imagemap(self, view: BoardView) -> str:
        """The imagemap ``baseUrl`` of the board ``view``; LINE appends the width it wants."""
        return self._base(Picture("board", view))

    async def stored(self, png: bytes) -> tuple[str, str]:
        """The original and preview URLs of a PNG that is not a board: written now, on this
        process's disk only (nothing says how to draw it again)."""
        return await asyncio.to_thread(self._stored, png)

    async def stored_replay(self, gif: bytes) -> str:
        """The URL of a GIF replay (``export ID gif``): LINE shows no GIF in a chat, so the
        chat gets its link, which opens in LINE's browser."""
        digest = hashlib.sha256(gif).hexdigest()
        await asyncio.to_thread(self._write, self.directory / f"{digest}.gif", gif)
        return f"{self.base_url}/images/{digest}.gif"

    def _base(self, picture: Picture) -> str:
        return f"{self.base_url}/pictures/{self._signer.token(picture)}"

    def _stored(self, png: bytes) -> tuple[str, str]:
        digest = hashlib.sha256(png).hexdigest()
        self._write(self.directory / f"{digest}.png", png)
        preview = self.directory / f"{digest}-preview.png"
        if not preview.exists():
            self._write(preview, shrink(png))
        return f"{self.base_url}/images/{digest}.png", f"{self.base_url}/images/{digest}-preview.png"

    # --- the disk ---------------------------------------------------------------------

    def _write(self, path: Path, data: bytes) -> None:
        if path.exists():
            os.utime(path)  # still in use: keep it past the next prune
            return
        partial = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        partial.write_bytes(data)
        os.replace(partial, path)  # readers never see half a file

    def prune(self, keep_days: float = KEEP_DAYS) -> int:
        """Deletes pictures unused for ``keep_days``; returns how many files went."""
        cutoff = time.time() - keep_days * 86400
        removed = 0
        for path in self.directory.iterdir():
            try:
                if path.is_file() and path.stat().st_mtime < cutoff:
                    path.unlink()
                    self._forget(path.name)
                    removed += 1
            except FileNotFoundError:
                pass
        return removed

    # --- memory -----------------------------------------------------------------------

    def _recalled(self, name: str) -> bytes | None:
        with self._recent_lock:
            png = self._recent.get(name)
            if png is not None:
                self._recent.move_to_end(name)
            return png

    def _remember(self, name: str, png: bytes) -> None:
        with self._recent_lock:
            self._drop(name)
            self._recent[name] = png
            self._recent_bytes += len(png)
            while self._recent_bytes > RECENT_BYTES and self._recent:
                _, oldest = self._recent.popitem(last=False)
                self._recent_bytes -= len(oldest)

    def _forget(self, name: str) -> None:
        with self._recent_lock:
            self._drop(name)

    def _drop(self, name: str) -> None:
        png = self._recent.pop(name, None)
        if png is not None:
            self._recent_bytes -= len(png)

    # --- serving ----------------------------------------------------------------------

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/pictures/{token}/{variant}", self._get_picture)
        app.router.add_get("/images/{name}", self._get_image)
        app.router.add_get("/imagemap/{key}/{width}", self._get_imagemap)
        app.on_cleanup.append(self._finish_drawing)

    async def _finish_drawing(self, app: web.Application) -> None:
        """At shutdown: the drawings under way end (a thread cannot be stopped), so no task is left behind."""
        await asyncio.gather(*self._drawing.values(), return_exceptions=True)

    async def _get_picture(self, request: web.Request) -> web.StreamResponse:
        token, variant = request.match_info["token"], request.match_info["variant"]
        if variant not in VARIANTS["board"]:
            raise web.HTTPNotFound()
        picture = self._signer.picture(token)  # the signature first, then the decoding
        if picture is None or variant not in VARIANTS[picture.kind]:
            raise web.HTTPNotFound()
        name = f"pic-{hashlib.sha256(token.encode('ascii')).hexdigest()}-{variant}"
        return _png(await self._drawn(picture, variant, self.directory / name))

    async def _get_image(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name.endswith(".gif") and _HASH.fullmatch(name.removesuffix(".gif")):
            return self._file(self.directory / name, "image/gif")
        digest = name.removesuffix(".png").removesuffix("-preview")
        if not name.endswith(".png") or not _HASH.fullmatch(digest):
            raise web.HTTPNotFound()
        return self._file(self.directory / name)

    async def _get_imagemap(self, request: web.Request) -> web.StreamResponse:
        """Tap-to-move boards of older versions, from the view they wrote beside them."""
        key, width = request.match_info["key"], request.match_info["width"]
        if not _HASH.fullmatch(key) or width not in {str(w) for w in IMAGEMAP_WIDTHS}:
            raise web.HTTPNotFound()
        path = self.directory / f"{key}-{width}.png"
        if not path.is_file():
            try:
                view = _view(json.loads((self.directory / f"{key}.json").read_text("utf-8")))
            except (OSError, ValueError, TypeError):
                raise web.HTTPNotFound() from None
            return _png(await self._drawn(Picture("board", view), width, path))
        return self._file(path)

    async def _drawn(self, picture: Picture, variant: str, path: Path) -> bytes:
        """The PNG to keep at ``path``: from memory, else (off the event loop) from the disk,
        else drawn and written there; requests that come while it is being drawn or read wait
        for that one drawing."""
        png = self._recalled(path.name)
        if png is not None:
            return png
        drawing = self._drawing.get(path.name)
        if drawing is None:
            drawing = asyncio.create_task(asyncio.to_thread(self._read_or_draw, picture, variant, path))
            self._drawing[path.name] = drawing
            drawing.add_done_callback(lambda done: self._drawn_off(path.name, done))
        try:
            # Shielded: a request that goes away does not stop the drawing the others wait for.
            return await asyncio.shield(drawing)
        except (ValueError, TypeError) as error:  # what the renderers say of a position they cannot draw
            log.warning("cannot draw picture %s: %s", path.name, error)
            raise web.HTTPNotFound() from None

    def _read_or_draw(self, picture: Picture, variant: str, path: Path) -> bytes:
        try:
            png = path.read_bytes()
        except FileNotFoundError:
            png = self._draw(picture, variant)
        self._write(path, png)  # written, or its time renewed: in use, kept past the next prune
        return png

    def _drawn_off(self, name: str, drawing: asyncio.Task[bytes]) -> None:
        self._drawing.pop(name, None)
        if drawing.cancelled():
            return
        if drawing.exception() is None:  # retrieved either way, should no request be left to see it
            self._remember(name, drawing.result())

    def _file(self, path: Path, content_type: str = "image/png") -> web.StreamResponse:
        if not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={**_CACHE, "Content-Type": content_type})


def _png(png: bytes) -> web.Response:
    return web.Response(body=png, headers={**_CACHE, "Content-Type": "image/png"})


def shrink(png: bytes, *, width: int = PREVIEW_WIDTH, tallest: int = 4) -> bytes:
    """A preview ``width`` wide of a picture at most ``tallest`` times as tall as wide."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        image.thumbnail((width, width * tallest))
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _view(data: dict) -> BoardView:
    data["targets"] = tuple(data.get("targets", ()))
    data["arrows"] = tuple(data.get("arrows", ()))
    return BoardView(**data)
