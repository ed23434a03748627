"""Drawing a scene onto the cached empty board: tints, check glow, pieces, dots, arrows."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from . import marks
from .background import background, grid_width
from .geometry import layout, square_box
from .pieces import piece_sprite
from .scene import Scene
from .theme import Theme


@dataclass(frozen=True, slots=True)
class Style:
    """How to draw: everything that does not change from move to move."""

    size: int
    theme: Theme
    coords: str = "latin"
    flip: bool = False


def compose(scene: Scene, style: Style) -> Image.Image:
    """The scene drawn as an RGB image of ``style.size`` pixels."""
    image = background(style.size, style.theme, style.coords, style.flip).copy()
    lay = layout(style.size)
    theme = style.theme
    # Tints stay inside the carved lines, so the grid reads through a highlight.
    inset = (grid_width(lay) + 1) // 2 if theme.grid is not None else 0
    tint_mask = marks.solid_mask(lay.square - 2 * inset, lay.square - 2 * inset)

    def box(sq: int) -> tuple[int, int, int, int]:
        return square_box(sq, style.size, style.flip)

    def tint(sq: int, color) -> None:
        left, top, right, bottom = box(sq)
        marks.paint(image, (left + inset, top + inset, right - inset, bottom - inset), color, tint_mask)

    if scene.last_move:
        for sq in scene.last_move:
            tint(sq, theme.last_move)
    if scene.selected is not None:
        tint(scene.selected, theme.selected)
    if scene.check is not None:
        marks.paint(image, box(scene.check), theme.check, marks.check_glow(lay.square))
    for sq in scene.targets:
        if scene.pieces[sq] is not None:
            marks.paint(image, box(sq), theme.target, marks.target_ring(lay.square))
    for sq, piece in enumerate(scene.pieces):
        if piece is not None:
            sprite = piece_sprite(piece.kind, piece.color, lay.square)
            image.paste(sprite, box(sq)[:2], sprite)
    for sq in scene.targets:
        if scene.pieces[sq] is None:
            marks.paint(image, box(sq), theme.target, marks.target_dot(lay.square))
    if scene.arrows:
        mask, (left, top) = marks.arrow_mask(style.size, style.flip, scene.arrows)
        marks.paint(image, (left, top, left + mask.width, top + mask.height), theme.arrow, mask)
    return image
