"""Text under or above a board: captions, and the puzzle card (caption + board)."""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image, ImageDraw

from makruk import Board, Move, PieceType

from . import fonts
from .compose import Style, compose
from .palette import png_bytes, to_palette
from .pieces import piece_sprite
from .scene import check_coords, scene_of
from .theme import DEFAULT_THEME, Theme, get_theme

LINE_GAP = 0.35  # extra space between caption lines, as a share of the font size


def add_caption(board: Image.Image, caption: str, theme: Theme) -> Image.Image:
    """The board with a caption band below it; the board keeps its place at the top."""
    band = caption_band(caption, board.width, theme, font_size=round(board.height * 0.042))
    out = Image.new("RGB", (board.width, board.height + band.height), theme.caption_bg)
    out.paste(board, (0, 0))
    out.paste(band, (0, board.height))
    return out


def caption_band(
    caption: str,
    width: int,
    theme: Theme,
    *,
    font_size: int,
    icon: Image.Image | None = None,
) -> Image.Image:
    """Centred lines of ``caption`` (split at ``\\n``) on the theme's caption colour.

    The font shrinks until the widest line fits: Thai has no spaces to break lines at.
    An ``icon`` (RGBA) stands left of the text, e.g. the Khun of the side to move.
    """
    pad = max(4, round(font_size * 0.6))
    icon_w = icon.width + pad if icon is not None else 0
    room = width - 2 * pad - icon_w
    lines = [line.strip() for line in caption.strip().split("\n")] or [""]
    size = max(8, font_size)
    measured = [fonts.measure(line, size) for line in lines]
    while size > 8 and max(m.width for m in measured) > room:
        size = max(8, int(size * min(0.95, room / max(m.width for m in measured))))
        measured = [fonts.measure(line, size) for line in lines]
    line_h = max(m.ascent + m.descent for m in measured)
    step = line_h + round(size * LINE_GAP)
    text_h = step * (len(lines) - 1) + line_h
    height = max(text_h, icon.height if icon is not None else 0) + 2 * pad
    band = Image.new("RGB", (width, height), theme.caption_bg)
    draw = ImageDraw.Draw(band)
    text_w = max(m.width for m in measured)
    left = (width - text_w - icon_w) / 2
    if icon is not None:
        band.paste(icon, (round(left), (height - icon.height) // 2), icon)
        left += icon_w
    top = (height - text_h) / 2
    for i, line in enumerate(measured):
        x = left + (text_w - line.width) / 2
        fonts.draw_line(draw, x, top + i * step + line.ascent, line, theme.caption_text)
    return band


def render_puzzle_card(
    fen: str | Board,
    caption: str,
    *,
    variant: str | None = None,
    size: int = 800,
    flip: bool | None = None,
    coords: str = "latin",
    theme: str | Theme = DEFAULT_THEME,
    last_move: str | Move | None = None,
    arrows: Iterable[str | Move] = (),
) -> bytes:
    """A PNG card: the caption (any of Thai, English, Japanese, Khmer) above the board.

    By default the board is seen from the side to move, whose Khun stands beside the caption.
    """
    style_theme = get_theme(theme)
    scene, board = scene_of(fen, variant=variant, last_move=last_move, arrows=arrows)
    if flip is None:
        flip = not board.turn
    style = Style(size, style_theme, check_coords(coords), bool(flip))
    image = compose(scene, style)
    icon_px = round(size * 0.085)
    band = caption_band(
        caption,
        image.width,  # wider than ``size`` while Sittuyin's pieces are in hand
        style_theme,
        font_size=round(size * 0.05),
        icon=piece_sprite(PieceType.KHUN, board.turn, icon_px),
    )
    card = Image.new("RGB", (image.width, image.height + band.height), style_theme.caption_bg)
    card.paste(band, (0, 0))
    card.paste(image, (0, band.height))
    return png_bytes(to_palette(card, style_theme))
