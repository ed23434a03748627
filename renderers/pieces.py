"""The project's own Makruk pieces, drawn as vector shapes at high resolution and downsampled.

Each kind has its own silhouette, so the pieces read at a glance on a phone:
Khun tall with a tiered crown, Met a small bud, Khon a dome, Ma a horse head, Rua a boat on a
tower, Bia a flat shell disc, and Bia Ngai the same disc turned over (the shell's domed back up,
ringed in the side's accent). White pieces are light with dark lines, the Bia Ngai too; Black
pieces are dark with light inner lines and a light mark on the base, so the sides differ by
more than colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from makruk import BLACK, WHITE, PieceType

from .vector import Point, arc, ellipse, mirror, path

Color = bool

SUPERSAMPLE = 4  # drawn this many times larger, then reduced: smooth edges at any size
# Line widths as shares of the sprite's side (floored on small sprites): the outline, and the
# inner lines (a Stroke's ``width`` is relative to the outline).
OUTLINE = 0.03
INNER = 0.021
SHADOW_ALPHA = 110
SHADOW_BLUR = 0.02  # the shadow's box blur radius, a share of the sprite's side


@dataclass(frozen=True, slots=True)
class Fill:
    """A closed shape: ``role`` picks its colour (body, accent, line); outlined unless told."""

    points: tuple[Point, ...]
    role: str = "body"
    outline: bool = True


@dataclass(frozen=True, slots=True)
class Stroke:
    """A detail line, ``width`` relative to the outline width."""

    points: tuple[Point, ...]
    width: float = 0.8
    closed: bool = False


Part = Fill | Stroke


@dataclass(frozen=True, slots=True)
class Palette:
    body: tuple[int, int, int]
    accent: tuple[int, int, int]
    line: tuple[int, int, int]  # outlines and details
    halo: tuple[int, int, int]  # the outer edge around the whole piece


PIECE_COLORS: dict[Color, Palette] = {
    WHITE: Palette(body=(247, 238, 214), accent=(222, 180, 92), line=(34, 22, 12), halo=(34, 22, 12)),
    BLACK: Palette(body=(48, 40, 36), accent=(200, 62, 44), line=(238, 224, 192), halo=(12, 9, 8)),
}


@lru_cache(maxsize=512)
def piece_sprite(kind: PieceType, color: Color, px: int) -> Image.Image:
    """An RGBA image ``px`` x ``px`` of the piece with a soft shadow, for one board square."""
    big = px * SUPERSAMPLE
    canvas = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    parts = piece_parts(kind, color)
    _draw_shadow(canvas, kind)
    outline = max(1.0, px * OUTLINE)
    # Inner lines thin out on small sprites, or Black's light lines would grey the whole piece.
    inner = max(0.55, min(outline * 0.7, px * INNER))
    _draw_parts(canvas, parts, PIECE_COLORS[color], outline * SUPERSAMPLE, inner * SUPERSAMPLE)
    return canvas.resize((px, px), Image.Resampling.LANCZOS)


def piece_parts(kind: PieceType, color: Color) -> list[Part]:
    """The shapes of one piece in drawing order, Black's mark included (also drawn as SVG by ``svg.py``)."""
    parts = SHAPES[kind]()
    if color == BLACK:
        parts = parts + BLACK_MARK.get(kind, _plinth_mark)()
    return parts


def shadow_ellipse(kind: PieceType) -> tuple[float, float, float, float]:
    """The centre and radii of the soft shadow under a piece, in unit coordinates."""
    if kind in (PieceType.BIA, PieceType.BIA_NGAI):
        return 0.52, 0.83, 0.27, 0.045
    return 0.52, 0.905, 0.31, 0.045


def _draw_parts(canvas: Image.Image, parts: list[Part], colors: Palette, outline: float, inner: float) -> None:
    """Draws the halo of all outlined shapes, then each part in order: fills, lines, details."""
    draw = ImageDraw.Draw(canvas)
    size = canvas.width
    fills = [p for p in parts if isinstance(p, Fill)]
    # First the halo: every outlined shape grown by one outline width, in the edge colour.
    for fill in fills:
        if fill.outline:
            pts = _px(fill.points, size)
            draw.polygon(pts, fill=colors.halo)
            draw.line(pts + pts[:1], fill=colors.halo, width=round(outline * 2), joint="curve")
    for part in parts:
        pts = _px(part.points, size)
        if isinstance(part, Fill):
            draw.polygon(pts, fill=getattr(colors, part.role))
            if part.outline:
                draw.line(pts + pts[:1], fill=colors.line, width=round(inner), joint="curve")
        else:
            if part.closed:
                pts = pts + pts[:1]
            draw.line(pts, fill=colors.line, width=max(1, round(inner / 0.7 * part.width)), joint="curve")


