"""Pictures of the whole family: Makpong, Ouk Chatrang, ASEAN and Sittuyin beside Makruk.

Sittuyin's pieces in hand stand right of the board during the deployment; Ouk's Khun and Neang
that may still leap, and Sittuyin's Bia that may promote now, carry a mark in their square's
upper right corner. Every check is on real renders, by pixel statistics or exact bytes.
"""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import GifImagePlugin, Image, ImageChops, ImageStat

import makruk
from makruk import BLACK, VARIANTS, WHITE, Board, PieceType, starting_fen
from renderers import (
    RenderError,
    hand_at,
    hand_box,
    hand_width,
    layout,
    render_board,
    render_gif,
    render_preview,
    render_puzzle_card,
    size_for_width,
    square_box,
)
from renderers.__main__ import main
from renderers.compose import Style, compose
from renderers.geometry import HAND_KINDS, hand_tray
from renderers.palette import png_bytes, to_palette
from renderers.scene import scene_of
from renderers.theme import THEMES
from tests.renderers.support import same_pixels

MAKRUK_START = makruk.STARTING_FEN
# A White Bia on d5, on White's promotion diagonal, with no White Sit-ke: it may promote now.
PROMOTING = "7k/8/8/3P4/8/1P6/4K3/8 w - - 0 1"


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def sq(name: str) -> int:
    return makruk.parse_square(name)


def deployed(white_drops: int, black_drops: int) -> Board:
    """A Sittuyin deployment after that many standard drops of each side (White drops first)."""
    board = Board(variant="sittuyin")
    while True:
        done = {WHITE: 8 - sum(board.pocket(WHITE).values()), BLACK: 8 - sum(board.pocket(BLACK).values())}
        wanted = {WHITE: white_drops, BLACK: black_drops}
        if done[board.turn] >= wanted[board.turn]:
            if done[not board.turn] >= wanted[not board.turn]:
                return board
            raise AssertionError("the side to move would have to drop first")
        drop = board.standard_drop()
        assert drop is not None
        board.push(drop)


