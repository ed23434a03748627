"""The empty board: frame, squares, carved lines and coordinates, drawn once per style."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import fonts
from .geometry import Layout, layout, square_box
from .theme import Theme

LATIN_FILES, LATIN_RANKS = "abcdefgh", "12345678"
THAI_FILES, THAI_RANKS = "กขคงจฉชญ", "๑๒๓๔๕๖๗๘"


def grid_width(lay: Layout) -> int:
    """Width of the lines between squares (the tint of a highlight stays inside them)."""
    return max(1, round(lay.square * 0.03))


@lru_cache(maxsize=32)
def background(size: int, theme: Theme, coords: str, flip: bool) -> Image.Image:
    """The board without pieces or marks, as RGB. Callers copy it before drawing on it."""
    lay = layout(size)
    image = Image.new("RGB", (size, size), theme.frame)
    draw = ImageDraw.Draw(image)
    for sq in range(64):
        left, top, right, bottom = square_box(sq, size, flip)
        light = (sq & 7) % 2 != (sq >> 3) % 2  # a1 is dark, as in chess
        draw.rectangle((left, top, right - 1, bottom - 1), fill=theme.light if light else theme.dark)
    inner = lay.frame, lay.frame, lay.frame + lay.board, lay.frame + lay.board
    if theme.grid is not None:
        width = grid_width(lay)
        for i in range(1, 8):
            offset = lay.frame + i * lay.square - width // 2
            draw.rectangle((offset, inner[1], offset + width - 1, inner[3] - 1), fill=theme.grid)
            draw.rectangle((inner[0], offset, inner[2] - 1, offset + width - 1), fill=theme.grid)
    edge = max(1, round(lay.square * 0.04))
    draw.rectangle(
        (inner[0] - edge, inner[1] - edge, inner[2] + edge - 1, inner[3] + edge - 1),
        outline=theme.frame_edge,
        width=edge,
    )
    if coords != "none":
        _draw_coordinates(draw, lay, theme, coords, flip)
    return image


def _draw_coordinates(draw: ImageDraw.ImageDraw, lay: Layout, theme: Theme, coords: str, flip: bool) -> None:
    """Files under the board and ranks to its left, in the order the viewer sees them."""
    files, ranks = (THAI_FILES, THAI_RANKS) if coords == "thai" else (LATIN_FILES, LATIN_RANKS)
    # Thai digits are small for their size: enlarge them, but not the letters with tall loops.
    font = fonts.font(round(lay.frame * 0.62), fonts.MAIN, 600)
    rank_font = fonts.font(round(lay.frame * (0.75 if coords == "thai" else 0.62)), fonts.MAIN, 600)
    mid_frame = lay.frame / 2
    below = lay.frame + lay.board + (lay.size - lay.frame - lay.board) / 2
    for i in range(8):
        centre = lay.frame + (i + 0.5) * lay.square
        file_label = files[7 - i] if flip else files[i]
        rank_label = ranks[i] if flip else ranks[7 - i]
        draw.text((centre, below), file_label, font=font, fill=theme.label, anchor="mm")
        draw.text((mid_frame, centre), rank_label, font=rank_font, fill=theme.label, anchor="mm")
