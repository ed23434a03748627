"""The pieces the web board shows: the project's own art as SVG, from ``renderers.svg``.

TODO(issue 24, integrator): ``renderers/svg.py`` (``piece_svg(letter) -> str``) is written on
the ``browser`` branch. Until it is merged, ``_placeholder`` below draws a plain disc with the
piece's letter; once ``renderers.svg`` is there it is used and the placeholder can be deleted.
"""

from __future__ import annotations

import re
from functools import cache
from html import escape

# A FEN letter of the family, with "~" for a promoted piece (Makruk's Bia Ngai: M~).
PIECE_LETTER = re.compile(r"[A-Za-z]~?")


@cache
def piece_svg(letter: str) -> str | None:
    """The SVG of the piece ``letter`` (None: not a piece letter)."""
    if not PIECE_LETTER.fullmatch(letter):
        return None
    try:
        from renderers.svg import piece_svg as drawn  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return _placeholder(letter)
    try:
        return str(drawn(letter))
    except (KeyError, ValueError):
        return None


def _placeholder(letter: str) -> str:
    """A stand-in until renderers.svg lands: a disc in the side's colours with the letter."""
    white = letter[0].isupper()
    body, line = ("#f7eed6", "#22160c") if white else ("#302824", "#eee0c0")
    ring = f'<circle cx="50" cy="50" r="36" fill="none" stroke="{line}" stroke-width="3"/>' if "~" in letter else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="44" '
            f'fill="{body}" stroke="{line}" stroke-width="5"/>{ring}<text x="50" y="66" font-size="44" '
            f'font-family="sans-serif" font-weight="700" text-anchor="middle" fill="{line}">'
            f'{escape(letter[0].upper())}</text></svg>')
