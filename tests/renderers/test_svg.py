"""The pieces as SVG: one valid document per FEN letter of every variant, the same art and
colours as the Pillow sprites (proved in a real browser in tests/browser/test_pieces_svg.py),
small enough to ship with the web board."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from makruk import BLACK, WHITE, PieceType
from makruk.types import Piece
from makruk.variants import BOARDS
from renderers.pieces import PIECE_COLORS, piece_parts
from renderers.svg import PIECE_LETTERS, piece_svg

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
MAKRUK_LETTERS = ("K", "k", "M", "m", "S", "s", "N", "n", "R", "r", "P", "p", "M~", "m~")


def test_every_letter_of_every_variants_fen_has_a_piece() -> None:
    for name, board in BOARDS.items():
        missing = set(board.dialect.code_of) - set(PIECE_LETTERS)
        assert not missing, f"{name} writes {missing}"
    assert set(MAKRUK_LETTERS) <= set(PIECE_LETTERS)


def test_the_variants_letters_are_the_kinds_the_pictures_draw() -> None:
    assert PIECE_LETTERS["Q"] == PIECE_LETTERS["F"] == Piece(PieceType.MET, WHITE)  # ASEAN's and Sittuyin's Met
    assert PIECE_LETTERS["q~"] == PIECE_LETTERS["f~"] == Piece(PieceType.BIA_NGAI, BLACK)  # their promoted Bia
    assert PIECE_LETTERS["B"] == Piece(PieceType.KHON, WHITE)
    assert PIECE_LETTERS["R~"] == Piece(PieceType.RUA, WHITE)  # ASEAN's Rua that was a Bia
    assert PIECE_LETTERS["M~"] == Piece(PieceType.BIA_NGAI, WHITE)


@pytest.mark.parametrize("letter", sorted(PIECE_LETTERS))
def test_each_letter_is_a_valid_svg_document_of_its_pieces_parts(letter: str) -> None:
    root = ET.fromstring(piece_svg(letter))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 1000 1000"
    assert int(root.get("width", "0")) > 0 and int(root.get("height", "0")) > 0
    piece = PIECE_LETTERS[letter]
    parts = piece_parts(piece.kind, piece.color)
    paths = list(root.iter(f"{SVG}path"))
    halos = [part for part in parts if getattr(part, "outline", False)]
    assert len(paths) == len(parts) + len(halos)
    for path in paths:
        numbers = path.get("d", "").strip("MZ").split()
        assert numbers and len(numbers) % 2 == 0
        assert all(-100 <= int(n) <= 1100 for n in numbers)


def test_the_colours_are_the_sprites() -> None:
    for color in (WHITE, BLACK):
        svg = piece_svg("K" if color == WHITE else "k")
        for rgb in (PIECE_COLORS[color].body, PIECE_COLORS[color].accent, PIECE_COLORS[color].line):
            assert "#{:02x}{:02x}{:02x}".format(*rgb) in svg


def test_white_and_black_differ_and_every_kind_has_its_own_art() -> None:
    kinds = {PIECE_LETTERS[letter] for letter in PIECE_LETTERS}
    assert len({piece_svg(piece.symbol()) for piece in kinds}) == len(PieceType) * 2
    for letter in ("K", "M", "S", "N", "R", "P", "M~"):
        assert piece_svg(letter) != piece_svg(letter.lower())


def test_another_process_draws_the_same_bytes() -> None:
    """Deterministic across interpreters and hash seeds, so a cached or shipped copy stays right."""
    code = "from renderers.svg import PIECE_LETTERS, piece_svg; print(repr([piece_svg(x) for x in PIECE_LETTERS]))"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == repr([piece_svg(letter) for letter in PIECE_LETTERS])


def test_the_whole_set_is_small() -> None:
    distinct = sorted({piece_svg(letter) for letter in PIECE_LETTERS})
    assert len(gzip.compress("".join(distinct).encode())) < 8_000
    assert max(len(svg) for svg in distinct) < 6_000
