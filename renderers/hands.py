"""Sittuyin's pieces in hand, drawn in a column right of the board during the deployment.

Each side's tray stands beside its own half of the board (the far side's beside the upper
half), every kind in a slot of its own (``geometry.hand_box``), a count on it when two are
left; an empty slot is left empty, so a player sees at once what is still to place.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from . import fonts, marks
from .geometry import hand_box, hand_tray, hand_width, layout
from .pieces import piece_sprite

if TYPE_CHECKING:  # compose imports this module, so only for the types
    from .compose import Style
    from .scene import Hand

SPRITE_SHARE = 0.92  # of a slot: the tallest pieces keep clear of the tray's edges


def with_hands(board: Image.Image, column: Image.Image) -> Image.Image:
    """The board image with the hands' column (``hand_column``, mapped to the theme's palette by
    the caller when the board is in that palette) on its right."""
    out = Image.new(board.mode, (board.width + column.width, board.height))
    if board.mode == "P":
        palette = board.getpalette()
        assert palette is not None  # a palette image always has one
        out.putpalette(palette)
    out.paste(board, (0, 0))
    out.paste(column, (board.width, 0))
    return out


@lru_cache(maxsize=256)  # a deployment has a few dozen hands per board style
def hand_column(hands: tuple[Hand, Hand], style: Style) -> Image.Image:
    """The RGB column of both trays, ``hand_width(size)`` x ``size`` pixels; ``hands[color]``."""
    size, theme = style.size, style.theme
    lay = layout(size)
    column = Image.new("RGB", (hand_width(size), size), theme.frame)
    draw = ImageDraw.Draw(column)
    edge = max(1, round(lay.square * 0.04))  # as the board's own edge
    for color in (False, True):
        left, top, right, bottom = hand_tray(color, size, style.flip)
        draw.rectangle((left - size, top, right - size - 1, bottom - 1), fill=theme.light, outline=theme.frame_edge,
                       width=edge)
        for kind, count in hands[color]:
            x, y, x_end, _ = hand_box(color, kind, size, style.flip)
            px = round((x_end - x) * SPRITE_SHARE)
            margin = (x_end - x - px) // 2
            sprite = piece_sprite(kind, color, px)
            column.paste(sprite, (x - size + margin, y + margin), sprite)
            if count > 1:
                _count_badge(column, (x - size, y, x_end - size), count, style)
    return column


def _count_badge(column: Image.Image, slot: tuple[int, int, int], count: int, style: Style) -> None:
    """The number of pieces of a kind in hand, on a dark round badge at the slot's lower right."""
    left, top, right = slot
    side = right - left
    badge = round(side * 0.44)
    x, y = right - badge + round(side * 0.06), top + side - badge
    mask = marks.solid_disc(badge)
    marks.paint(column, (x, y, x + badge, y + badge), style.theme.label, mask)
    inner = marks.solid_disc(badge - 2 * max(1, badge // 12))
    pad = (badge - inner.width) // 2
    marks.paint(column, (x + pad, y + pad, x + pad + inner.width, y + pad + inner.width), style.theme.frame, inner)
    font = fonts.font(max(6, round(badge * 0.72)), fonts.MAIN, 700)
    ImageDraw.Draw(column).text((x + badge / 2, y + badge / 2), str(count), font=font, fill=style.theme.label,
                                anchor="mm")
