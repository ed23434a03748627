"""Sittuyin's rules random games seldom reach, position by position, as
``test_variants_positions.py`` checks the others': the deployment of the pieces from the hand
and the Bia's promotion, each agreeing with pyffish and with the rule as written here.
"""

from __future__ import annotations

import pytest

from makruk import Move, parse_square

from .support import agree, fsf_claimable, fsf_fen, fsf_san, legal, write_placement

# --- Sittuyin: deployment -------------------------------------------------------------------------

START_SIT = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1"


def test_sittuyin_drops_from_the_start():
    board = agree("sittuyin", START_SIT)
    moves = legal(board)
    assert len(moves) == 88 and all("@" in m for m in moves)
    assert sorted(m[2:] for m in moves if m[0] == "R") == [f"{f}1" for f in "abcdefgh"]
    assert len([m for m in moves if m[0] == "K"]) == 20 and "K@e3" in moves and "K@a3" not in moves
    black = legal(agree("sittuyin", START_SIT, ["R@a1"]))
    assert "R@h8" in black and "R@a7" not in black and "K@d6" in black and "K@e6" not in black


@pytest.mark.parametrize(
    "fen, moves",
    [
        pytest.param("8/8/4pppp/pppp4/4PPPP/PPPP4/8/4K3[kr] w - - 0 1", [], id="white-done-moves"),
        pytest.param("8/8/4pppp/pppp4/4PPPP/PPPP4/8/4K3[kr] b - - 0 1", [], id="black-drops"),
        pytest.param("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[Kkr] w - - 0 1", ["K@e1", "K@e8"], id="unequal-hands"),
        pytest.param("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[Kkr] w - - 0 1", ["K@e1", "K@e8", "e1d1"], id="last-drop"),
        pytest.param("r3k3/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KR] w - - 0 1", ["K@e1"], id="black-done-moves"),
    ],
)
def test_sittuyin_a_side_with_an_empty_hand_moves(fen, moves):
    board = agree("sittuyin", fen, moves)
    drops = [m for m in legal(board) if "@" in m]
    assert bool(drops) == bool(board.pocket(board.turn))
    assert all("@" in m for m in legal(board)) == bool(board.pocket(board.turn))


@pytest.mark.parametrize(
    "fen, expected",
    [
        pytest.param("4r2k/8/8/8/8/8/8/4K3[N] w - - 0 1", ["N@e2", "N@e3"], id="drop-blocks-the-check"),
        pytest.param("4r2k/8/8/8/8/8/8/4K3[S] w - - 0 1", ["S@e2", "S@e3"], id="elephant-blocks"),
        pytest.param("4r2k/8/8/8/8/8/8/4K3[R] w - - 0 1", ["e1d1", "e1d2", "e1f1", "e1f2"],
                     id="no-drop-helps-the-khun-moves"),
        pytest.param("7k/8/8/8/8/8/8/NNNKNNNN[R] w - - 0 1", None, id="no-square-for-the-rua-pieces-move"),
    ],
)
def test_sittuyin_drops_in_check_and_when_none_is_possible(fen, expected):
    moves = legal(agree("sittuyin", fen))
    if expected is not None:
        assert moves == expected
    else:
        assert moves and not any("@" in m for m in moves)


def test_sittuyin_drops_may_check_but_the_khun_may_not_be_dropped_into_check():
    assert "R@e8" in legal(agree("sittuyin", "7k/8/8/8/8/8/8/4K3[r] b - - 0 1"))
    assert agree("sittuyin", "7k/8/8/8/8/8/8/4K3[r] b - - 0 1", ["R@e8"]).is_check()
    khun = legal(agree("sittuyin", "4r2k/8/8/8/8/8/8/8[K] w - - 0 1"))
    assert len(khun) == 21 and not {"K@e1", "K@e2", "K@e3"} & set(khun)
    assert "K@a1" not in legal(agree("sittuyin", "r6k/8/8/8/8/8/8/8[KR] w - - 0 1"))


def test_sittuyin_drop_notation_pocket_and_clock():
    board = agree("sittuyin", START_SIT)
    move = Move.from_uci("R@a1")
    assert board.san(move) == fsf_san("sittuyin", START_SIT, "R@a1") == "R@a1"
    assert board.thai_san(move) == fsf_san("sittuyin", START_SIT, "R@a1", thai=True)
    assert board.parse_move("R@a1") == move and board.parse_move(board.thai_san(move)) == move
    after = agree("sittuyin", START_SIT, ["R@a1"])
    assert after.fen() == fsf_fen("sittuyin", START_SIT, ["R@a1"])
    fen = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/4K3[kr] w - - 7 1"
    assert agree("sittuyin", fen, ["e1d1"]).halfmove_clock == 8
    assert agree("sittuyin", fen, ["e1d1", "K@e8"]).halfmove_clock == 0  # a drop resets the clock
    assert agree("sittuyin", "7k/8/8/8/8/8/P7/K7 w - - 5 9").fen() == "7k/8/8/8/8/8/P7/K7[] w - - 5 9"


