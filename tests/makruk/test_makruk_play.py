"""``is_legal``, ``play`` and ``replay`` check one move without generating the others; they
must agree exactly with ``legal_moves()`` and the outcome."""

from __future__ import annotations

import random

import pytest

from makruk import Board, IllegalMoveError, Move

PERPETUAL = "8/8/8/8/8/3KmN2/4R3/5k1s w - - 0 1"
PERPETUAL_MOVES = ["f3h2", "f1g1", "h2f3", "g1f1", "f3h2", "f1g1", "h2f3", "g1f1"]
STARTS = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "rnsmksnr/8/1pM~1pppp/p7/8/PPPP1PPP/8/RNSKMSNR b - - 0 3",
    "3r3k/8/8/8/8/8/3R4/3K4 w - - 0 1",  # a pin
    "4k3/8/8/8/8/4n3/8/RN1K2r1 w - - 0 1",  # double check
    "r3k3/8/8/8/3N4/8/2P5/R2K3r w - - 0 1",
    "4k3/2P5/8/3P4/8/8/5p2/4K3 w - - 0 1",  # promotions both ways
]


def _candidates(board: Board) -> list[Move]:
    """Every move a piece of the side to move could be asked to make, promotion or not."""
    own = [sq for sq, piece in board.piece_map().items() if piece.color == board.turn]
    return [Move(frm, to, promo) for frm in own for to in range(64) if to != frm for promo in ("", "m")]


@pytest.mark.parametrize("promotion", ["forced", "optional"])
@pytest.mark.parametrize("perpetual", ["forbid", "draw"])
def test_is_legal_agrees_with_legal_moves_in_random_games(promotion, perpetual):
    rng = random.Random(f"{promotion}-{perpetual}")
    positions = 0
    for start in STARTS:
        board = Board(start, promotion=promotion, perpetual=perpetual)
        for _ in range(80):
            fast = {m for m in _candidates(board) if board.is_legal(m)}  # before legal_moves() is cached
            full = set(board.legal_moves())
            assert fast == full, (board.fen(), sorted(m.uci() for m in fast ^ full))
            positions += 1
            if not full:
                break
            captures = [m for m in full if board.piece_at(m.to_square)]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else sorted(full, key=Move.uci)))
    assert positions > 300


def test_is_legal_applies_the_perpetual_check_rule():
    board = Board(PERPETUAL)
    for uci in PERPETUAL_MOVES:
        board.push(Move.from_uci(uci))
    assert not board.is_legal(Move.from_uci("f3h2"))
    assert board.is_legal(Move.from_uci("f3g1"))


def test_play_accepts_a_legal_move_and_makes_it():
    board = Board("4k3/4R3/4K3/8/8/8/8/8 b - - 0 1")  # in check, not mate: d8 is free
    assert board.play(Move.from_uci("e8d8")) == Move.from_uci("e8d8")
    assert board.fen() == "3k4/4R3/4K3/8/8/8/8/8 w - - 1 2"


@pytest.mark.parametrize(
    "fen, uci",
    [
        ("R3k3/8/4K3/8/8/8/8/8 b - - 0 1", "e8d8"),  # checkmated: every move is refused as game over
        ("R3k3/8/4K3/8/8/8/8/8 b - - 0 1", "e8f7"),
        ("k1N5/2K5/8/8/8/8/8/8 b - - 0 1", "a8b8"),  # stalemate
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2"),  # bare Khuns: drawn, though e1e2 moves
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e3"),
    ],
)
def test_play_in_a_finished_game_says_game_over(fen, uci):
    with pytest.raises(IllegalMoveError) as error:
        Board(fen).play(Move.from_uci(uci))
    assert error.value.code == "game_over"


def test_replay_plays_a_stored_game_from_uci_or_moves():
    moves = ["e3e4", "d6d5", "e4d5", "c6c5"]
    board = Board()
    board.replay(moves)
    other = Board()
    other.replay(Move.from_uci(uci) for uci in moves)
    assert board.fen() == other.fen() == "rnsmksnr/8/pp2pppp/2pP4/8/PPPP1PPP/8/RNSKMSNR w - - 0 3"
    assert [m.uci() for m in board.move_stack] == moves


def test_replay_refuses_a_bad_record_at_the_bad_move():
    board = Board()
    with pytest.raises(IllegalMoveError) as error:
        board.replay(["e3e4", "d6d5", "e4e6"])
    assert error.value.code == "cannot_move_there"
    assert [m.uci() for m in board.move_stack] == ["e3e4", "d6d5"]


def test_replay_refuses_moves_after_the_end():
    board = Board("4k3/8/4K3/8/8/8/8/R7 w - - 0 1")
    with pytest.raises(IllegalMoveError) as error:
        board.replay(["a1a8", "e8d8"])
    assert error.value.code == "game_over"
