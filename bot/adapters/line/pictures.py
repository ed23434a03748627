"""What a LINE picture URL names: a board or a puzzle card, encoded in the URL and signed.

LINE fetches pictures by URL, and with several bot processes behind a load balancer the fetch
may reach a process that never saw the reply. So the URL carries what to draw, and any process
of the channel can draw it. A token is ``<data>.<mac>``:

- ``data`` is urlsafe base64 (no padding) of one format letter and the picture's compact JSON,
  ``j`` as it is or ``z`` deflated, whichever is shorter;
- ``mac`` is HMAC-SHA256 of ``data``, cut to 16 bytes, under a key derived from the channel
  secret: strangers cannot make the server draw, and every process of a channel accepts the
  tokens of the others.

>>> signer = Signer("secret")
>>> token = signer.token(picture_of(BoardView("8/8/8/8/8/8/8/8 w - - 0 1", flip=True)))
>>> signer.picture(token) == Picture("board", BoardView("8/8/8/8/8/8/8/8 w - - 0 1", flip=True))
True
>>> signer.picture(token[:-1] + ("A" if token[-1] != "A" else "B")) is None  # tampered
True
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any, Literal

from ...messages import BoardView
from .signing import MAC_PATTERN, UrlKey

Kind = Literal["board", "card"]
ORIGINAL = "800.png"  # LINE allows 10 MB; about 50 KB
PREVIEW = "preview.png"  # LINE allows 1 MB; a few KB
ORIGINAL_WIDTH = 800
PREVIEW_WIDTH = 240
IMAGEMAP_WIDTHS = (1040, 700, 460, 300, 240)  # what LINE appends to an imagemap's baseUrl
VARIANTS: dict[Kind, frozenset[str]] = {
    "board": frozenset({ORIGINAL, PREVIEW, *(str(w) for w in IMAGEMAP_WIDTHS)}),
    "card": frozenset({ORIGINAL, PREVIEW}),  # puzzle cards are never tap-to-move
}

_KEY_LABEL = b"makruk-bot LINE picture URLs v1"
_MAX_TOKEN = 4000  # longer than any URL LINE accepts: not ours
_TOKEN = re.compile(rf"([A-Za-z0-9_-]+)\.({MAC_PATTERN})")
_KINDS: dict[str, Kind] = {"b": "board", "c": "card"}
_FIELD_KEYS = {"fen": "f", "flip": "x", "last_move": "m", "coords": "c", "arrows": "a", "caption": "n",
               "selected": "s", "targets": "t"}  # short keys keep URLs short; new fields go by name
_FIELDS = {f.name: f for f in dataclasses.fields(BoardView)}


@dataclass(frozen=True)
class Picture:
    """A picture any process can draw again: a board, or a puzzle card (caption above the board)."""

    kind: Kind
    view: BoardView


def picture_of(view: BoardView) -> Picture:
    """The picture the service means by ``view``: a view with a caption is a puzzle card (the
    service's outbox tells them apart the same way), any other a board."""
    return Picture("card" if view.caption is not None else "board", view)


class Signer:
    """Turns pictures into signed URL tokens and back, for one LINE channel."""

    def __init__(self, channel_secret: str) -> None:
        self._key = UrlKey(channel_secret, _KEY_LABEL)

    def token(self, picture: Picture) -> str:
        data = _b64(_packed(picture))
        return f"{data}.{self._key.sign(data)}"

    def picture(self, token: str) -> Picture | None:
        """The picture ``token`` names, or None if this channel did not sign it (checked before
        anything is decoded) or it does not decode."""
        if len(token) > _MAX_TOKEN:
            return None
        match = _TOKEN.fullmatch(token)
        if match is None:
            return None
        data, mac = match.groups()
        if not self._key.verify(data, mac):
            return None
        try:
            return _unpacked(_unb64(data))
        except (ValueError, TypeError, KeyError, zlib.error, binascii.Error):
            return None  # signed by us but unreadable: an older format, say


def draw(picture: Picture, variant: str) -> bytes:
    """The PNG of ``picture`` at ``variant`` (one of ``VARIANTS[picture.kind]``)."""
    from renderers import render_board, render_preview, render_puzzle_card, size_for_width

    view = picture.view
    if variant not in VARIANTS[picture.kind]:
        raise ValueError(f"no {variant!r} of a {picture.kind}")
    if picture.kind == "card":
        size = PREVIEW_WIDTH if variant == PREVIEW else ORIGINAL_WIDTH
        return render_puzzle_card(view.fen, view.caption or "", variant=view.variant, size=size, flip=view.flip,
                                  coords=view.coords, last_move=view.last_move, arrows=view.arrows)
    if variant == PREVIEW:
        return render_preview(view.fen, variant=view.variant, flip=view.flip, last_move=view.last_move,
                              selected=view.selected, targets=view.targets, arrows=view.arrows)
    size = ORIGINAL_WIDTH if variant == ORIGINAL else int(variant)
    if in_deployment(view):  # the pieces in hand stand beside the board: the board is smaller
        size = size_for_width(size)
    # A live game's clocks in a band under the full picture; never under a tap-to-move one, whose
    # areas are the board's squares.
    clocks = view.clocks if variant == ORIGINAL else None
    return render_board(view.fen, variant=view.variant, size=size, flip=view.flip, last_move=view.last_move,
                        coords=view.coords, selected=view.selected, targets=view.targets, arrows=view.arrows,
                        caption=clocks)


def in_deployment(view: BoardView) -> bool:
    """Whether the picture shows pieces in hand beside the board (Sittuyin's deployment)."""
    if view.variant != "sittuyin":
        return False
    from makruk import Board

    return Board(view.fen, variant=view.variant).in_deployment()


# --- the token's data ------------------------------------------------------------------------

def _packed(picture: Picture) -> bytes:
    fields: dict[str, Any] = {"k": picture.kind[0]}
    for name, field in _FIELDS.items():
        value = getattr(picture.view, name)
        if value != field.default:
            fields[_FIELD_KEYS.get(name, name)] = list(value) if isinstance(value, tuple) else value
    text = json.dumps(fields, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    deflated = zlib.compress(text, 9, wbits=-15)
    return b"z" + deflated if len(deflated) < len(text) else b"j" + text


def _unpacked(data: bytes) -> Picture:
    form, body = data[:1], data[1:]
    if form == b"z":
        inflater = zlib.decompressobj(wbits=-15)
        body = inflater.decompress(body, 64 * 1024)
        if inflater.unconsumed_tail or not inflater.eof:
            raise ValueError("picture data too long or cut short")
    elif form != b"j":
        raise ValueError(f"unknown picture format {form!r}")
    fields = json.loads(body.decode("utf-8"))
    if not isinstance(fields, dict):
        raise ValueError("picture data is not an object")
    kind = _KINDS[fields.pop("k")]
    names = {short: name for name, short in _FIELD_KEYS.items()}
    values: dict[str, Any] = {}
    for key, value in fields.items():
        name = names.get(key, key)
        if name not in _FIELDS:
            raise ValueError(f"unknown picture field {key!r}")
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                raise ValueError(f"picture field {key!r} is not a list of strings")
            value = tuple(value)
        elif not isinstance(value, (str, bool)):
            raise ValueError(f"picture field {key!r} is neither text nor a flag")
        values[name] = value
    if not isinstance(values.get("fen"), str):
        raise ValueError("a picture needs a FEN")
    return Picture(kind, BoardView(**values))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
