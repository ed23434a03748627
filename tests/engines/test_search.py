"""The built-in search and evaluation, in this process: mates, counting, draws, levels, UCI text."""

from __future__ import annotations

import random

import pytest

from bot.engines import Analysis, EnginePosition
from bot.engines.builtin import wants_count
from bot.engines.builtin.evaluation import TABLES, move_delta, scores, static_eval
from bot.engines.builtin.search import MATE, Limits, Searcher, SearchResult, pick_near_best
from bot.engines.levels import LEVELS, builtin_level, level, rating
from bot.engines.uci import parse_info
from bot.services.analysis import biggest_mistakes, format_score, review_plies
from makruk import Board, Count, Move

from .support import push_uci, random_positions


def search(fen: str, **limits) -> SearchResult:
    return Searcher().search(Board(fen), Limits(**limits))


def test_mate_in_one_and_the_shorter_of_two_mates():
    result = search("4k3/R7/8/8/8/8/8/1R1K4 w - - 0 1", depth=4)
    assert result.move == "b1b8" and result.mate == 1 and result.score == MATE - 1


def test_sees_it_is_mated():
    # Black to move is mated next move whatever it does: the score says so.
    result = search("3k4/R7/8/8/8/8/8/1R1K4 b - - 0 1", depth=4)
    assert result.mate is not None and result.mate < 0


def test_keeps_the_last_enemy_piece_when_capturing_it_would_draw_by_counting():
    # Rxe5 leaves a bare Khun against 2 Rua and 6 more pieces: 8 - 9 < 0, drawn at once.
    board = Board("4k3/8/8/4m3/8/M~M~M~5/4RS2/3K2NR w - - 0 1")
    result = Searcher().search(board, Limits(depth=4))
    assert result.move != "e2e5" and result.score > 300
    board.push(Move.from_uci("e2e5"))
    assert board.declare_count().limit <= 0
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "counting"


def test_a_running_count_that_runs_out_is_a_draw():
    # Black declared the pieces' honour count; White's 16th move would end it.
    board = EnginePosition("8/8/8/4k3/8/8/8/R2K4 b - - 0 1", (), ()).board()
    count = board.declare_count()
    board.count = Count(count.kind, count.side, count.limit, count.limit - 1)
    push_uci(board, "e5e4")
    result = Searcher().search(board, Limits(depth=3))
    assert result.score == 0  # no mate in one: every move ends the count in a draw


def test_repetition_and_dead_material_score_zero():
    assert static_eval(Board("8/8/3k4/8/8/3K4/2S5/1N6 w - - 0 1")) != 0  # Khon + Ma vs bare Khun
    assert static_eval(Board("8/8/3k4/3s4/8/3K4/2S5/1N6 w - - 0 1")) == 0  # Khon + Ma vs Khon: dead draw
    board = Board("8/8/3k4/3s4/8/3K4/2S5/1R6 w - - 0 1")
    for uci in ("b1b2", "d6e6", "b2b1"):
        push_uci(board, uci)
        assert not board.is_repetition(2)
    push_uci(board, "e6d6")
    assert board.is_repetition(2)  # the start position again: the search scores it a draw


def test_incremental_values_match_a_fresh_count():
    for position in random_positions(30, seed=3):
        board = position.board()
        for move in board.legal_moves()[:8]:
            mg, eg = scores(board)
            d_mg, d_eg = move_delta(board, move, TABLES["makruk"])
            board.push(move)
            assert scores(board) == (mg + d_mg, eg + d_eg)
            board.pop()


def test_evaluation_is_the_same_for_the_mirrored_position():
    for position in random_positions(20, seed=5):
        board = Board(position.board().fen())  # the FEN keeps no count: compare without one
        assert static_eval(board) == static_eval(Board(_mirrored(board.fen()))), board.fen()
    assert static_eval(Board("rnsmksnr/8/pppp1ppp/4p3/8/PPPPPPPP/8/RNSKMSNR w - - 0 1")) < 0


def _mirrored(fen: str) -> str:
    """Ranks reversed, colours swapped, the other side to move."""
    placement, turn, *rest = fen.split()
    rows = placement.split("/")[::-1]
    return " ".join(["/".join(row.swapcase() for row in rows), "b" if turn == "w" else "w", *rest])


def test_declares_the_count_when_bare_or_clearly_behind():
    assert wants_count(Board("8/8/8/4k3/8/8/8/R2K4 b - - 0 1"))  # bare: the pieces' honour
    assert not wants_count(Board("8/8/8/4k3/8/8/8/R2K4 w - - 0 1"))  # the stronger side never declares
    assert wants_count(Board("8/8/8/4k3/4m3/8/8/R2K4 b - - 0 1"))  # board's honour: behind by a Rua
    assert not wants_count(Board("8/8/8/4k3/4r3/8/8/R2K4 b - - 0 1"))  # even: no need
    assert not wants_count(Board())  # Bia on the board: no count at all


def test_weak_levels_pick_among_near_best_moves_only():
    result = SearchResult("a", 50, ("a",), 1, 1, 0.0, (("a", 50), ("b", 20), ("c", -400)))
    rng = random.Random(1)
    picks = {pick_near_best(result, 100, rng) for _ in range(200)}
    assert picks == {"a", "b"}
    assert pick_near_best(result, 0, rng) == "a"


def test_levels_are_described_and_rated_in_order():
    assert sorted(LEVELS) == list(range(1, 9))
    ratings = [rating(n) for n in range(1, 9)]
    assert ratings == sorted(ratings) and len(set(ratings)) == 8
    assert all(level(n).seconds <= 3.0 for n in range(1, 9))
    assert [level(n).engine for n in range(1, 9)] == ["builtin"] * 4 + ["fairy-stockfish"] * 4
    assert builtin_level(8) == LEVELS[4] and level(0) == LEVELS[1] and level(99) == LEVELS[8]


def test_uci_info_lines():
    assert parse_info("info depth 5 seldepth 7 multipv 1 score mate -2 nodes 900 nps 1 pv a1a2 b2b3") == \
        Analysis(None, -2, ("a1a2", "b2b3"), 5, 900)
    assert parse_info("info depth 5 multipv 2 score cp 10 pv a1a2") is None
    assert parse_info("info string variant makruk") is None
    bound = parse_info("info depth 9 score cp 31 lowerbound nodes 10 pv e3e4")
    assert bound is not None and bound.score_cp == 31


def test_mistakes_are_the_biggest_drops_with_a_better_move():
    position = EnginePosition(Board.starting_fen, ("e3e4", "d6d5", "e4d5"))
    analyses = [Analysis(20, None, ("b1d2",)), Analysis(-20, None, ("c6c5",)),
                Analysis(400, None, ("e4d5",)), Analysis(-420, None, ("c6d5",))]
    plies = review_plies(position, analyses)
    assert [p.number for p in plies] == ["1.", "1...", "2."]
    mistakes = biggest_mistakes(plies)
    assert [m.played for m in mistakes] == ["d6d5"] and mistakes[0].best == "c6c5"
    assert format_score(plies[1].after_white) == "+4.00"


@pytest.mark.parametrize("fen", ["4k3/R7/8/8/8/8/8/1R1K4 w - - 0 1", Board.starting_fen])
def test_a_tiny_budget_still_answers_a_legal_move(fen):
    board = Board(fen)
    result = Searcher().search(board, Limits(nodes=5))
    assert Move.from_uci(result.move) in board.legal_moves()
