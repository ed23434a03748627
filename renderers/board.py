"""Board images: ``render_board`` for the chat, ``render_preview`` for LINE's small previews."""

from __future__ import annotations

from collections.abc import Iterable

from makruk import Board, Move

from .bands import board_png
from .caption import add_caption
from .compose import Style, compose
from .geometry import Square
from .palette import png_bytes, to_palette
from .scene import check_coords, scene_of
from .theme import DEFAULT_THEME, Theme, get_theme
from .tiles import compose_palette

PREVIEW_SIZE = 240


def render_board(
    fen: str | Board,
    *,
    variant: str | None = None,
    size: int = 800,
    flip: bool = False,
    last_move: str | Move | None = None,
    coords: str = "latin",
    theme: str | Theme = DEFAULT_THEME,
    selected: str | Square | None = None,
    targets: Iterable[str | Square] = (),
    arrows: Iterable[str | Move] = (),
    caption: str | None = None,
) -> bytes:
    """A PNG of the position, ``size`` pixels wide, White at the bottom unless ``flip``.

    ``last_move`` (UCI) tints its two squares; a Khun in check glows red by itself;
    ``selected`` tints a square and ``targets`` get dots (tap-to-move); ``arrows`` are UCI
    hints; ``coords`` is ``"latin"``, ``"thai"`` or ``"none"``. A ``caption`` (lines split
    by ``\\n``) adds a band below the board, which keeps the squares where ``square_box``
    puts them. Raises ValueError (from makruk or RenderError) on bad input.

    A FEN is read as ``variant`` (``makruk.VARIANTS``; None: Makruk), a Board as its own. Ouk
    Chatrang's Khun and Neang that may still leap carry a small hopping arrow, Sittuyin's Bia
    that may promote the Sit-ke it may become; during Sittuyin's deployment the picture is
    ``geometry.hand_width(size)`` wider, the pieces in hand standing right of the board.
    """
    style = Style(size, get_theme(theme), check_coords(coords), bool(flip))
    scene, _ = scene_of(fen, variant=variant, last_move=last_move, selected=selected, targets=targets,
                        arrows=arrows)
    if not scene.arrows and not caption:  # the same pixels, much faster
        return board_png(scene, style) if scene.hands is None else png_bytes(compose_palette(scene, style))
    image = compose(scene, style)
    if caption:
        image = add_caption(image, caption, style.theme)
    return png_bytes(to_palette(image, style.theme))


def render_preview(
    fen: str | Board,
    *,
    size: int = PREVIEW_SIZE,
    coords: str = "none",
    **options,
) -> bytes:
    """A small PNG for LINE's ``previewImageUrl`` (about 240 px, far below LINE's 1 MB limit).

    Coordinates are off by default: at this size they are noise. Other options as ``render_board``.
    """
    return render_board(fen, size=size, coords=coords, **options)
