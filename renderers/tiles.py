"""The fast way to a board in the theme's palette: cached palette tiles of single squares.

Mapping to a fixed palette without dithering treats every pixel on its own, so a square mapped
alone equals that square of the whole board mapped at once. A board is then the palette
background with a cached tile pasted on each square that shows something: the very same
pixels as composing in RGB and mapping the whole board, without mapping 640,000 pixels per
move. Arrows cross squares and take the whole-board path.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .background import background
from .compose import SquareLayers, Style, draw_square
from .geometry import square_box
from .hands import hand_column, with_hands
from .palette import to_palette
from .scene import Scene


def compose_palette(scene: Scene, style: Style) -> Image.Image:
    """The scene (without arrows) as a palette image of ``style.size`` pixels (wider with hands)."""
    image = palette_background(style).copy()
    for sq in range(64):
        layers = SquareLayers.of(scene, sq)
        if layers:
            image.paste(palette_tile(style, sq, layers), square_box(sq, style.size, style.flip)[:2])
    if scene.hands is not None:
        image = with_hands(image, to_palette(hand_column(scene.hands, style), style.theme))
    return image


@lru_cache(maxsize=32)
def palette_background(style: Style) -> Image.Image:
    return to_palette(background(style.size, style.theme, style.coords, style.flip), style.theme)


@lru_cache(maxsize=8192)  # a few hundred kinds of square per board style; tiles are a few KB
def palette_tile(style: Style, sq: int, layers: SquareLayers) -> Image.Image:
    left, top, right, bottom = square_box(sq, style.size, style.flip)
    cell = background(style.size, style.theme, style.coords, style.flip).crop((left, top, right, bottom))
    draw_square(cell, (0, 0, right - left, bottom - top), layers, style)
    return to_palette(cell, style.theme)
