"""The palette-tile path (and its banded PNG) draws exactly what the whole-board path draws."""

from __future__ import annotations

import io
import random
import struct
import zlib
from typing import Any

import pytest
from PIL import Image

from makruk import SQUARE_NAMES, Board
from renderers import render_board
from renderers.bands import _band, adler32_combine
from renderers.compose import Style, compose
from renderers.palette import png_bytes, to_palette
from renderers.scene import scene_of
from renderers.theme import THEMES
from tests.renderers.support import same_pixels

MIDGAME_AFTER_MOVE = "r1sk1snr/3m4/pp2p1p1/4p3/4P3/PP3PPP/4K3/RNS1MS1R b - - 0 1"


def whole_board_png(fen, *, size, flip, coords, theme, **marks) -> bytes:
    style = Style(size, THEMES[theme], coords, flip)
    scene, _ = scene_of(fen, **marks)
    return png_bytes(to_palette(compose(scene, style), style.theme))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_tiles_give_the_same_bytes_as_the_whole_board(theme):
    rng = random.Random(theme)
    board = Board()
    checked = 0
    while checked < 25:
        moves = board.legal_moves()
        if not moves or board.is_game_over():
            board = Board()
            continue
        move = rng.choice(moves)
        board.push(move)
        fen = board.fen()
        options: dict[str, Any] = {
            "size": rng.choice([240, 480, 800]),
            "flip": rng.random() < 0.5,
            "coords": rng.choice(["latin", "thai", "none"]),
            "theme": theme,
        }
        after = Board(fen)
        some = rng.choice(after.legal_moves()) if after.legal_moves() else None
        marks: dict[str, Any] = {"last_move": move.uci()}
        if some is not None and rng.random() < 0.5:  # tap-to-move marks too
            marks["selected"] = SQUARE_NAMES[some.from_square]
            marks["targets"] = [SQUARE_NAMES[m.to_square] for m in after.legal_moves()
                                if m.from_square == some.from_square]
        assert same_pixels(render_board(fen, **options, **marks), whole_board_png(fen, **options, **marks)), \
            (fen, options, marks)
        checked += 1


def test_the_banded_png_is_a_valid_png_whose_checksums_hold():
    png = render_board(MIDGAME_AFTER_MOVE, last_move="e3e4", size=800)
    Image.open(io.BytesIO(png)).verify()  # chunk order and CRCs
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    chunks, offset = [], 8
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset:offset + 4])
        kind, data = png[offset + 4:offset + 8], png[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", png[offset + 8 + length:offset + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        chunks.append((kind, data))
        offset += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    scanlines = zlib.decompress(chunks[2][1])  # checks the combined Adler-32 at the end
    assert len(scanlines) == 800 * (800 + 1)
    assert all(scanlines[row * 801] == 0 for row in range(800))  # no filter on any scanline


def test_adler32_of_joined_strings_is_combined_from_their_own():
    rng = random.Random(7)
    for _ in range(200):
        first = rng.randbytes(rng.choice([0, 1, 5, 5552, rng.randrange(100_000)]))
        second = rng.randbytes(rng.choice([0, 1, 5, 5553, rng.randrange(100_000)]))
        combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)


def test_a_move_compresses_only_the_rows_it_changed():
    board = Board(MIDGAME_AFTER_MOVE)
    render_board(board, last_move="e3e4")
    before = _band.cache_info()
    render_board(board, last_move="e3e4")  # the same picture again: every row from the cache
    assert _band.cache_info().misses == before.misses
    board.push(board.parse_move("b6b5"))
    render_board(board, last_move="b6b5")  # rank 3 and 4 lose the tint, ranks 5 and 6 change
    assert 1 <= _band.cache_info().misses - before.misses <= 4
