"""Board pictures for LINE: a content-addressed PNG store and the routes LINE fetches them from.

LINE does not take uploads for image and imagemap messages: it fetches URLs. So each picture
is written once under its SHA-256 and served from ``PUBLIC_BASE_URL``:

- ``/images/{sha256}.png`` — the board as the service drew it (about 50 KB; LINE allows 10 MB);
- ``/images/{sha256}-preview.png`` — the same picture at 240 px for the chat's preview (< 1 MB);
- ``/imagemap/{key}/{width}`` — a tap-to-move board; LINE asks for widths 1040, 700, 460, 300
  and 240 and scales the tap areas, which are given for 1040 (``key`` hashes the board view).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import os
import re
import time
import uuid
from dataclasses import asdict
from pathlib import Path

from aiohttp import web

from ...messages import BoardView

log = logging.getLogger(__name__)

IMAGEMAP_WIDTHS = (1040, 700, 460, 300, 240)
IMAGEMAP_BASE = 1040  # tap areas are given for this width
FULL_SIZE = 800  # used when the service sent no image of its own
PREVIEW_WIDTH = 240
KEEP_DAYS = 30  # old chat messages lose their picture after this
_HASH = re.compile(r"[0-9a-f]{64}")
_CACHE = {"Cache-Control": "public, max-age=31536000, immutable"}


class ImageStore:
    def __init__(self, directory: Path, public_base_url: str) -> None:
        self.directory = directory
        self.base_url = public_base_url.rstrip("/")
        directory.mkdir(parents=True, exist_ok=True)

    # --- writing ----------------------------------------------------------------------

    async def picture(self, png: bytes | None, view: BoardView | None) -> tuple[str, str]:
        """The original and preview URLs of a picture: a board (drawn from ``view`` if ``png`` is
        None) or any other PNG the service sent (a puzzle card), whose preview is shrunk from it."""
        return await asyncio.to_thread(self._picture, png, view)

    def _picture(self, png: bytes | None, view: BoardView | None) -> tuple[str, str]:
        if png is None:
            if view is None:
                raise ValueError("a picture needs a PNG or a board to draw")
            png = _render(view, FULL_SIZE)
        digest = hashlib.sha256(png).hexdigest()
        self._write(f"{digest}.png", png)
        preview = self.directory / f"{digest}-preview.png"
        if not preview.exists():
            self._write(preview.name, _preview(view) if view is not None else _shrink(png))
        return f"{self.base_url}/images/{digest}.png", f"{self.base_url}/images/{digest}-preview.png"

    async def imagemap(self, view: BoardView) -> str:
        """The imagemap ``baseUrl`` for ``view``; its widths are drawn when LINE asks for them."""
        text = json.dumps(asdict(view), sort_keys=True, ensure_ascii=False)
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        await asyncio.to_thread(self._write, f"{key}.json", text.encode("utf-8"))
        return f"{self.base_url}/imagemap/{key}"

    def _write(self, name: str, data: bytes) -> None:
        path = self.directory / name
        if path.exists():
            os.utime(path)  # still in use: keep it past the next prune
            return
        partial = path.with_name(f".{name}.{uuid.uuid4().hex}.tmp")
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
                    removed += 1
            except FileNotFoundError:
                pass
        return removed

    # --- serving ----------------------------------------------------------------------

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/images/{name}", self._get_image)
        app.router.add_get("/imagemap/{key}/{width}", self._get_imagemap)

    async def _get_image(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        digest = name.removesuffix(".png").removesuffix("-preview")
        if not name.endswith(".png") or not _HASH.fullmatch(digest):
            raise web.HTTPNotFound()
        return self._file(self.directory / name)

    async def _get_imagemap(self, request: web.Request) -> web.StreamResponse:
        key, width = request.match_info["key"], request.match_info["width"]
        if not _HASH.fullmatch(key) or width not in {str(w) for w in IMAGEMAP_WIDTHS}:
            raise web.HTTPNotFound()
        path = self.directory / f"{key}-{width}.png"
        if not path.exists():
            try:
                text = (self.directory / f"{key}.json").read_text("utf-8")
            except FileNotFoundError:
                raise web.HTTPNotFound() from None
            view = _view(json.loads(text))
            png = await asyncio.to_thread(_render, view, int(width))
            self._write(path.name, png)
        return self._file(path)

    def _file(self, path: Path) -> web.StreamResponse:
        if not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={**_CACHE, "Content-Type": "image/png"})


def _render(view: BoardView, size: int) -> bytes:
    from renderers import render_board

    return render_board(view.fen, size=size, flip=view.flip, last_move=view.last_move, coords=view.coords,
                        selected=view.selected, targets=view.targets, arrows=view.arrows)


def _preview(view: BoardView) -> bytes:
    from renderers import render_preview

    return render_preview(view.fen, flip=view.flip, last_move=view.last_move, selected=view.selected,
                          targets=view.targets)


def _shrink(png: bytes) -> bytes:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        image.thumbnail((PREVIEW_WIDTH, PREVIEW_WIDTH * 4))
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _view(data: dict) -> BoardView:
    data["targets"] = tuple(data.get("targets", ()))
    data["arrows"] = tuple(data.get("arrows", ()))
    return BoardView(**data)