def crop(image: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    return image.crop(box)


def colour_at(image: Image.Image, point: tuple[int, int]) -> tuple[int, ...]:
    value = image.getpixel(point)
    assert isinstance(value, tuple)
    return value


def spread(image: Image.Image) -> float:
    """How much the pixels of an area vary: 0 for one flat colour."""
    return sum(ImageStat.Stat(image.convert("L")).stddev)


def inner(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return left + by, top + by, right - by, bottom - by


def body(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    """The mean luminance of the middle of a box: the body of the piece standing there."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    return float(ImageStat.Stat(image.crop((left + w * 2 // 5, top + h // 2, right - w * 2 // 5, bottom - h // 4))
                                .convert("L")).mean[0])


def corner(square: int, size: int, flip: bool = False) -> tuple[int, int, int, int]:
    """The upper right corner of a square, where the variants' marks stand."""
    left, top, right, _ = square_box(square, size, flip)
    side = right - left
    return left + round(side * 0.55), top, right, top + round(side * 0.45)


def changed_pixels(a: Image.Image, b: Image.Image) -> int:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255]


# --- every variant ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_start_position_renders(variant):
    png = render_board(starting_fen(variant), variant=variant)
    image = Image.open(io.BytesIO(png))
    wide = 800 + hand_width(800) if variant == "sittuyin" else 800  # only Sittuyin starts with pieces in hand
    assert png.startswith(b"\x89PNG") and image.size == (wide, 800) and len(png) <= 150_000
    assert render_board(Board(variant=variant)) == png  # a Board carries its own variant
    assert Image.open(io.BytesIO(render_preview(Board(variant=variant)))).height == 240
    card = rgb(render_puzzle_card(Board(variant=variant), "White to move"))
    assert card.width == wide and card.height > 800


def test_makpong_and_asean_are_drawn_with_the_makruk_pieces():
    assert render_board(Board(variant="makpong")) == render_board(MAKRUK_START)
    # ASEAN writes the Khon b and the Met q; the same placement in Makruk's letters draws the same.
    asean = render_board(Board(variant="asean"), coords="thai")
    assert asean == render_board("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSMKSNR w - - 0 1", coords="thai")


def test_sittuyin_after_the_deployment_draws_sit_ke_and_elephant_as_met_and_khon():
    fen = "r6r/1ks2sn1/3fpppp/pppp4/4PPPP/PPPPF3/1NSN1SK1/R6R w - - 0 8"  # nothing in hand, nothing to promote
    board = Board(fen, variant="sittuyin")
    assert not board.in_deployment()
    as_makruk = fen.replace("f", "m").replace("F", "M")
    assert render_board(board) == render_board(as_makruk)


def test_a_bad_variant_name_is_a_clear_error():
    with pytest.raises(makruk.UnknownVariantError, match="unknown variant 'chess'") as info:
        render_board(MAKRUK_START, variant="chess")
    assert isinstance(info.value, ValueError)
    with pytest.raises(makruk.UnknownVariantError):
        render_gif(MAKRUK_START, ["e3e4"], variant="ouk")
    with pytest.raises(RenderError, match="plays 'cambodian', not 'makruk'"):
        render_board(Board(variant="cambodian"), variant="makruk")


def test_cli_draws_a_variant_and_refuses_an_unknown_one(tmp_path, capsys):
    out = tmp_path / "sittuyin.png"
    assert main(["startpos", "--variant", "sittuyin", "--out", str(out), "--size", "400"]) == 0
    assert Image.open(out).size == (400 + hand_width(400), 400)
    fen = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"
    assert main([fen, "--variant", "cambodian", "--out", str(tmp_path / "ouk.png")]) == 0
    assert (tmp_path / "ouk.png").read_bytes() == render_board(fen, variant="cambodian")
    code: int | str | None
    try:
        code = main(["startpos", "--variant", "chess", "--out", str(tmp_path / "x.png")])
    except SystemExit as exit_:
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "chess" in err
    assert not (tmp_path / "x.png").exists()


# --- Sittuyin's pieces in hand -----------------------------------------------------------------


def test_sittuyin_deployment_shows_the_pieces_in_hand_beside_the_board():
    size = 800
    image = rgb(render_board(Board(variant="sittuyin"), size=size))
    trays = {color: hand_tray(color, size) for color in (WHITE, BLACK)}
    left, top, right, bottom = square_box(sq("e5"), size)
    background = colour_at(image, ((left + right) // 2, (top + bottom) // 2))  # an empty square's colour
    for color, tray in trays.items():
        box = inner(tray, 8)
        assert tray[0] >= size  # beside the board, not on it
        assert spread(crop(image, box)) > 20, "a full hand is drawn"
        # Every kind in hand stands in its slot: none of them is bare tray.
        for kind in HAND_KINDS:
            slot = crop(image, hand_box(color, kind, size))
            assert spread(slot) > 20, (color, kind)
        # Beside the pieces the tray is bare, in the colour of an empty square.
        strip = crop(image, (box[0], box[1], box[0] + 4, box[3]))
        assert spread(strip) < 1 and colour_at(strip, (0, 0)) == background
    # Not flipped, Black's tray is the upper one and holds dark pieces; White's the lower one, light.
    assert trays[BLACK][1] < trays[WHITE][1]
    assert body(image, hand_box(WHITE, PieceType.KHUN, size)) > body(image, hand_box(BLACK, PieceType.KHUN, size)) + 60


def test_a_full_hand_and_an_empty_hand_differ_and_an_empty_tray_is_bare():
    size = 480
    full = rgb(render_board(deployed(0, 0), size=size))
    board = deployed(8, 7)  # White has placed everything; Black holds its last piece
    assert board.pocket(WHITE) == {} and sum(board.pocket(BLACK).values()) == 1
    empty = rgb(render_board(board, size=size))
    assert empty.size == full.size  # the picture keeps its width while a piece is left to place
    white_tray = inner(hand_tray(WHITE, size), 4)
    assert spread(crop(full, white_tray)) > 20
    assert spread(crop(empty, white_tray)) < 1  # nothing left: the bare tray
    assert changed_pixels(crop(full, white_tray), crop(empty, white_tray)) > 0.2 * (
        (white_tray[2] - white_tray[0]) * (white_tray[3] - white_tray[1]))
    # Black's one piece left is still drawn in its slot; the others are bare.
    (kind, _), = board.pocket(BLACK).items()
    assert spread(crop(empty, hand_box(BLACK, kind, size))) > 20
    for other in HAND_KINDS:
        if other != kind:
            assert spread(crop(empty, inner(hand_box(BLACK, other, size), 2))) < 1, other


def test_a_count_stands_on_a_kind_held_twice():
    size = 800
    start = rgb(render_board(Board(variant="sittuyin"), size=size))
    board = Board(variant="sittuyin")
    board.push(board.parse_move("R@a1"))  # one White Rua left in hand
    one = rgb(render_board(board, size=size))
    left, _, right, bottom = hand_box(WHITE, PieceType.RUA, size)
    side = right - left
    badge = (right - side // 2, bottom - side // 2, right, bottom)  # the slot's lower right quarter
    assert changed_pixels(crop(start, badge), crop(one, badge)) > 40
    # The Ma's count (two in hand in both pictures) is unchanged.
    assert crop(start, hand_box(WHITE, PieceType.MA, size)).tobytes() == crop(
        one, hand_box(WHITE, PieceType.MA, size)).tobytes()


def test_the_board_keeps_its_place_beside_the_hands():
    for flip in (False, True):
        board = deployed(3, 2)
        style = Style(800, THEMES["green"], "thai", flip)
        scene, _ = scene_of(board, last_move="N@b2")
        whole = compose(scene, style)
        alone = compose(replace(scene, hands=None), style)
        assert whole.size == (800 + hand_width(800), 800) and alone.size == (800, 800)
        assert ImageChops.difference(whole.crop((0, 0, 800, 800)), alone).getbbox() is None


def test_flipped_the_hands_change_sides():
    size = 480
    image = rgb(render_board(Board(variant="sittuyin"), size=size, flip=True))
    assert hand_tray(WHITE, size, flip=True)[1] < hand_tray(BLACK, size, flip=True)[1]
    white, black = (body(image, hand_box(color, PieceType.KHUN, size, flip=True)) for color in (WHITE, BLACK))
    assert white > black + 60


@pytest.mark.parametrize("size", [240, 800, 1040])
def test_hand_at_and_hand_box_agree(size):
    for flip in (False, True):
        boxes = []
        for color in (WHITE, BLACK):
            for kind in HAND_KINDS:
                box = left, top, right, bottom = hand_box(color, kind, size, flip)
                boxes.append(box)
                assert right - left == bottom - top > 0.7 * layout(size).square
                assert right <= size + hand_width(size) and top >= 0 and bottom <= size
                for x, y in ((left, top), (right - 1, bottom - 1), ((left + right) // 2, (top + bottom) // 2)):
                    assert hand_at(x, y, size, flip) == (color, kind)
        assert len(set(boxes)) == 10
    assert hand_at(10, 10, size) is None
    with pytest.raises(RenderError):
        hand_box(WHITE, PieceType.BIA, size)


@pytest.mark.parametrize("width", [1040, 700, 460, 300, 240])
def test_size_for_width_fits_a_picture_with_hands_into_a_width(width):
    size = size_for_width(width)
    assert width - 2 <= size + hand_width(size) <= width
    board = Board(variant="sittuyin")
    assert Image.open(io.BytesIO(render_board(board, size=size))).width == size + hand_width(size)


def test_sittuyin_deployment_in_a_gif_keeps_one_frame_size():
    board = deployed(7, 7)
    after = board.copy()
    moves = []
    while after.in_deployment():  # the last two drops, then a move on the full board
        drop = after.standard_drop()
        assert drop is not None
        after.push(drop)
        moves.append(drop.uci())
    moves.append(after.legal_moves()[0].uci())
    gif = Image.open(io.BytesIO(render_gif(board, moves, size=240)))
    assert isinstance(gif, GifImagePlugin.GifImageFile) and gif.n_frames == 4
    assert gif.size == (240 + hand_width(240), 240)


# --- Ouk Chatrang's leaps ------------------------------------------------------------------------


def test_ouk_leap_marks_stand_while_the_flag_stands():
    size = 800
    makruk_start = rgb(render_board(MAKRUK_START, size=size))
    board = Board(variant="cambodian")
    ouk = rgb(render_board(board, size=size))
    flagged = {sq(name) for name in ("d1", "e1", "d8", "e8")}
    for square in range(64):
        plain, marked = crop(makruk_start, square_box(square, size)), crop(ouk, square_box(square, size))
        if square in flagged:
            diff = ImageChops.difference(plain, marked).getbbox()
            assert diff is not None, makruk.square_name(square)
            # Discreet: only in the upper right corner, which the piece leaves free.
            left, top, *_ = square_box(square, size)
            c_left, _, _, c_bottom = corner(square, size)
            assert diff[0] >= c_left - left and diff[3] <= c_bottom - top, diff
        else:
            assert plain.tobytes() == marked.tobytes(), makruk.square_name(square)
    board.push(board.parse_move("d1b2"))  # the Khun leaps: its flag is gone
    after = rgb(render_board(board, size=size))
    as_makruk = rgb(render_board("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b - - 0 1", size=size))
    for name in ("d1", "b2"):
        box = square_box(sq(name), size)
        assert crop(after, box).tobytes() == crop(as_makruk, box).tobytes(), name
    for name in ("e1", "d8", "e8"):
        box = square_box(sq(name), size)
        assert crop(after, box).tobytes() != crop(as_makruk, box).tobytes(), name


def test_the_khun_loses_its_mark_when_a_rua_comes_onto_its_rank():
    board = Board("4k3/8/8/8/8/8/r7/3KM3 b DE - 0 1", variant="cambodian")
    before = rgb(render_board(board, size=480))
    board.push(board.parse_move("a2a1"))  # check along the first rank: the Khun's leap is gone for good
    after = rgb(render_board(board, size=480))
    as_makruk = rgb(render_board("4k3/8/8/8/8/8/8/r2KM3 w - - 1 2", size=480))
    d1, e1 = square_box(sq("d1"), 480), square_box(sq("e1"), 480)
    assert crop(before, corner(sq("d1"), 480)).tobytes() != crop(as_makruk, corner(sq("d1"), 480)).tobytes()
    assert crop(after, d1).tobytes() == crop(as_makruk, d1).tobytes()  # the Khun, its check glow, no mark
    assert crop(after, e1).tobytes() != crop(as_makruk, e1).tobytes()  # the Neang keeps its leap


def test_a_flag_without_its_own_leaper_is_not_marked():
    # The D flag stands over a Rua: no Khun or Neang may leap from there.
    fen = "4k3/8/8/8/8/8/8/3RK3 w DE - 0 1"
    ouk = rgb(render_board(fen, variant="cambodian", size=480))
    plain = rgb(render_board("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", size=480))
    assert crop(ouk, square_box(sq("d1"), 480)).tobytes() == crop(plain, square_box(sq("d1"), 480)).tobytes()
    assert crop(ouk, square_box(sq("e1"), 480)).tobytes() != crop(plain, square_box(sq("e1"), 480)).tobytes()


def test_the_leap_mark_is_legible_at_240_px_and_unlike_the_other_marks():
    size = 240
    ouk = rgb(render_board(Board(variant="cambodian"), size=size))
    plain = rgb(render_board(MAKRUK_START, size=size))
    d1 = corner(sq("d1"), size)
    assert changed_pixels(crop(ouk, d1), crop(plain, d1)) >= 12
    # Neither the last move's tint nor the check's red: the mark is dark ink on a light halo.
    mark = crop(ouk, d1)
    colours = {colour_at(mark, (x, y)) for x in range(mark.width) for y in range(mark.height)}
    ink = THEMES["wood"].frame
    assert any(sum(abs(a - b) for a, b in zip(c, ink, strict=True)) < 30 for c in colours)
    assert not any(c[0] > 180 and c[1] < 90 for c in colours)  # nothing check-red


# --- Sittuyin's promotion ------------------------------------------------------------------------


def test_a_sittuyin_bia_that_may_promote_is_marked():
    size = 480
    board = Board(PROMOTING, variant="sittuyin")
    assert {m.from_square for m in board.legal_moves() if m.promotion == "f"} == {sq("d5")}
    sittuyin = rgb(render_board(board, size=size))
    plain = rgb(render_board(PROMOTING, size=size))  # the same placement in Makruk: no such promotion
    d5, b3 = square_box(sq("d5"), size), square_box(sq("b3"), size)
    diff = ImageChops.difference(crop(sittuyin, d5), crop(plain, d5)).getbbox()
    assert diff is not None
    side = d5[2] - d5[0]
    assert diff[0] >= side * 0.5 and diff[3] <= side * 0.5  # in the upper right corner
    assert crop(sittuyin, b3).tobytes() == crop(plain, b3).tobytes()  # off the promotion squares


def test_no_promotion_mark_when_it_is_not_allowed():
    # Black to move: White's Bia may not promote on this move. White holding a Sit-ke: never.
    for fen in ("7k/8/8/3P4/8/1P6/4K3/8 b - - 0 1", "7k/8/8/3P4/8/1P6/4KF2/8 w - - 0 1"):
        board = Board(fen, variant="sittuyin")
        assert not any(m.promotion for m in board.legal_moves())
        as_makruk = fen.replace("F", "M")
        assert render_board(board, size=480) == render_board(as_makruk, size=480), fen


# --- one path, one picture -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen, variant, marks",
    [
        (starting_fen("sittuyin"), "sittuyin", {}),
        (deployed(5, 4).fen(), "sittuyin", {"last_move": "S@c7", "selected": "b3", "targets": ["b4"]}),
        (starting_fen("cambodian"), "cambodian", {"selected": "d1", "targets": ["b2", "c2", "d2", "e2", "f2"]}),
        (PROMOTING, "sittuyin", {"last_move": "b2b3"}),
    ],
)
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_tiles_give_the_same_bytes_as_the_whole_board_in_the_variants(fen, variant, marks, theme):
    for size, flip, coords in ((240, False, "none"), (800, True, "thai")):
        style = Style(size, THEMES[theme], coords, flip)
        scene, _ = scene_of(fen, variant=variant, **marks)
        whole = png_bytes(to_palette(compose(scene, style), style.theme))
        drawn = render_board(fen, variant=variant, size=size, flip=flip, coords=coords, theme=theme, **marks)
        assert same_pixels(drawn, whole)


def test_variant_pictures_are_the_same_bytes_every_time():
    board = deployed(4, 3)
    assert render_board(board, caption="Sittuyin") == render_board(board.fen(), variant="sittuyin", caption="Sittuyin")
    assert render_gif(Board(variant="cambodian"), ["d1b2", "e8g7"]) == render_gif(
        starting_fen("cambodian"), ["d1b2", "e8g7"], variant="cambodian")
