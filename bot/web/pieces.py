"""The pieces the web board shows: the project's own art as SVG (``renderers.svg``, drawn from
the same shapes as the board pictures), by the piece's FEN letter."""

from __future__ import annotations

import re
from functools import cache

from renderers.svg import piece_svg as drawn

# A FEN letter of the family, with "~" for a promoted piece (Makruk's Bia Ngai: M~).
PIECE_LETTER = re.compile(r"[A-Za-z]~?")


@cache
def piece_svg(letter: str) -> str | None:
    """The SVG of the piece ``letter`` (None: not a piece letter)."""
    if not PIECE_LETTER.fullmatch(letter):
        return None
    try:
        return drawn(letter)
    except (KeyError, ValueError):
        return None