def test_sittuyin_a_full_standard_deployment():
    drops = ["R@a1", "R@h8", "R@h1", "R@a8", "N@b2", "N@g7", "N@g2", "N@b7", "S@c2", "S@f7", "S@f2", "S@c7",
             "K@d2", "K@e7", "F@e3", "F@d6"]
    board = agree("sittuyin", START_SIT, drops)
    assert not board.in_deployment() and board.pocket(True) == board.pocket(False) == {}
    assert board.fen().split()[0].endswith("[]")
    assert not any("@" in m for m in legal(board))


# --- Sittuyin: promotion ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "fen, promotions",
    [
        pytest.param("7k/8/8/3P4/8/8/P7/K7[] w - - 0 1", ["d5c4f", "d5c6f", "d5d5f", "d5e4f", "d5e6f"],
                     id="in-place-and-four-diagonals"),
        pytest.param("7k/8/8/8/3P4/8/P7/K7[] w - - 0 1", [], id="not-as-part-of-the-step"),
        pytest.param("7k/8/8/3P4/8/8/P7/K1F5[] w - - 0 1", [], id="only-without-a-sit-ke"),
        pytest.param("7k/8/8/5P2/8/8/8/K7[] w - - 0 1", ["f5e4f", "f5e6f", "f5f5f", "f5g4f", "f5g6f"],
                     id="last-bia-anywhere"),
        pytest.param("7k/8/8/5P2/8/8/P7/K7[] w - - 0 1", [], id="not-the-last-bia-off-the-diagonals"),
        pytest.param("P6k/8/8/8/8/8/P7/K7[] w - - 0 1", ["a8a8f", "a8b7f"], id="corner"),
        pytest.param("4k3/7P/8/8/8/8/P7/K7[] w - - 0 1", [], id="h7-is-no-promotion-square"),
        pytest.param("7k/8/8/3P4/2n5/8/P7/K7[] w - - 0 1", ["d5c6f", "d5e4f", "d5e6f"], id="may-not-attack"),
        pytest.param("7k/8/4n3/3P4/8/8/P7/K7[] w - - 0 1", ["d5c4f", "d5c6f", "d5e4f"], id="never-captures"),
        pytest.param("8/8/8/3P4/8/5k2/P7/K7[] w - - 0 1", ["d5c4f", "d5c6f", "d5d5f", "d5e6f"], id="no-check"),
        pytest.param("3k4/8/8/3P4/8/8/P7/K2R4[] w - - 0 1", ["d5d5f"], id="no-discovered-check"),
        pytest.param("7k/8/8/3P4/r6K/8/8/8[] w - - 0 1", ["d5c4f", "d5e4f"], id="promotion-answers-a-check"),
    ],
)
def test_sittuyin_promotion(fen, promotions):
    moves = legal(agree("sittuyin", fen))
    assert [m for m in moves if m.endswith("f")] == promotions


@pytest.mark.parametrize("square", ["a1", "b2", "c3", "d4", "e4", "f3", "g2", "h1", "d5", "e5", "c4", "f4"])
def test_sittuyin_black_promotion_squares(square):
    placement = {"h8": "k", "a8": "K", square: "p", "h6": "p"}
    pieces = {parse_square(name): symbol for name, symbol in placement.items()}
    fen = f"{write_placement(pieces)}[] b - - 0 1"
    promotes = any(m.endswith("f") for m in legal(agree("sittuyin", fen)))
    assert promotes == (square in ("a1", "b2", "c3", "d4", "e4", "f3", "g2", "h1"))


@pytest.mark.parametrize(
    "uci, san, placement",
    [
        ("d5d5f", "d5=F", "7k/8/8/3F4/8/8/P7/K7[]"),
        ("d5c6f", "d5c6=F", "7k/8/2F5/8/8/8/P7/K7[]"),
        ("d5c4f", "d5c4=F", "7k/8/8/8/2F5/8/P7/K7[]"),
    ],
)
def test_sittuyin_promotion_notation_and_fen(uci, san, placement):
    fen = "7k/8/8/3P4/8/8/P7/K7[] w - - 0 1"
    board = agree("sittuyin", fen)
    move = Move.from_uci(uci)
    assert board.san(move) == fsf_san("sittuyin", fen, uci) == san
    assert board.thai_san(move) == fsf_san("sittuyin", fen, uci, thai=True)
    assert board.parse_move(san) == move and board.parse_move(uci) == move
    assert agree("sittuyin", fen, [uci]).fen().split()[0] == placement


def test_sittuyin_only_promotions_left_is_a_draw():
    fen = "7k/8/8/8/8/1p6/pP6/K7[] w - - 0 1"
    board = agree("sittuyin", fen)
    assert legal(board) == ["b2a3f", "b2b2f", "b2c1f", "b2c3f"]
    outcome = board.outcome()
    assert outcome is not None and outcome.result == "1/2-1/2"
    assert fsf_claimable("sittuyin", fen)


def test_sittuyin_no_promotion_during_the_own_deployment():
    fen = "7k/8/8/3P4/8/8/8/K7[F] w - - 0 1"
    moves = legal(agree("sittuyin", fen))
    assert moves and all("@" in m for m in moves)
