"""FEN as Fairy-Stockfish writes it is read in every variant (issue 23).

Asked to, pyffish marks a piece that was a Bia with ``~``: Makruk's ``M~``, ASEAN's ``Q~``
``R~`` ``N~`` ``B~``, Sittuyin's ``F~``. Seeded random games of each variant, pushed towards
promotions, ask pyffish for its FEN with and without the marks after a promotion and now and
then after one; our board must read each, agree with pyffish on the legal moves from it,
and (read from the marked FEN) write the FEN our dialect writes, which is pyffish's with the
marks in the Makruk family and without them in ASEAN and Sittuyin (``SHOW_PROMOTED``).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pyffish
import pytest

from makruk import WHITE, Board, Move, Piece, PieceType, parse_square

from .support import FAMILY, SHOW_PROMOTED, assert_same_fen, fsf_legal, fsf_san

ISSUE_FEN = "r2Q~k1n1/4r3/4pb2/1p1n3p/p2P4/PPP2Bp1/RKBR4/1N1Q4 w - - 3 28"
GAMES = 30
MAX_PLIES = 160
CHECK_EVERY = 8  # plies, once a game has promoted
CHECKS_PER_GAME = 8  # each costs pyffish four calls of 2-3 ms
# The marked pieces each variant's games must meet, or the test proves little.
MARKS = {
    "makruk": {"M~", "m~"},
    "makpong": {"M~", "m~"},
    "cambodian": {"M~", "m~"},
    "karouk": {"M~", "m~"},
    "asean": {"Q~", "R~", "N~", "B~", "q~", "r~", "n~", "b~"},
    "sittuyin": {"F~", "f~"},
}


def test_an_asean_fen_with_a_promoted_met_is_read():
    board = Board(ISSUE_FEN, variant="asean")
    d8 = parse_square("d8")
    assert board.piece_at(d8) == Piece(PieceType.BIA_NGAI, WHITE)
    assert board.piece_at(parse_square("d1")) == Piece(PieceType.MET, WHITE)
    assert {m.uci() for m in board.legal_moves()} == fsf_legal("asean", ISSUE_FEN)
    by_it = [m for m in board.legal_moves() if m.from_square == d8]
    assert by_it and all(board.thai_san(m) == fsf_san("asean", ISSUE_FEN, m.uci(), thai=True) for m in by_it)
    assert board.fen() == "r2Qk1n1/4r3/4pb2/1p1n3p/p2P4/PPP2Bp1/RKBR4/1N1Q4 w - - 3 28"  # our dialect: no mark


@pytest.mark.parametrize("variant", FAMILY)
def test_every_fen_pyffish_writes_is_read(variant):
    rng = random.Random(f"fen-{variant}")
    marks: Counter[str] = Counter()
    checked = 0
    for _ in range(GAMES):
        board = Board(variant=variant, perpetual="draw")
        start, moves, promoted, checks = board.fen(), [], False, 0
        for ply in range(MAX_PLIES):
            legal = board.legal_moves()
            if not legal or board.outcome() is not None or checks == CHECKS_PER_GAME:
                break
            move = _towards_promotion(rng, board, legal)
            board.push(move)
            moves.append(move.uci())
            promoted = promoted or bool(move.promotion)
            if move.promotion or (promoted and ply % CHECK_EVERY == 0):
                marks.update(set(_read_both(variant, start, moves)))
                checks += 1
        checked += checks
    assert checked >= 100, f"{variant}: only {checked} positions after a promotion"
    print(f"\n{variant}: {checked} positions, marks met in {dict(marks)} of them")
    assert MARKS[variant] <= set(marks), f"{variant}: the games met only {dict(marks)}"


def _read_both(variant: str, start: str, moves: list[str]) -> list[str]:
    """Reads pyffish's FEN after ``moves`` with and without the marks; the marks it held."""
    where = f"{variant}: after {start!r} moves {' '.join(moves)}"
    marked, plain = (str(pyffish.get_fen(variant, start, moves, False, False, show)) for show in (True, False))
    for fen in (marked, plain):
        board = Board(fen, variant=variant, perpetual="draw")
        ours, theirs = {m.uci() for m in board.legal_moves()}, fsf_legal(variant, fen)
        assert ours == theirs, (
            f"{where}: from {fen!r} only ours {sorted(ours - theirs)}, only pyffish {sorted(theirs - ours)}"
        )
    # Our writer's dialect: pyffish's FEN with the marks or without them, as SHOW_PROMOTED says.
    assert_same_fen(Board(marked, variant=variant).fen(), marked if SHOW_PROMOTED[variant] else plain, where)
    return re.findall(r"[A-Za-z]~", marked.split()[0])


def _towards_promotion(rng: random.Random, board: Board, legal: list[Move]) -> Move:
    """A promotion when there is one; else mostly a Bia's move or a capture."""
    promotions = [m for m in legal if m.promotion]
    if promotions:  # each kind as likely as the others
        kind = rng.choice(sorted({m.promotion for m in promotions}))
        return rng.choice([m for m in promotions if m.promotion == kind])
    bia = [m for m in legal if not m.drop and _kind(board, m.from_square) == PieceType.BIA]
    captures = [m for m in legal if not m.drop and board.piece_at(m.to_square) is not None]
    pool = rng.choices([bia, captures, legal], [5, 3, 2])[0] or legal
    return rng.choice(pool)


def _kind(board: Board, square: int) -> PieceType | None:
    piece = board.piece_at(square)
    return None if piece is None else piece.kind
