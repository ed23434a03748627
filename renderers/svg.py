"""The project's pieces as SVG, from the same shapes and colours ``pieces.py`` draws with Pillow.

One source of art: the web board shows exactly the pieces of the pictures. A piece is named by
its FEN letter in any variant's dialect (``K``, ``m~`` for a Bia Ngai, ASEAN's ``Q``, Sittuyin's
``F``, ...) and drawn as the kind that letter stands for there.

>>> svg = piece_svg("K")
>>> svg.startswith("<svg") and 'viewBox="0 0 1000 1000"' in svg
True
>>> piece_svg("F") == piece_svg("M") == piece_svg("Q")  # Sittuyin's and ASEAN's Met
True
>>> piece_svg("X")
Traceback (most recent call last):
...
renderers.errors.RenderError: unknown piece letter 'X'; one of B, B~, F, F~, K, M, M~, N, N~, P, Q, Q~, R, ...
"""

from __future__ import annotations

from functools import lru_cache

from makruk import PieceType
from makruk.types import Piece, piece_from_code
from makruk.variants import BOARDS

from .errors import RenderError
from .pieces import (
    INNER,
    OUTLINE,
    PIECE_COLORS,
    SHADOW_ALPHA,
    SHADOW_BLUR,
    Color,
    Fill,
    Palette,
    Part,
    piece_parts,
    shadow_ellipse,
)
from .vector import Point

UNIT = 1000  # the viewBox's side: unit coordinates become whole numbers, a tenth of a pixel at 100 px
SIZE = 64  # the nominal width and height, so an <img> has a natural size; CSS scales it freely


def piece_svg(letter: str) -> str:
    """The piece a FEN letter stands for, as a standalone SVG document (an ``<img>`` source,
    or inline markup); raises ``RenderError`` for a letter no variant writes."""
    piece = PIECE_LETTERS.get(letter)
    if piece is None:
        known = ", ".join(sorted(PIECE_LETTERS)[:13])
        raise RenderError(f"unknown piece letter {letter!r}; one of {known}, ...")
    return _svg(piece.kind, piece.color)


def _letters() -> dict[str, Piece]:
    """Every symbol any variant's FEN writes, with the piece it stands for there."""
    letters: dict[str, Piece] = {}
    for board in BOARDS.values():
        for symbol, code in board.dialect.code_of.items():
            letters.setdefault(symbol, piece_from_code(code))
    return dict(sorted(letters.items()))


PIECE_LETTERS = _letters()


@lru_cache(maxsize=32)
def _svg(kind: PieceType, color: Color) -> str:
    """The piece drawn as ``pieces.piece_sprite`` draws it: shadow, halo, then each part in order."""
    colors = PIECE_COLORS[color]
    parts = piece_parts(kind, color)
    cx, cy, rx, ry = shadow_ellipse(kind)
    halo = _hex(colors.halo)
    # Box blur of radius r is close to a Gaussian of deviation r / sqrt(3).
    blur = SHADOW_BLUR * UNIT / 3**0.5
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {UNIT} {UNIT}" width="{SIZE}" height="{SIZE}">',
        # The same id and content in every piece, so pieces inlined in one page agree.
        f'<filter id="makruk-shadow"><feGaussianBlur stdDeviation="{blur:.1f}"/></filter>',
        f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(rx)}" ry="{_n(ry)}" '
        f'fill-opacity="{SHADOW_ALPHA / 255:.2f}" filter="url(#makruk-shadow)"/>',
        f'<g stroke-linejoin="round" stroke="{_hex(colors.line)}">',
        # The halo: every outlined shape grown by one outline width, in the edge colour.
        f'<g fill="{halo}" stroke="{halo}" stroke-width="{_n(OUTLINE * 2)}">',
        *(f'<path d="{_d(part.points, True)}"/>' for part in parts if isinstance(part, Fill) and part.outline),
        "</g>",
        *(_part(part, colors) for part in parts),
        "</g></svg>",
    ]
    return "".join(out)


def _part(part: Part, colors: Palette) -> str:
    if isinstance(part, Fill):
        fill = _hex(getattr(colors, part.role))
        stroke = f' stroke-width="{_n(INNER)}"' if part.outline else ' stroke="none"'
        return f'<path d="{_d(part.points, True)}" fill="{fill}"{stroke}/>'
    width = _n(OUTLINE * part.width)
    return f'<path d="{_d(part.points, part.closed)}" fill="none" stroke-width="{width}"/>'


def _d(points: tuple[Point, ...], closed: bool) -> str:
    """Path data: a move to the first point, implicit lines to the others, closed if told."""
    coords = [f"{_n(x)} {_n(y)}" for x, y in points]
    # Points that round to the one before them (where mirrored halves meet) add nothing.
    kept = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
    return "M" + " ".join(kept) + ("Z" if closed else "")


def _n(value: float) -> str:
    return str(round(value * UNIT))


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)
