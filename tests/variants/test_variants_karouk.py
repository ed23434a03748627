"""Kar Ouk (``karouk``): Ouk Chatrang where the first check wins, against pyffish.

Seeded random games from the start and from random middlegames: at every ply the legal moves
agree, and the game ends exactly when pyffish's does (the first check: the checked side has no
move and has lost); the FEN agrees, its checks-left field (``1+1``, ``0+1``) included.
"""

from __future__ import annotations

import random

from makruk import Board, Move

from .support import fsf_ends_now, fsf_fen, fsf_legal

GAMES = 60
MAX_PLIES = 120


def _fields(fen: str) -> list[str]:
    """Placement, side, flags and the checks left: what a FEN says besides the counting."""
    parts = fen.split()
    return [*parts[:3], parts[4]]


def test_karouk_agrees_with_pyffish_over_seeded_random_games():
    rng = random.Random(20261201)
    ended_by_check = 0
    for _ in range(GAMES):
        board = Board(variant="karouk")
        start, moves = board.fen(), list[str]()
        while True:
            legal = {m.uci() for m in board.legal_moves()}
            assert legal == fsf_legal("karouk", start, moves), moves
            assert _fields(board.fen()) == _fields(fsf_fen("karouk", start, moves)), moves
            if board.is_check():
                outcome = board.outcome()
                assert outcome is not None and outcome.reason == "check" and fsf_ends_now("karouk", start, moves)
                assert outcome.winner == (not board.turn)
                ended_by_check += 1
                break
            if not legal or len(moves) >= MAX_PLIES:
                break
            move = rng.choice(sorted(legal))
            board.push(Move.from_uci(move))
            moves.append(move)
    assert ended_by_check >= GAMES // 2  # random play checks soon: most games end that way


def test_a_karouk_fen_with_its_checks_field_reads_back():
    board = Board("4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1", variant="karouk")
    board.push(board.parse_move("Ra8"))
    assert board.fen() == "R3k3/8/8/8/8/8/8/4K3 b - - 0+1 1 1"
    assert Board(board.fen(), variant="karouk").outcome() is not None
