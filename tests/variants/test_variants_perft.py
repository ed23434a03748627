"""Perft of each variant: the reference numbers of RULES.md (modern Fairy-Stockfish), counted by
our perft, and the first two plies split by first move against pyffish itself.

Depth 4 runs only where it tells a rule apart: Ouk Chatrang's start (361,719 today against the
361,793 of the older Fairy-Stockfish 11.1) and the middlegame where Makpong and Makruk part.
Sittuyin's depth 4 (43,454,464) is left to the benchmark.
"""

from __future__ import annotations

import pytest

from makruk import Board, Move, perft, starting_fen

from .support import fsf_fen, fsf_legal

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
OUK_START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"
ASEAN_START = "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1"
SITTUYIN_START = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1"
MAKPONG_MIDDLEGAME = "3mk3/r3s1R1/1psppnp1/p1pn4/1P2NP2/P1PPP1P1/4NS2/R1SKM3 w - - 0 1"
OUK_SECOND = "rn1mksnr/3s4/pppppppp/8/4N3/PPPPPPPP/8/R1SKMSNR b DEde - 3 2"

REFERENCE = [
    ("makpong", START, [23, 529, 12012]),
    ("cambodian", OUK_START, [25, 625, 15031]),
    ("asean", ASEAN_START, [23, 529, 12012]),
    ("sittuyin", SITTUYIN_START, [88, 7744, 580096]),
    ("makpong", MAKPONG_MIDDLEGAME, [30, 786, 22595]),
    ("makruk", MAKPONG_MIDDLEGAME, [30, 792, 22879]),
    ("cambodian", OUK_SECOND, [21, 630, 12546]),
]


@pytest.mark.parametrize(
    "variant, fen, depth, nodes",
    [(v, fen, d + 1, n) for v, fen, counts in REFERENCE for d, n in enumerate(counts)],
)
def test_reference_numbers(variant, fen, depth, nodes):
    assert perft(Board(fen, variant=variant), depth) == nodes


@pytest.mark.parametrize(
    "variant, fen, nodes",
    [
        ("cambodian", OUK_START, 361719),
        ("makpong", MAKPONG_MIDDLEGAME, 593103),
        ("makruk", MAKPONG_MIDDLEGAME, 605119),
    ],
)
def test_depth_four_where_it_tells_rules_apart(variant, fen, nodes):
    assert perft(Board(fen, variant=variant), 4) == nodes


@pytest.mark.parametrize("variant, fen", [(v, fen) for v, fen, _ in REFERENCE if v != "makruk"])
def test_divide_at_depth_two_agrees_with_pyffish(variant, fen):
    board = Board(fen, variant=variant)
    ours = {}
    for move in board.legal_moves():
        board.push(move)
        ours[move.uci()] = perft(board, 1)
        board.pop()
    theirs = {uci: len(fsf_legal(variant, fen, [uci])) for uci in fsf_legal(variant, fen)}
    assert ours == theirs


@pytest.mark.parametrize("variant", ["makruk", "makpong", "cambodian", "asean", "sittuyin"])
def test_starting_fen_is_the_variant_s(variant):
    fen = starting_fen(variant)
    assert Board(variant=variant).fen() == fen == Board(fen, variant=variant).fen()
    assert fen == fsf_fen(variant, fen)


@pytest.mark.parametrize(
    "variant, fen, moves",
    [
        ("cambodian", OUK_START, ["d1b2", "e8g7", "e1e3"]),
        ("sittuyin", SITTUYIN_START, ["R@a1", "K@e7", "N@b2"]),
        ("sittuyin", "7k/8/8/3P4/8/8/P7/K7[] w - - 0 1", ["d5c6f"]),
        ("asean", "7k/3P4/8/8/8/8/8/K7 w - - 0 1", ["d7d8q"]),
        ("makpong", MAKPONG_MIDDLEGAME, []),
    ],
)
def test_perft_leaves_the_board_as_it_was(variant, fen, moves):
    board = Board(fen, variant=variant)
    for uci in moves:
        board.push(Move.from_uci(uci))
    before = (board.fen(), board.legal_moves(), board.ply, board.gates, board.pocket(True), board.pocket(False))
    perft(board, 3)
    assert (board.fen(), board.legal_moves(), board.ply, board.gates, board.pocket(True), board.pocket(False)) == before


@pytest.mark.parametrize("variant", ["makpong", "cambodian", "asean", "sittuyin"])
def test_perft_depth_zero_is_one(variant):
    assert perft(Board(variant=variant), 0) == 1
