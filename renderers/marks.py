"""Marks drawn over squares: highlight tints, the check glow, move dots and hint arrows, and the
variants' corner marks (a leap still to come, a Bia that may promote).

Each mark is a cached alpha mask for a square size; painting it is one ``paste`` of a
colour through the mask, which keeps a warm render cheap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from .geometry import layout, square_center
from .theme import RGB, RGBA

SUPERSAMPLE = 4


def paint(image: Image.Image, box: tuple[int, int, int, int], color: RGB | RGBA, mask: Image.Image) -> None:
    """Paints ``color`` through ``mask`` (its alpha scaled by the colour's own alpha) at ``box``."""
    alpha = color[3] if len(color) == 4 else 255
    if alpha != 255:
        mask = _scaled_mask(mask, alpha)
    image.paste(color[:3], box[:2], mask)


_scaled: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}


def _scaled_mask(mask: Image.Image, alpha: int) -> Image.Image:
    # Images are unhashable: key by identity, and keep the mask alive so its id stays unique.
    key = (id(mask), alpha)
    if key not in _scaled:
        if len(_scaled) > 256:
            _scaled.clear()
        _scaled[key] = (mask, mask.point([v * alpha // 255 for v in range(256)]))
    return _scaled[key][1]


@lru_cache(maxsize=32)
def solid_mask(width: int, height: int) -> Image.Image:
    return Image.new("L", (width, height), 255)


@lru_cache(maxsize=32)
def solid_disc(px: int) -> Image.Image:
    """A round mask ``px`` wide (the badge of a count in hand)."""
    return _smooth_mask(px, lambda d, s: d.ellipse((0, 0, s - 1, s - 1), fill=255))


@lru_cache(maxsize=16)
def check_glow(px: int) -> Image.Image:
    """A soft round glow under a Khun in check, strongest at the centre."""
    # Pillow's radial gradient is 0 at the centre, 181 at the middle of each edge, 255 at corners.
    distance = Image.radial_gradient("L").resize((px, px), Image.Resampling.BILINEAR)
    # Full strength out to half the radius (the Khun hides the centre), fading by the edge.
    return distance.point([round(245 * min(1.0, max(0.0, (1.08 - v / 181) / 0.55))) for v in range(256)])


@lru_cache(maxsize=16)
def target_dot(px: int) -> Image.Image:
    """A dot in the middle of an empty square the picked piece may go to."""
    return _smooth_mask(px, lambda d, s: d.ellipse((s * 0.36, s * 0.36, s * 0.64, s * 0.64), fill=255))


@lru_cache(maxsize=16)
def target_ring(px: int) -> Image.Image:
    """Corner wedges on an occupied square the picked piece may capture."""

    def draw(d: ImageDraw.ImageDraw, s: int) -> None:
        w = s * 0.26
        for (cx, cy), (dx, dy) in (((0, 0), (1, 1)), ((s, 0), (-1, 1)), ((0, s), (1, -1)), ((s, s), (-1, -1))):
            d.polygon([(cx, cy), (cx + dx * w, cy), (cx, cy + dy * w)], fill=255)

    return _smooth_mask(px, draw)


# The variants' marks sit in a square's upper right corner, which every piece leaves free, in
# the frame's ink on a halo of the coordinates' colour: legible on light and dark squares alike.


@lru_cache(maxsize=16)
def leap_mark(px: int) -> tuple[Image.Image, Image.Image]:
    """The halo and ink masks of a small hopping arrow: this Khun or Neang may still leap."""

    def hop(d: ImageDraw.ImageDraw, s: int, grow: float) -> None:
        # Half an ellipse from the corner's lower left up and over to its lower right, and a head
        # pointing down where the piece lands.
        left, right, top, base = s * 0.64, s * 0.93, s * 0.06, s * 0.27
        d.arc((left - grow, top - grow, right + grow, 2 * base - top + grow), 180, 360, fill=255,
              width=round(s * 0.065 + 2 * grow))
        head = s * 0.09 + grow * 1.5
        end = right - s * 0.0325
        d.polygon([(end - head, base - grow * 0.5), (end + head, base - grow * 0.5), (end, base + head * 1.1)],
                  fill=255)

    return _smooth_mask(px, lambda d, s: hop(d, s, s * 0.035)), _smooth_mask(px, lambda d, s: hop(d, s, 0))


@lru_cache(maxsize=16)
def corner_badge(px: int) -> tuple[Image.Image, Image.Image, tuple[int, int, int, int]]:
    """The ring and disc masks of a round badge in the upper right corner, and the box of the
    disc (a Bia that may promote shows in it the Sit-ke it may become)."""
    left, top, right = 0.54, 0.02, 0.98
    ring = _smooth_mask(px, lambda d, s: d.ellipse((s * left, s * top, s * right, s * (top + right - left)), fill=255))
    inset = 0.035
    disc_box = (left + inset, top + inset, right - inset, top + right - left - inset)
    disc = _smooth_mask(px, lambda d, s: d.ellipse(tuple(s * v for v in disc_box), fill=255))
    return ring, disc, (round(px * disc_box[0]), round(px * disc_box[1]), round(px * disc_box[2]),
                        round(px * disc_box[3]))


def arrow_mask(size: int, flip: bool, arrows: tuple[tuple[int, int], ...]) -> tuple[Image.Image, tuple[int, int]]:
    """A mask of the hint arrows and where its top-left corner goes; only their bounding box
    is drawn (at double size, then halved for smooth edges), since arrows are never cached."""
    square = layout(size).square
    shapes = [_arrow(square_center(frm, size, flip), square_center(to, size, flip), square) for frm, to in arrows]
    shapes = [s for s in shapes if s]
    if not shapes:
        return Image.new("L", (1, 1), 0), (0, 0)
    left = int(min(x for s in shapes for x, _ in s))
    top = int(min(y for s in shapes for _, y in s))
    right = int(max(x for s in shapes for x, _ in s)) + 2
    bottom = int(max(y for s in shapes for _, y in s)) + 2
    big = Image.new("L", ((right - left) * 2, (bottom - top) * 2), 0)
    draw = ImageDraw.Draw(big)
    for shape in shapes:
        draw.polygon([((x - left) * 2, (y - top) * 2) for x, y in shape], fill=255)
    return big.reduce(2), (left, top)


def _arrow(start_xy: tuple[float, float], end_xy: tuple[float, float], square: int) -> list[tuple[float, float]]:
    """The outline of one arrow from centre to centre: a shaft and a head short of the target."""
    (x0, y0), (x1, y1) = start_xy, end_xy
    length = math.hypot(x1 - x0, y1 - y0)
    if not length:
        return []
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux
    shaft, head_w, head_l = square * 0.09, square * 0.24, square * 0.36
    start = square * 0.22  # leave the moving piece visible
    end = length - square * 0.12
    base = max(start, end - head_l)

    def at(along: float, across: float) -> tuple[float, float]:
        return x0 + ux * along + nx * across, y0 + uy * along + ny * across

    return [
        at(start, shaft),
        at(base, shaft),
        at(base, head_w),
        at(end, 0),
        at(base, -head_w),
        at(base, -shaft),
        at(start, -shaft),
    ]


def _smooth_mask(px: int, draw_at: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """A square mask drawn by ``draw_at`` at 4x size and reduced, for smooth edges."""
    big = Image.new("L", (px * SUPERSAMPLE, px * SUPERSAMPLE), 0)
    draw_at(ImageDraw.Draw(big), px * SUPERSAMPLE)
    return big.reduce(SUPERSAMPLE)
