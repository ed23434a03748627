"""Drawing a scene onto the cached empty board: tints, check glow, pieces, dots, arrows, the
variants' corner marks, and Sittuyin's pieces in hand beside the board."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from makruk import BLACK, Piece, PieceType

from . import marks
from .background import background, grid_width
from .geometry import layout, square_box
from .hands import hand_column, with_hands
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
    """The scene drawn as an RGB image of ``style.size`` pixels (wider when hands are shown)."""
    image = background(style.size, style.theme, style.coords, style.flip).copy()
    for sq in range(64):
        layers = SquareLayers.of(scene, sq)
        if layers:
            draw_square(image, square_box(sq, style.size, style.flip), layers, style)
    if scene.arrows:
        mask, (left, top) = marks.arrow_mask(style.size, style.flip, scene.arrows)
        marks.paint(image, (left, top, left + mask.width, top + mask.height), style.theme.arrow, mask)
    if scene.hands is not None:
        image = with_hands(image, hand_column(scene.hands, style))
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
    leap: bool = False  # Ouk Chatrang: the piece may still leap
    promotion: bool = False  # Sittuyin: the Bia may promote now

    @classmethod
    def of(cls, scene: Scene, sq: int) -> SquareLayers:
        return cls(scene.pieces[sq], scene.last_move is not None and sq in scene.last_move,
                   sq == scene.selected, sq == scene.check, sq in scene.targets,
                   sq in scene.leaps, sq in scene.promotions)

    def __bool__(self) -> bool:
        return self.piece is not None or self.last_move or self.selected or self.check or self.target


def draw_square(image: Image.Image, box: tuple[int, int, int, int], layers: SquareLayers, style: Style) -> None:
    """Draws one square's layers at ``box``: tints, check glow, target ring, piece, target dot,
    corner marks."""
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
    if layers.leap:
        halo, ink = marks.leap_mark(lay.square)
        marks.paint(image, box, theme.label, halo)
        marks.paint(image, box, theme.frame, ink)
    if layers.promotion and layers.piece is not None:
        # The Sit-ke the Bia may become, on a badge of the other side's shade (a sprite leaves a margin).
        ring, disc, (b_left, b_top, b_right, b_bottom) = marks.corner_badge(lay.square)
        dark, light = theme.frame, theme.label
        marks.paint(image, box, dark if layers.piece.color == BLACK else light, ring)
        marks.paint(image, box, light if layers.piece.color == BLACK else dark, disc)
        px = round((b_right - b_left) * 1.5)
        sit_ke = piece_sprite(PieceType.MET, layers.piece.color, px)
        # The sprite's transparent margin may pass the square's edge: cut it there, as every layer.
        dx, dy = round((b_left + b_right - px) / 2), round((b_top + b_bottom) / 2 - px * 0.55)
        inside = sit_ke.crop((max(0, -dx), max(0, -dy), min(px, lay.square - dx), min(px, lay.square - dy)))
        image.paste(inside, (left + max(0, dx), top + max(0, dy)), inside)
