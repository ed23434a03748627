"""RULES.md, Repetition: threefold repetition and the perpetual-check rule (forbid and draw)."""

from __future__ import annotations

import pytest

from makruk import Board, IllegalMoveError, Move

from .support import ended, running_count

PERPETUAL = "8/8/8/8/8/3KmN2/4R3/5k1s w - - 0 1"
PERPETUAL_MOVES = ["f3h2", "f1g1", "h2f3", "g1f1", "f3h2", "f1g1", "h2f3", "g1f1"]
KNIGHT_DANCE = ["g1e2", "g8e7", "e2g1", "e7g8"]


def play(board: Board, *ucis: str) -> Board:
    for uci in ucis:
        board.play(Move.from_uci(uci))
    return board


def legal(board: Board) -> set[str]:
    return {m.uci() for m in board.legal_moves()}


# --- plain repetition -------------------------------------------------------------------------

@pytest.mark.parametrize("perpetual", ["forbid", "draw"])
def test_threefold_repetition_without_checks_draws(perpetual):
    board = play(Board(perpetual=perpetual), *KNIGHT_DANCE)
    assert board.outcome() is None and not board.is_repetition()  # second occurrence
    play(board, *KNIGHT_DANCE[:3])
    assert board.outcome() is None
    play(board, KNIGHT_DANCE[3])  # the start position, a third time
    assert board.is_repetition()
    assert ended(board).result == "1/2-1/2" and ended(board).reason == "repetition"
    with pytest.raises(IllegalMoveError) as error:
        play(board, "e3e4")
    assert error.value.code == "game_over"


def test_the_same_placement_with_the_other_side_to_move_is_another_position():
    # Khuns walk a triangle so that the placement comes back with the other side to move.
    board = Board("k7/8/8/8/8/8/8/6RK w - - 0 1")
    play(board, "h1g2", "a8b8", "g2h2", "b8a8", "h2h1")  # placement as at the start, Black to move
    assert board.fen().split()[:2] == ["k7/8/8/8/8/8/8/6RK", "b"]
    play(board, "a8b8", "h1g2", "b8a8", "g2h2", "a8b8", "h2h1", "b8a8")
    # The placement of the start has occurred three times, but only twice with White to move.
    assert board.fen().split()[:2] == ["k7/8/8/8/8/8/8/6RK", "w"]
    assert board.outcome() is None


def test_bia_ngai_and_met_are_told_apart():
    # The Met and the Bia Ngai swap squares and back, by different routes. Were they confused,
    # the start placement would recur at plies 8 and 16 and draw there; really the start
    # position recurs at plies 16 and 32 and the swapped one only at 8 and 24.
    board = Board("7k/8/8/8/8/2M1M~3/8/K7 w - - 0 1")
    swap = ["c3d4", "h8g8", "e3d2", "g8h8", "d4e3", "h8g8", "d2c3", "g8h8"]
    swap_back = ["e3d2", "h8g8", "c3d4", "g8h8", "d2c3", "h8g8", "d4e3", "g8h8"]
    for n, moves in enumerate([swap, swap_back, swap, swap_back], start=1):
        play(board, *moves)
        assert (board.outcome() is None) == (n < 4), n
    assert board.fen().startswith("7k/8/8/8/8/2M1M~3/8/K7 w")
    assert ended(board).reason == "repetition"


def test_the_counting_state_is_part_of_the_position():
    board = Board("7k/8/8/8/8/8/1R6/K7 b - - 0 1")
    dance = ["h8g8", "a1b1", "g8h8", "b1a1"]
    play(board, *dance)  # the start position, a second time
    board.declare_count()  # a running count makes every position new
    play(board, *dance, *dance, *dance)
    assert running_count(board).done == 6 and board.outcome() is None
    board.stop_count()
    play(board, *dance)  # without a count the start position has now occurred thrice at least
    assert ended(board).reason == "repetition"


def test_an_irreversible_move_starts_repetition_afresh():
    board = play(Board(), *KNIGHT_DANCE, "e3e4", "e6e5", *KNIGHT_DANCE)
    assert board.outcome() is None
    play(board, *KNIGHT_DANCE)
    assert ended(board).reason == "repetition"


# --- perpetual check (interpretation in RULES.md) ---------------------------------------------------

