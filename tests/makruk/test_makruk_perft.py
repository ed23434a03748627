"""Perft: the reference numbers of RULES.md (Fairy-Stockfish). Depth 5 lives in the benchmark."""

import pytest

from makruk import Board, perft

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
SECOND = "rnsmksnr/8/1pM~1pppp/p7/8/PPPP1PPP/8/RNSKMSNR b - - 0 3"


@pytest.mark.parametrize("depth, nodes", [(1, 23), (2, 529), (3, 12012), (4, 273026)])
def test_start_position(depth, nodes):
    assert perft(Board(START), depth) == nodes


@pytest.mark.parametrize("depth, nodes", [(1, 23), (2, 594), (3, 13581), (4, 348073)])
def test_second_position_with_a_bia_ngai(depth, nodes):
    assert perft(Board(SECOND), depth) == nodes


@pytest.mark.parametrize("promotion", ["forced", "optional"])
def test_perft_leaves_the_board_as_it_was(promotion):
    board = Board(SECOND, promotion=promotion)
    before = (board.fen(), board.legal_moves(), board.ply)
    perft(board, 3)
    assert (board.fen(), board.legal_moves(), board.ply) == before


def test_perft_depth_zero_is_one():
    assert perft(Board(), 0) == 1


def test_optional_promotion_adds_the_plain_moves():
    # A white Bia on d5 and one on b7 (from a FEN): d5d6 and d5d6m, b7b8m only.
    fen = "4k3/1P6/8/3P4/8/8/8/4K3 w - - 0 1"
    assert perft(Board(fen), 1) == 5 + 1 + 1
    assert perft(Board(fen, promotion="optional"), 1) == 5 + 2 + 1