def _draw_shadow(canvas: Image.Image, kind: PieceType) -> None:
    size = canvas.width
    shadow = Image.new("L", canvas.size, 0)
    ImageDraw.Draw(shadow).polygon(_px(ellipse(*shadow_ellipse(kind)), size), fill=SHADOW_ALPHA)
    shadow = shadow.filter(ImageFilter.BoxBlur(size * SHADOW_BLUR))
    dark = Image.new("RGBA", canvas.size, (0, 0, 0, 255))
    dark.putalpha(shadow)
    canvas.alpha_composite(dark)


def _px(points: tuple[Point, ...] | list[Point], size: int) -> list[tuple[float, float]]:
    return [(x * size, y * size) for x, y in points]


# --- shapes, in unit coordinates (0..1, y down), each standing on the square's lower part ---


def _plinth(half: float, top: float = 0.80, bottom: float = 0.90) -> Fill:
    """The round turned base most pieces stand on, seen slightly from above."""
    right = path(
        (0.5, top),
        (0.5 + half - 0.03, top),
        ((0.5 + half, top), (0.5 + half, top + 0.03)),
        (0.5 + half, bottom - 0.025),
        ((0.5 + half, bottom), (0.5 + half - 0.04, bottom)),
        (0.5, bottom),
    )
    return Fill(tuple(mirror(right)))


def _collar(half: float, top: float, bottom: float) -> Fill:
    return Fill(tuple(mirror([(0.5, top), (0.5 + half, top), (0.5 + half, bottom), (0.5, bottom)])))


def _khun() -> list[Part]:
    right = path(
        (0.5, 0.085),
        (0.528, 0.15),
        (0.566, 0.165),
        (0.566, 0.19),
        (0.545, 0.197),
        (0.592, 0.275),
        (0.636, 0.29),
        (0.636, 0.318),
        (0.61, 0.325),
        (0.655, 0.40),
        (0.705, 0.415),
        (0.705, 0.452),
        (0.605, 0.47),
        ((0.615, 0.56), (0.71, 0.63), (0.71, 0.745)),
        (0.5, 0.745),
    )
    return [
        _plinth(0.31),
        _collar(0.25, 0.735, 0.81),
        Fill(tuple(mirror(right))),
        Fill(tuple(mirror([(0.5, 0.415), (0.705, 0.415), (0.705, 0.452), (0.5, 0.452)])), role="accent"),
        Fill(tuple(ellipse(0.5, 0.075, 0.026, 0.03, 20)), role="accent"),
        Stroke(tuple(arc(0.5, 0.62, 0.16, 0.035, 0, 180, 16))),
    ]


def _met() -> list[Part]:
    right = path(
        (0.5, 0.40),
        ((0.55, 0.43), (0.615, 0.47), (0.61, 0.525)),
        ((0.605, 0.565), (0.56, 0.585), (0.55, 0.60)),
        ((0.60, 0.64), (0.64, 0.69), (0.645, 0.75)),
        (0.5, 0.75),
    )
    return [
        _plinth(0.25),
        _collar(0.20, 0.74, 0.81),
        Fill(tuple(mirror(right))),
        Fill(tuple(mirror([(0.5, 0.585), (0.575, 0.585), (0.575, 0.615), (0.5, 0.615)])), role="accent"),
    ]


def _khon() -> list[Part]:
    right = path(
        (0.5, 0.25),
        ((0.63, 0.25), (0.715, 0.33), (0.715, 0.47)),
        (0.715, 0.50),
        (0.645, 0.52),
        ((0.63, 0.60), (0.68, 0.68), (0.685, 0.75)),
        (0.5, 0.75),
    )
    return [
        _plinth(0.30),
        _collar(0.24, 0.74, 0.81),
        Fill(tuple(mirror(right))),
        Fill(tuple(mirror([(0.5, 0.47), (0.715, 0.47), (0.715, 0.50), (0.645, 0.52), (0.5, 0.52)])), role="accent"),
        Fill(tuple(ellipse(0.5, 0.225, 0.045, 0.045, 24))),
        Stroke(tuple(arc(0.5, 0.47, 0.13, 0.16, 200, 340, 16))),
    ]


def _ma() -> list[Part]:
    head = path(
        (0.33, 0.78),
        ((0.37, 0.70), (0.41, 0.64), (0.42, 0.585)),  # throat
        ((0.36, 0.60), (0.29, 0.61), (0.24, 0.60)),  # under the jaw to the chin
        ((0.19, 0.59), (0.165, 0.55), (0.175, 0.51)),  # muzzle
        ((0.19, 0.45), (0.27, 0.37), (0.36, 0.29)),  # face
        ((0.40, 0.25), (0.42, 0.19), (0.45, 0.12)),  # forehead to the ear
        ((0.49, 0.17), (0.51, 0.20), (0.53, 0.225)),  # back of the ear
        ((0.66, 0.25), (0.77, 0.36), (0.79, 0.52)),  # crest of the neck
        ((0.80, 0.62), (0.78, 0.71), (0.77, 0.78)),
    )
    mane = path((0.55, 0.24), ((0.68, 0.29), (0.72, 0.43), (0.73, 0.58)))
    return [
        _plinth(0.31),
        Fill(tuple(head)),
        Stroke(tuple(mane), width=0.7),
        Fill(tuple(ellipse(0.395, 0.335, 0.032, 0.022, 16)), role="line", outline=False),  # eye
        Fill(tuple(ellipse(0.215, 0.525, 0.016, 0.016, 12)), role="line", outline=False),  # nostril
        Stroke(tuple(path((0.30, 0.585), ((0.27, 0.575), (0.245, 0.58)))), width=0.6),  # mouth
    ]


