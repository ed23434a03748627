"""One fixed 256-colour palette per theme, and PNG encoding of palette images.

A palette image is a third of the bytes of RGB, so PNG compression is several times faster
and the files smaller; one shared palette also lets GIF frames be stored as small deltas.
The palette is learnt once from sample boards drawn in the theme, plus exact colour ramps
for text so coordinates and captions stay smooth.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from makruk import BLACK, WHITE, Board

from .compose import Style, compose
from .pieces import PIECE_COLORS
from .scene import scene_of
from .theme import RGB, Theme

PNG_COMPRESS_LEVEL = 3  # measured at 800 px: half the time of level 6 for 15% more bytes (~34 KB)
RAMP_STEPS = 10

_SAMPLE_POSITIONS = (
    # Start position, with every mark in use.
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "e3e4", "b1", ("a3", "c3", "d2"), ("g1f3",)),
    # Every kind of both sides on both square colours, a Khun in check, Bia Ngai.
    ("r1sk1snr/3m4/ppM~p1p1p/4p3/3P4/PPm~1PPnP/4K3/RNS1MS1R w - - 0 1", "h5g3", "e2", ("d3", "g3"), ("h1h2", "b1c3")),
)


@lru_cache(maxsize=8)
def theme_palette(theme: Theme) -> Image.Image:
    """A tiny "P" image carrying the theme's palette, for ``Image.quantize(palette=...)``."""
    samples = _samples(theme)
    ramps = _ramps(theme)
    adaptive = samples.quantize(colors=256 - len(ramps), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = adaptive.getpalette()
    assert palette is not None  # a quantized image always has one
    colors = palette[: 3 * (256 - len(ramps))]
    for rgb in ramps:
        colors.extend(rgb)
    holder = Image.new("P", (1, 1))
    holder.putpalette(colors)
    return holder


def to_palette(image: Image.Image, theme: Theme) -> Image.Image:
    """The RGB image mapped to the theme's palette, without dithering (flat areas stay flat)."""
    return image.quantize(palette=theme_palette(theme), dither=Image.Dither.NONE)


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def _samples(theme: Theme) -> Image.Image:
    """Sample boards at a middle size, both orientations and both coordinate scripts."""
    tiles = []
    for (fen, last, selected, targets, arrows), coords, flip in zip(
        _SAMPLE_POSITIONS * 2, ("latin", "thai", "thai", "latin"), (False, True, False, True), strict=True
    ):
        scene, _ = scene_of(Board(fen), last_move=last, selected=selected, targets=targets, arrows=arrows)
        tiles.append(compose(scene, Style(360, theme, coords, flip)))
    sheet = Image.new("RGB", (360 * len(tiles), 360))
    for i, tile in enumerate(tiles):
        sheet.paste(tile, (360 * i, 0))
    return sheet


def _ramps(theme: Theme) -> list[RGB]:
    """Blends between colours that meet in anti-aliased text and outlines."""
    pairs = [(theme.frame, theme.label), (theme.caption_bg, theme.caption_text)]
    pairs += [(theme.caption_bg, PIECE_COLORS[WHITE].line), (theme.caption_bg, PIECE_COLORS[BLACK].body)]
    return [_blend(a, b, i / (RAMP_STEPS - 1)) for a, b in pairs for i in range(RAMP_STEPS)]


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))

