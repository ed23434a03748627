"""The verifier on known positions, and over the whole shipped bank (the CI check)."""

from __future__ import annotations

import random

import pytest

from bot.puzzles.bank import BankPuzzle, load_family
from bot.puzzles.verify import MateSearch, _split_checks, verify_bank, verify_puzzle
from makruk import Board

from .support import MATE2, MATERIAL

# The banks as re-verified under issue 26's acceptance (docs/puzzles.md); the generator adds to them.
MIN_BANK = 1
# Two Rua can each give mate on the back rank; Black's Bia keeps the endgame counts away.
TWO_MATES = "7k/8/4p2K/8/8/4P3/8/RR6 w - - 0 1"


def puzzle(fen, moves, mate_in=None, kind="mate", themes=("mate",)) -> BankPuzzle:
    return BankPuzzle("t", fen, tuple(moves), kind, mate_in, 1000, tuple(themes))


def test_a_unique_mate_in_2_is_proved():
    verdict = verify_puzzle(puzzle(MATE2.fen, MATE2.solution, 2))
    assert verdict.ok, verdict.problems
    assert verdict.nodes > 0


def test_a_material_win_is_proved():
    assert verify_puzzle(puzzle(MATERIAL.fen, MATERIAL.solution, kind="material", themes=("material",))).ok


def test_two_mating_first_moves_are_refused():
    assert verify_puzzle(puzzle(TWO_MATES, ["a1a8"], 1)).problems == ("more than one move mates in 1",)
    problems = verify_puzzle(puzzle(TWO_MATES, ["a1a7", "e6e5", "a7a8"], 2)).problems
    assert problems == ("there is a mate in fewer than 2",)


@pytest.mark.parametrize(("moves", "problem"), [
    (["c2h2", "h3g3", "a1a3"], "the line does not end in checkmate"),
    (["c2c3", "h3g3", "a1g1"], "ply 1: c2c3 does not force mate in 2"),
    (["c2h2", "h3g2", "a1g1"], "ply 2: h3g2 is illegal"),
    (["c2h2", "h3g3"], "the line must end on the solver's move"),
])
def test_wrong_lines_are_refused(moves, problem):
    problems = verify_puzzle(puzzle(MATE2.fen, moves, 2)).problems
    assert problems and problems[0].startswith(problem), problems


def test_a_defence_that_is_not_the_longest_is_refused():
    # A mate in 3 for Black: Rh2 Rd2 Rxd2 Sb4 Rf2#. Rb3 instead of Rd2 allows a mate in 1.
    fen = "8/4s3/3m4/2Mp1km~1/3P1p2/S2R1Ks1/8/7r b - - 0 79"
    assert verify_puzzle(puzzle(fen, ["h1h2", "d3d2", "h2d2", "c5b4", "d2f2"], 3)).ok
    problems = verify_puzzle(puzzle(fen, ["h1h2", "d3b3", "h2c2", "a3b2", "c2f2"], 3)).problems
    assert problems == ("ply 2: d3b3 allows a mate in 1",)


def test_checks_are_read_off_the_attack_tables_exactly():
    rng = random.Random(7)
    for fen in (MATE2.fen, MATERIAL.fen, "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"):
        board = Board(fen)
        for _ in range(40):
            moves = board.legal_moves()
            if not moves:
                break
            checks, _quiet = _split_checks(board, board.placement(), moves)
            for move in moves:
                board.push(move)
                assert board.is_check() == (move in checks), (board.fen(), move)
                board.pop()
            board.push(rng.choice(moves))


def test_mate_search_counts_moves_like_the_engine():
    board = Board(MATE2.fen)
    search = MateSearch(board)
    assert not search.mates_in(1) and search.mates_in(2) and search.mates_in(3)
    assert [m.uci() for m in search.mating_moves(2)] == ["c2h2"]
    assert board.fen() == MATE2.fen  # the search leaves the board as it found it


# --- the shipped bank ----------------------------------------------------------------------

def test_the_shipped_banks_hold_distinct_puzzles():
    bank = load_family()
    assert len(bank) >= MIN_BANK
    assert len({p.id for p in bank}) == len(bank)
    assert len({(p.variant, " ".join(p.fen.split()[:2])) for p in bank}) == len(bank)
    for p in bank:
        assert p.themes and p.themes[0] in ("mate", "material")
        assert p.run is not None


def test_every_puzzle_of_the_shipped_bank_is_proved():
    # (How long it takes: ``makruk-bot puzzles verify`` prints it; docs/PERFORMANCE.md.)
    verdicts = verify_bank(load_family(), workers=2)
    failed = [(v.puzzle_id, v.problems) for v in verdicts if not v.ok]
    assert not failed
