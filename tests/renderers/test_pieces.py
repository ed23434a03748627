"""The sides by pixel statistics: every piece of White is light and every piece of Black dark,
the Bia Ngai (Makruk's promoted Bia, ASEAN's and Sittuyin's promoted Met) too, and a Bia Ngai
tells itself from a Bia at the 240 px preview size. On the sprites and on real renders in
every theme."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

import makruk
from makruk import BLACK, WHITE, Board, PieceType
from renderers import layout, render_board, square_box
from renderers.pieces import piece_sprite
from renderers.theme import THEMES

Color = bool
KINDS = list(PieceType)
# Every kind of both sides, no check and no marks: White on ranks 1-3, Black on ranks 6-8.
ALL_KINDS = "rnsmk3/8/p1m~5/8/8/P1M~5/8/RNSMK3 w - - 0 1"
SIZES = (layout(240).square, 60, layout(800).square)  # sprite sizes: LINE preview, chart, board
# A side's body must be this far on its side of mid-grey, and the sides this far apart.
LIGHT, DARK, APART = 150, 110, 60


def body_mask(kind: PieceType, color: Color, px: int) -> Image.Image:
    """The sprite's fully opaque pixels less its outline: where its body colour shows."""
    alpha = piece_sprite(kind, color, px).getchannel("A").point(lambda v: 255 if v == 255 else 0)
    edge = max(1, round(px * 0.03))  # the halo's and outline's width, as pieces.py draws them
    return alpha.filter(ImageFilter.MinFilter(2 * edge + 1))


def luminance(image: Image.Image, mask: Image.Image) -> float:
    """The mean luminance of ``image`` (RGB or RGBA) under ``mask``."""
    stat = ImageStat.Stat(image.convert("RGB").convert("L"), mask)
    assert stat.count[0] > 0
    return float(stat.mean[0])


def sprite_luminance(kind: PieceType, color: Color, px: int) -> float:
    return luminance(piece_sprite(kind, color, px), body_mask(kind, color, px))


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def board_luminance(fen: str, theme: str, size: int) -> dict[tuple[PieceType, Color], float]:
    """Each piece's body luminance as drawn on a real render: palette, theme and all."""
    image = rgb(render_board(fen, size=size, theme=theme, coords="none"))
    px = layout(size).square
    out = {}
    for square, piece in Board(fen).piece_map().items():
        crop = image.crop(square_box(square, size))
        out[piece.kind, piece.color] = luminance(crop, body_mask(piece.kind, piece.color, px))
    return out


def assert_sides(lum: dict[tuple[PieceType, Color], float], where: str) -> None:
    """White light and Black dark for every kind; the Bia Ngai as light or dark as its side's
    Met and Bia, and nearer its own side's Bia than the other's."""
    for kind in KINDS:
        white, black = lum[kind, WHITE], lum[kind, BLACK]
        assert white > LIGHT and black < DARK and white - black > APART, f"{kind.name} {where}: {white:.0f}/{black:.0f}"
    ngai = PieceType.BIA_NGAI
    for color in (WHITE, BLACK):
        own = [round(lum[PieceType.MET, color]), round(lum[PieceType.BIA, color])]
        value = lum[ngai, color]
        side = "White" if color == WHITE else "Black"
        message = f"{side}'s Bia Ngai {where}: {value:.0f}, its Met and Bia {own}"
        assert (value >= min(own) - 15) if color == WHITE else (value <= max(own) + 15), message
        assert abs(value - lum[PieceType.BIA, color]) < abs(value - lum[PieceType.BIA, not color]), message


@pytest.mark.parametrize("px", SIZES)
def test_each_sprite_is_its_sides_colour(px):
    lum = {(kind, color): sprite_luminance(kind, color, px) for kind in KINDS for color in (WHITE, BLACK)}
    assert_sides(lum, f"at {px} px")


@pytest.mark.parametrize("size", [240, 800])
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_each_piece_on_the_board_is_its_sides_colour_in_every_theme(theme, size):
    lum = board_luminance(ALL_KINDS, theme, size)
    assert len(lum) == 14
    assert_sides(lum, f"on {theme} at {size} px")


# The same square, once with a Bia and once with a Bia Ngai of the same side.
BIA_OR_NGAI = {
    WHITE: ("e3", "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "4k3/8/8/8/8/4M~3/8/4K3 w - - 0 1"),
    BLACK: ("e6", "4k3/8/4p3/8/8/8/8/4K3 w - - 0 1", "4k3/8/4m~3/8/8/8/8/4K3 w - - 0 1"),
}


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("color", [WHITE, BLACK])
def test_bia_ngai_tells_itself_from_a_bia_at_240_px(theme, color):
    name, *fens = BIA_OR_NGAI[color]
    square = makruk.parse_square(name)
    assert [Board(fen).piece_at(square) for fen in fens] == [
        makruk.Piece(PieceType.BIA, color),
        makruk.Piece(PieceType.BIA_NGAI, color),
    ]
    bia, ngai = (rgb(render_board(fen, size=240, theme=theme)).crop(square_box(square, 240)) for fen in fens)
    bia, ngai = bia.convert("L"), ngai.convert("L")
    changed = ImageChops.difference(bia, ngai).point(lambda v: 255 if v > 48 else 0).histogram()[255]
    assert changed > 0.08 * bia.width * bia.height, f"{changed} of {bia.width * bia.height} pixels differ"


def test_the_statistics_are_deterministic():
    first = board_luminance(ALL_KINDS, "wood", 240)
    piece_sprite.cache_clear()
    assert board_luminance(ALL_KINDS, "wood", 240) == first
