"""The pieces the web board shows: the project's own art as SVG (``renderers.svg``: the same
shapes and colours as the pictures), for any FEN letter of the family's variants.

>>> piece_svg("M~").startswith("<svg")
True
>>> piece_svg("X") is None
True
"""

from __future__ import annotations

from renderers.svg import PIECE_LETTERS
from renderers.svg import piece_svg as drawn


def piece_svg(letter: str) -> str | None:
    """The SVG of the piece ``letter`` (None: no variant writes that letter)."""
    return drawn(letter) if letter in PIECE_LETTERS else None