def _rua() -> list[Part]:
    tower = mirror([(0.5, 0.37), (0.645, 0.37), (0.67, 0.75), (0.5, 0.75)])
    hull = path(
        (0.13, 0.15),
        ((0.30, 0.27), (0.5, 0.27)),
        ((0.70, 0.27), (0.87, 0.15)),
        ((0.83, 0.34), (0.66, 0.40)),
        (0.34, 0.40),
        ((0.17, 0.34), (0.13, 0.15)),
    )
    return [
        _plinth(0.31),
        _collar(0.25, 0.735, 0.81),
        Fill(tuple(tower)),
        Fill(tuple(mirror([(0.5, 0.52), (0.66, 0.52), (0.662, 0.565), (0.5, 0.565)])), role="accent"),
        Fill(tuple(hull)),
        Stroke(tuple(path((0.25, 0.315), ((0.5, 0.36), (0.75, 0.315)))), width=0.6),
    ]


BIA_TOP, BIA_BOTTOM, BIA_RX, BIA_RY = 0.56, 0.70, 0.31, 0.12
NGAI_RX, NGAI_RISE = 0.17, 0.22  # the Bia Ngai's dome: half-width, height above the face


def _disc() -> Fill:
    """The side of the Bia's flat disc: a short cylinder seen from above."""
    side = [
        (0.5 + BIA_RX, BIA_TOP),
        (0.5 + BIA_RX, BIA_BOTTOM),
        *arc(0.5, BIA_BOTTOM, BIA_RX, BIA_RY, 0, 180, 24),
        (0.5 - BIA_RX, BIA_TOP),
        *arc(0.5, BIA_TOP, BIA_RX, BIA_RY, 180, 360, 24),
    ]
    return Fill(tuple(side))


def _bia() -> list[Part]:
    # Face up: the cowrie's toothed slit across a light face.
    teeth = [
        Stroke(((x, BIA_TOP - 0.022), (x, BIA_TOP + 0.022)), width=0.55)
        for x in (0.40, 0.45, 0.5, 0.55, 0.60)
    ]
    return [
        _disc(),
        Fill(tuple(ellipse(0.5, BIA_TOP, BIA_RX, BIA_RY))),
        Stroke(((0.36, BIA_TOP), (0.64, BIA_TOP)), width=0.8),
        *teeth,
    ]


def _bia_ngai() -> list[Part]:
    # Turned over: the shell's domed back is up, in the side's own body colour like every
    # other piece, ringed at its foot in the side's accent (the promotion mark).
    dome = [
        *arc(0.5, BIA_TOP, NGAI_RX, NGAI_RISE, 180, 360, 24),
        *arc(0.5, BIA_TOP, NGAI_RX, NGAI_RX * BIA_RY / BIA_RX, 0, 180, 24),
    ]
    return [
        _disc(),
        Fill(tuple(ellipse(0.5, BIA_TOP, BIA_RX, BIA_RY))),
        Fill(tuple(ellipse(0.5, BIA_TOP + 0.006, NGAI_RX + 0.07, BIA_RY * 0.84)), role="accent"),
        Fill(tuple(dome)),
        Stroke(tuple(arc(0.5, BIA_TOP - 0.02, NGAI_RX * 0.6, NGAI_RISE * 0.7, 215, 265, 8)), width=0.6),
    ]


SHAPES = {
    PieceType.KHUN: _khun,
    PieceType.MET: _met,
    PieceType.KHON: _khon,
    PieceType.MA: _ma,
    PieceType.RUA: _rua,
    PieceType.BIA: _bia,
    PieceType.BIA_NGAI: _bia_ngai,
}


def _plinth_mark() -> list[Part]:
    """Black's own mark: a light diamond on the base, visible without colour vision."""
    return [Fill(((0.5, 0.815), (0.54, 0.85), (0.5, 0.885), (0.46, 0.85)), role="line", outline=False)]


def _disc_mark() -> list[Part]:
    return [Fill(((0.5, 0.715), (0.535, 0.75), (0.5, 0.785), (0.465, 0.75)), role="line", outline=False)]


BLACK_MARK = {PieceType.BIA: _disc_mark, PieceType.BIA_NGAI: _disc_mark}
