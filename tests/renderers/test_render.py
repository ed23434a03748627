"""Structural checks on real renders: marks, orientation, pieces, sizes, errors, text."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from typing import Any

import pytest
from PIL import GifImagePlugin, Image, ImageChops, ImageDraw, ImageFont, features

import makruk
from makruk import BLACK, WHITE, Board, PieceType
from renderers import (
    RenderError,
    fonts,
    layout,
    render_board,
    render_gif,
    render_preview,
    render_puzzle_card,
    square_at,
    square_box,
)
from renderers.__main__ import main
from renderers.pieces import piece_sprite

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
# White's Khun on e2 is in check from the black Ma on g3; every kind of piece is on the board.
MIDGAME = "r1sk1snr/3m4/ppM~p1p1p/4p3/3P4/PPm~1PPnP/4K3/RNS1MS1R w - - 0 1"
THAI_CAPTION = "ขุนถูกรุก ผู้เล่นที่สองเดิน"
# A subscript consonant (្ម) and a vowel written before its consonant (ែ): raqm must shape them.
KHMER_CAPTION = "ខាងសដើរ អុកស្លាប់ក្នុង 2 ជំហាន ខ្មែរ"


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def centre(square: int, size: int, flip: bool = False) -> tuple[int, int]:
    left, top, right, bottom = square_box(square, size, flip)
    return (left + right) // 2, (top + bottom) // 2


def near_corner(square: int, size: int, flip: bool = False) -> tuple[int, int]:
    """A point inside the square that no piece covers (pieces leave the upper corners free)."""
    left, top, right, bottom = square_box(square, size, flip)
    return left + (right - left) // 12, top + (bottom - top) // 12


def sq(name: str) -> int:
    return makruk.parse_square(name)


def pixel(image: Image.Image, point: tuple[int, int]) -> tuple[int, ...]:
    """The colour of an RGB or RGBA image at ``point``."""
    value = image.getpixel(point)
    assert isinstance(value, tuple)
    return value


def differs(a: tuple[int, ...], b: tuple[int, ...], by: int = 24) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) > by


# --- marks ----------------------------------------------------------------------------------


def test_last_move_squares_are_tinted():
    after = "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1"
    plain, marked = rgb(render_board(after)), rgb(render_board(after, last_move="e3e4"))
    assert differs(pixel(plain, centre(sq("e3"), 800)), pixel(marked, centre(sq("e3"), 800)))
    assert differs(pixel(plain, near_corner(sq("e4"), 800)), pixel(marked, near_corner(sq("e4"), 800)))
    assert pixel(plain, centre(sq("a5"), 800)) == pixel(marked, centre(sq("a5"), 800))


def test_selected_square_and_target_dots():
    plain = rgb(render_board(START))
    marked = rgb(render_board(START, selected="b1", targets=["a3", "c3", "d2"]))
    assert differs(pixel(plain, near_corner(sq("b1"), 800)), pixel(marked, near_corner(sq("b1"), 800)))
    assert differs(pixel(plain, centre(sq("d2"), 800)), pixel(marked, centre(sq("d2"), 800)))
    # An occupied target gets marks in its corners, which no piece covers.
    left, top, *_ = square_box(sq("a3"), 800)
    assert differs(pixel(plain, (left + 3, top + 3)), pixel(marked, (left + 3, top + 3)))


def test_khun_in_check_glows_without_being_asked():
    image = rgb(render_board(MIDGAME, theme="green"))
    board = Board(MIDGAME)
    assert board.is_check() and board.king(WHITE) == sq("e2")
    # e2 and c2 are both light squares; only e2 is in check.
    for square in (sq("e2"), sq("c2")):
        left, top, right, bottom = square_box(square, 800)
        point = (left + (right - left) // 5, (top + bottom) // 2)
        if square == sq("e2"):
            glow = pixel(image, point)
        else:
            plain = pixel(image, point)
    assert glow[0] > glow[1] + 40  # red
    assert differs(glow, plain, by=60)


def test_arrows_are_drawn_between_squares():
    plain = rgb(render_board(START))
    hinted = rgb(render_board(START, arrows=["b1c3"]))
    (x0, y0), (x1, y1) = centre(sq("b1"), 800), centre(sq("c3"), 800)
    mid = ((x0 + x1) // 2, (y0 + y1) // 2)
    assert differs(pixel(plain, mid), pixel(hinted, mid))


# --- orientation and tap mapping --------------------------------------------------------------


@pytest.mark.parametrize("size", [240, 480, 800, 1040])
def test_square_box_and_square_at_agree(size):
    lay = layout(size)
    for flip in (False, True):
        for square in range(64):
            left, top, right, bottom = square_box(square, size, flip)
            assert right - left == bottom - top == lay.square
            for x, y in ((left, top), (right - 1, bottom - 1), ((left + right) // 2, (top + bottom) // 2)):
                assert square_at(x, y, size, flip) == square
    assert square_at(0, 0, 800) is None
    assert square_at(799, 799, 800) is None
    assert square_at(-5, 400, 800) is None


def test_a1_is_bottom_left_and_top_right_when_flipped():
    size = 800
    lay = layout(size)
    left, top, right, bottom = square_box(sq("a1"), size)
    assert (left, bottom) == (lay.frame, lay.frame + lay.board)
    left, top, right, bottom = square_box(sq("a1"), size, flip=True)
    assert (right, top) == (lay.frame + lay.board, lay.frame)
    # The pixels agree: a tint on a1 shows where square_box says, for both orientations.
    fen = "4k3/8/8/8/8/8/8/R2K4 b - - 0 1"
    for flip in (False, True):
        plain = rgb(render_board(fen, flip=flip))
        marked = rgb(render_board(fen, flip=flip, last_move="a2a1"))
        a1 = near_corner(sq("a1"), size, flip)
        assert differs(pixel(plain, a1), pixel(marked, a1))
        assert square_at(*a1, size, flip) == sq("a1")
        assert (a1[0] < size / 2) != flip and (a1[1] > size / 2) != flip


# --- pieces -----------------------------------------------------------------------------------

KINDS = list(PieceType)


def test_the_fourteen_pieces_are_pairwise_distinct_at_phone_size():
    px = 60
    sprites = {}
    for kind in KINDS:
        for color in (WHITE, BLACK):
            tile = Image.new("RGB", (px, px), (222, 178, 112))
            sprite = piece_sprite(kind, color, px)
            tile.paste(sprite, (0, 0), sprite)
            sprites[kind, color] = tile.convert("L")
    keys = list(sprites)
    assert len(keys) == 14
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            diff = ImageChops.difference(sprites[a], sprites[b])
            changed = sum(diff.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
            assert changed > 0.03 * px * px, f"{a} and {b} look alike ({changed} pixels differ)"


def test_sprites_are_transparent_around_the_piece():
    sprite = piece_sprite(PieceType.KHUN, WHITE, 80)
    assert sprite.mode == "RGBA"
    assert pixel(sprite, (0, 0))[3] == 0 and pixel(sprite, (40, 50))[3] == 255


# --- output -----------------------------------------------------------------------------------


def test_same_input_gives_same_bytes():
    args: dict[str, Any] = {
        "last_move": "h5g3",
        "coords": "thai",
        "flip": True,
        "arrows": ["e2d3"],
        "selected": "e2",
        "targets": ["d3"],
    }
    assert render_board(MIDGAME, **args) == render_board(MIDGAME, **args)
    assert render_gif(START, ["e3e4", "e6e5"]) == render_gif(START, ["e3e4", "e6e5"])


def test_same_bytes_in_a_fresh_process():
    result = subprocess.run(
        [sys.executable, "-m", "renderers", MIDGAME, "--out", "-", "--last", "h5g3", "--coords", "thai"],
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0
    assert result.stdout == render_board(MIDGAME, last_move="h5g3", coords="thai")


def test_a_board_object_is_accepted_and_left_alone():
    board = Board(START)
    assert render_board(board) == render_board(START)
    render_gif(board, ["e3e4"])
    assert board.fen() == START


@pytest.mark.parametrize("coords", ["latin", "thai", "none"])
def test_800px_png_is_at_most_150_kb(coords):
    for fen in (START, MIDGAME):
        png = render_board(fen, size=800, last_move="e3e4", coords=coords, arrows=["b1c3"])
        assert png.startswith(b"\x89PNG") and len(png) <= 150_000
        assert Image.open(io.BytesIO(png)).size == (800, 800)


def test_preview_is_small():
    png = render_preview(MIDGAME, last_move="h5g3")
    assert Image.open(io.BytesIO(png)).size == (240, 240)
    assert len(png) < 1_000_000


def random_game(plies: int, seed: int = 2026) -> list[str]:
    """UCI moves of a game of random legal moves that lasts ``plies`` without ending."""
    rng = random.Random(seed)
    while True:
        board = Board(START)
        moves: list[str] = []
        while len(moves) < plies and not board.is_game_over():
            move = rng.choice(board.legal_moves())
            board.push(move)
            moves.append(move.uci())
        if len(moves) == plies:
            return moves


def test_gif_of_a_150_ply_game():
    moves = random_game(150)
    gif = render_gif(START, moves)
    assert len(gif) < 8_000_000
    image = Image.open(io.BytesIO(gif))
    assert isinstance(image, GifImagePlugin.GifImageFile) and image.n_frames == 151
    # Frame 1 shows the first move's from-square tinted; frame 0 does not.
    first = makruk.Move.from_uci(moves[0])
    frame0 = pixel(image.convert("RGB"), centre(first.from_square, 480))
    image.seek(1)
    frame1 = pixel(image.convert("RGB"), centre(first.from_square, 480))
    assert differs(frame0, frame1)


def test_caption_band_keeps_the_board_in_place():
    plain = rgb(render_board(START))
    captioned = rgb(render_board(START, caption="White to move\n" + THAI_CAPTION))
    assert captioned.width == 800 and captioned.height > 800
    assert ImageChops.difference(captioned.crop((0, 0, 800, 800)), plain).getbbox() is None


def test_puzzle_card_with_thai_caption_is_seen_from_the_side_to_move():
    card = rgb(render_puzzle_card(MIDGAME, THAI_CAPTION))
    assert card.width == 800 and card.height > 800
    black_to_move = "4k3/8/8/8/8/8/8/R2K4 b - - 0 1"
    flipped = rgb(render_puzzle_card(black_to_move, "Black to move", last_move="a2a1"))
    band = flipped.height - 800
    a1 = near_corner(sq("a1"), 800, flip=True)
    x, y = a1[0], a1[1] + band
    assert differs(pixel(flipped, (x, y)), pixel(flipped, (x - layout(800).square, y)))


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: render_board("not a fen"), makruk.InvalidFenError),
        (lambda: render_board(START, last_move="e3e9"), makruk.InvalidMoveError),
        (lambda: render_board(START, coords="roman"), RenderError),
        (lambda: render_board(START, size=20), RenderError),
        (lambda: render_board(START, theme="pink"), RenderError),
        (lambda: render_board(START, selected="z9"), RenderError),
        (lambda: render_board(START, arrows="e3e4"), RenderError),
        (lambda: render_gif(START, ["e3e4", "e3e4"]), makruk.IllegalMoveError),
        (lambda: render_gif(START, ["hello"]), makruk.InvalidMoveError),
        (lambda: render_puzzle_card("8/8/8/8 w - - 0 1", "x"), makruk.InvalidFenError),
    ],
)
def test_bad_input_raises_a_value_error(call, error):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, ValueError) and str(info.value)


# --- text -------------------------------------------------------------------------------------


def test_raqm_shapes_thai_tone_marks():
    assert features.check("raqm")
    assert fonts.font(40).layout_engine == ImageFont.Layout.RAQM

    def draw(layout_engine):
        font = ImageFont.truetype(str(fonts.thai_font_path()), 40, layout_engine=layout_engine)
        image = Image.new("L", (900, 80), 0)
        ImageDraw.Draw(image).text((10, 10), THAI_CAPTION, font=font, fill=255)
        return image

    basic, raqm = draw(ImageFont.Layout.BASIC), draw(ImageFont.Layout.RAQM)
    assert ImageChops.difference(basic, raqm).getbbox() is not None


def glyph(text: str, font: ImageFont.FreeTypeFont) -> bytes:
    image = Image.new("L", (60, 60), 0)
    ImageDraw.Draw(image).text((5, 5), text, font=font, fill=255)
    return image.tobytes()


def test_fonts_cover_thai_latin_digits_and_japanese():
    if fonts.cjk_font_path() is None:
        pytest.skip("no Japanese font package installed (noto-cjk-sans-jp-bold)")
    main_font, cjk_font = fonts.font(40), fonts.font(40, fonts.CJK)
    missing = "\U0010fffd"  # a private-use code point: drawn as the font's "missing" box
    for ch in "aZ07ก๑ขุ":
        assert glyph(ch, main_font) != glyph(missing, main_font), ch
    for ch in "白の手番詰":
        assert glyph(ch, cjk_font) != glyph(missing, cjk_font), ch
    assert [s for s, _ in fonts.script_runs("白の手番 Mate in 2")] == [fonts.CJK, fonts.MAIN]


def test_khmer_text_is_drawn_with_the_khmer_font_and_shaped_by_raqm():
    line = fonts.measure(KHMER_CAPTION, 40)
    assert [f.getname()[0] for f, _ in line.runs] == ["Noto Sans Khmer"]
    khmer, thai = fonts.font(40, fonts.KHMER), fonts.font(40)
    assert khmer.layout_engine == ImageFont.Layout.RAQM
    missing = "\U0010fffd"
    for ch in "ខសដមរ០៩2":
        assert glyph(ch, khmer) != glyph(missing, khmer), ch
    assert glyph("ខ", thai) == glyph(missing, thai)  # what the Thai font alone would draw: a box

    def draw(layout_engine):
        font = ImageFont.truetype(str(fonts.khmer_font_path()), 40, layout_engine=layout_engine)
        image = Image.new("L", (200, 80), 0)
        ImageDraw.Draw(image).text((10, 10), "ខ្មែរ", font=font, fill=255)
        return image

    assert ImageChops.difference(draw(ImageFont.Layout.BASIC), draw(ImageFont.Layout.RAQM)).getbbox() is not None


def test_a_khmer_caption_is_drawn_in_khmer_letters_not_boxes():
    def drawn(line: fonts.TextLine) -> Image.Image:
        image = Image.new("RGB", (900, 80))
        fonts.draw_line(ImageDraw.Draw(image), 10, 60, line, (255, 255, 255))
        return image

    boxes = drawn(fonts.TextLine(((fonts.font(40), KHMER_CAPTION),), 0, 40, 10))  # the Thai font alone
    assert ImageChops.difference(drawn(fonts.measure(KHMER_CAPTION, 40)), boxes).getbbox() is not None
    card = rgb(render_puzzle_card(START, KHMER_CAPTION, size=400))  # the caption band above the board
    assert card.width == 400 and card.height > 400


def test_fonts_come_from_packages_not_the_system():
    for path in (fonts.thai_font_path(), fonts.khmer_font_path()):
        assert "site-packages" in str(path) or "fontpkg" in str(path)
        assert not str(path).startswith("/usr/share/fonts")


# --- command line -----------------------------------------------------------------------------


def test_cli_writes_a_png(tmp_path):
    out = tmp_path / "board.png"
    assert main(["startpos", "--out", str(out), "--flip", "--last", "e3e4", "--coords", "thai", "--size", "400"]) == 0
    assert Image.open(out).size == (400, 400)


def test_cli_writes_a_gif(tmp_path):
    out = tmp_path / "game.gif"
    assert main([START, "--out", str(out), "--gif", "e3e4", "e6e5"]) == 0
    image = Image.open(out)
    assert isinstance(image, GifImagePlugin.GifImageFile) and image.n_frames == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["bad fen", "--out", "x.png"],
        ["startpos", "--out", "x.png", "--last", "e3e9"],
        ["startpos", "--out", "x.png", "--coords", "roman"],
        ["startpos", "--out", "x.png", "--size", "5"],
        ["startpos", "--out", "x.gif", "--gif", "e3e4", "e3e4"],
        ["startpos"],
    ],
)
def test_cli_bad_input_exits_2_with_one_line(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code: int | str | None
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own errors leave through SystemExit
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert not list(tmp_path.iterdir())


def test_cli_never_shows_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "renderers", "rnsmksnr/8/pppppppp/8 w", "--out", "-"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
