"""Drawing a scene onto the cached empty board: tints, check glow, pieces, dots, arrows."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from makruk import Piece

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
    for sq in range(64):
        layers = SquareLayers.of(scene, sq)
        if layers:
            draw_square(image, square_box(sq, style.size, style.flip), layers, style)
    if scene.arrows:
        mask, (left, top) = marks.arrow_mask(style.size, style.flip, scene.arrows)
        marks.paint(image, (left, top, left + mask.width, top + mask.height), style.theme.arrow, mask)
    return image


@dataclass(frozen=True, slots=True)
class SquareLayers:
    """What is drawn on one square. Every layer stays inside the square's box, so squares can
    be drawn one at a time (see tiles.py)."""

    piece: Piece | None = None
    last_move: bool = False
    selected: bool = False
    check: bool = False
    target: bool = False

    @classmethod
    def of(cls, scene: Scene, sq: int) -> SquareLayers:
        return cls(scene.pieces[sq], scene.last_move is not None and sq in scene.last_move,
                   sq == scene.selected, sq == scene.check, sq in scene.targets)

    def __bool__(self) -> bool:
        return self.piece is not None or self.last_move or self.selected or self.check or self.target


def draw_square(image: Image.Image, box: tuple[int, int, int, int], layers: SquareLayers, style: Style) -> None:
    """Draws one square's layers at ``box``: tints, check glow, target ring, piece, target dot."""
    lay = layout(style.size)
    theme = style.theme
    left, top, right, bottom = box
    # Tints stay inside the carved lines, so the grid reads through a highlight.
    inset = (grid_width(lay) + 1) // 2 if theme.grid is not None else 0
    tint_mask = marks.solid_mask(lay.square - 2 * inset, lay.square - 2 * inset)
    tint_box = (left + inset, top + inset, right - inset, bottom - inset)
    if layers.last_move:
        marks.paint(image, tint_box, theme.last_move, tint_mask)
    if layers.selected:
        marks.paint(image, tint_box, theme.selected, tint_mask)
    if layers.check:
        marks.paint(image, box, theme.check, marks.check_glow(lay.square))
    if layers.target and layers.piece is not None:
        marks.paint(image, box, theme.target, marks.target_ring(lay.square))
    if layers.piece is not None:
        sprite = piece_sprite(layers.piece.kind, layers.piece.color, lay.square)
        image.paste(sprite, box[:2], sprite)
    if layers.target and layers.piece is None:
        marks.paint(image, box, theme.target, marks.target_dot(lay.square))
