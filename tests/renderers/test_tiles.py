"""The palette-tile path draws exactly what the whole-board path draws."""

from __future__ import annotations

import random
from typing import Any

import pytest

from makruk import SQUARE_NAMES, Board
from renderers import render_board
from renderers.compose import Style, compose
from renderers.palette import png_bytes, to_palette
from renderers.scene import scene_of
from renderers.theme import THEMES


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
        assert render_board(fen, **options, **marks) == whole_board_png(fen, **options, **marks), (fen, options, marks)
        checked += 1