def test_rules_example_perpetual_check_is_forbidden():
    board = play(Board(PERPETUAL), *PERPETUAL_MOVES)
    # Rule 1: the checked side's forced reply made the third occurrence: no draw.
    assert board.is_repetition() and board.outcome() is None
    # Rule 2: the check that would repeat a third time is not legal; White must vary.
    assert "f3h2" not in legal(board)
    assert {"f3g1", "f3d2", "e2e1", "d3c2"} <= legal(board)
    with pytest.raises(IllegalMoveError) as error:
        play(board, "f3h2")
    assert error.value.code == "perpetual_check"
    assert "vary" in str(error.value)
    with pytest.raises(IllegalMoveError) as error:
        board.parse_move("Nh2")
    assert error.value.code == "perpetual_check"
    with pytest.raises(IllegalMoveError) as error:
        board.parse_move("f3h2")
    assert error.value.code == "perpetual_check"


def test_rules_example_with_perpetual_draw_is_drawn_after_the_eighth_move():
    board = Board(PERPETUAL, perpetual="draw")
    for n, uci in enumerate(PERPETUAL_MOVES, start=1):
        play(board, uci)
        assert (board.outcome() is None) == (n < 8), n
    assert ended(board).result == "1/2-1/2" and ended(board).reason == "repetition"
    assert "f3h2" in legal(board)


def test_the_repeating_check_is_legal_before_the_third_occurrence():
    board = play(Board(PERPETUAL), *PERPETUAL_MOVES[:4])
    assert "f3h2" in legal(board)
    play(board, *PERPETUAL_MOVES[4:7])
    assert "g1f1" in legal(board)  # the checked side may always complete the repetition


def test_a_repetition_with_a_quiet_move_in_the_cycle_draws_under_forbid():
    # White checks twice, then varies with quiet moves; the third occurrence of the start
    # position is an ordinary repetition.
    board = play(Board(PERPETUAL), *PERPETUAL_MOVES[:4], "d3c3", "h1g2", "c3d3", "g2h1")
    assert board.is_repetition()
    assert ended(board).reason == "repetition"


def test_the_checked_side_completing_a_repetition_is_never_forbidden():
    board = play(Board(PERPETUAL), *PERPETUAL_MOVES[:7])
    assert not board.is_check() or "g1f1" in legal(board)
    play(board, "g1f1")
    assert board.outcome() is None


def test_perpetual_check_is_tracked_per_position_and_undone_by_pop():
    board = play(Board(PERPETUAL), *PERPETUAL_MOVES)
    board.pop()
    board.pop()
    assert "h2f3" in legal(board)  # its position would occur only a second time
    play(board, "h2f3", "g1f1")
    assert "f3h2" not in legal(board)


# Rule 3. White is in check from the Rua b8; its only legal moves are the Met's two blocks, a5b6
# and a5b4, and both give check. Black's Khun steps behind the Met onto the b-file and back,
# which uncovers the Rua's check again. Cycle A uses b6, cycle B uses b4; White checks with
# every move, Black with every other move only.
RULE_3 = "1r6/8/8/M1k5/8/8/P1P5/RKR5 w - - 0 1"
CYCLE_A = ["a5b6", "c5b4", "b6a5", "b4c5"]
CYCLE_B = ["a5b4", "c5b6", "b4a5", "b6c5"]


def test_rule_3_position_white_has_only_two_moves_and_both_check():
    board = Board(RULE_3)
    assert board.is_check() and legal(board) == {"a5b6", "a5b4"}
    for uci in legal(board):
        board.push(Move.from_uci(uci))
        assert board.is_check()
        board.pop()


def test_rule_3_when_every_move_is_forbidden_the_ban_lifts_and_the_repetition_draws():
    board = play(Board(RULE_3), *CYCLE_A, *CYCLE_A)
    # The start position occurred a third time by Black's reply: no draw (rule 1), and the
    # block on b6 would repeat a third time by perpetual check (rule 2): White must vary.
    assert board.outcome() is None
    assert legal(board) == {"a5b4"}
    play(board, *CYCLE_B, *CYCLE_B)
    assert board.outcome() is None
    # Now both blocks would make a third occurrence by perpetual check: the ban lifts.
    assert legal(board) == {"a5b6", "a5b4"}
    for uci in ("a5b6", "a5b4"):
        play(board, uci)
        assert ended(board).result == "1/2-1/2" and ended(board).reason == "repetition"
        board.pop()


def test_rule_3_position_with_perpetual_draw_draws_at_the_first_threefold():
    board = play(Board(RULE_3, perpetual="draw"), *CYCLE_A, *CYCLE_A)
    assert ended(board).reason == "repetition"
