"""The shipped banks meet the acceptance, read off the engine output stored beside them (no
engine runs here): every threshold at every solver move, the lengths, the gains, the counts."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.puzzles.acceptance import (
    BUDGETS,
    MARGIN_MATE,
    MAX_SOLVER_MOVES,
    MIN_GAIN,
    MULTIPV_FIRST,
    MULTIPV_LATER,
    check_record,
    line_chance,
    margin,
)
from bot.puzzles.bank import PUZZLE_VARIANTS, bank_path, load_bank, load_verification, verification_path
from bot.puzzles.counting import puzzle_count
from bot.puzzles.shelf import RACE_SHARE, TARGETS, pattern
from bot.puzzles.verify import count_cannot_matter, material, settle
from makruk import Board, Move

# What the banks hold at least (the generator adds to them; see docs/puzzles.md).
SHIPPED_AT_LEAST = {"makruk": 6, "asean": 0, "cambodian": 1, "makpong": 9, "sittuyin": 1}

BANKS = {v: load_bank(bank_path(v)) for v in PUZZLE_VARIANTS}
RECORDS = {v: load_verification(verification_path(v)) for v in PUZZLE_VARIANTS}
PUZZLES = [p for v in PUZZLE_VARIANTS for p in BANKS[v]]


def test_counts_per_variant_and_unique_ids():
    counts = Counter(p.variant for p in PUZZLES)
    for variant, least in SHIPPED_AT_LEAST.items():
        assert counts[variant] >= least, variant
        assert all(p.variant == variant for p in BANKS[variant])
    ids = [p.id for p in PUZZLES]
    assert len(ids) == len(set(ids))
    # No puzzle repeats another's line against the Khun on the same square.
    patterns = Counter(pattern(p) for p in PUZZLES)
    assert [key for key, n in patterns.items() if n > 1] == []
    races = Counter(p.variant for p in PUZZLES if puzzle_count(p.fen, p.variant) is not None)
    assert all(races[v] <= RACE_SHARE * TARGETS[v] for v in races), races


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_every_threshold_holds_in_the_stored_engine_output(puzzle):
    record = RECORDS[puzzle.variant].get(puzzle.id)
    assert record is not None, "no verification record"
    assert record["variant"] == puzzle.variant and tuple(record["budgets"]) == BUDGETS
    assert check_record(puzzle.moves, puzzle.kind, puzzle.mate_in, puzzle.variant, record) == []
    # The main thresholds once more, spelled out.
    solver_moves = (len(puzzle.moves) + 1) // 2
    assert len(puzzle.moves) % 2 == 1 and solver_moves <= MAX_SOLVER_MOVES
    assert solver_moves >= 2 or puzzle.mate_in == 1
    for ply in range(0, len(puzzle.moves), 2):
        step = record["plies"][ply]
        last = ply == len(puzzle.moves) - 1
        if last:
            assert step["legal"] > 1, "the puzzle ends on a forced move"
        for budget in BUDGETS:
            lines = step["search"][str(budget)]
            assert lines[0][0] == puzzle.moves[ply]
            assert len(lines) >= min(step["legal"], MULTIPV_FIRST if ply == 0 else MULTIPV_LATER)
            if last and puzzle.kind == "mate":
                assert lines[0][2] == 1
                rest = step["rest"].get(str(budget))
                assert rest is None or line_chance(rest, puzzle.variant) <= 1 - MARGIN_MATE
            elif len(lines) > 1:
                gap = line_chance(lines[0], puzzle.variant) - line_chance(lines[1], puzzle.variant)
                assert gap >= margin(lines[0])
    for ply in range(1, len(puzzle.moves), 2):
        assert record["plies"][ply]["reply"][0] == puzzle.moves[ply]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_every_line_is_legal_under_our_rules_and_ends_as_claimed(puzzle):
    board = Board(puzzle.fen, variant=puzzle.variant)
    solver = board.turn
    before = material(board, solver)
    count = puzzle_count(puzzle.fen, puzzle.variant)
    if count is None:
        assert count_cannot_matter(board)
    else:  # a counting race: a mate in exactly the moves the count leaves
        assert puzzle.kind == "mate" and puzzle.mate_in == count.moves_left
        assert {"countingRace", f"{count.kind}Honour"} <= set(puzzle.themes)
    for uci in puzzle.moves:
        assert not board.is_game_over()
        move = Move.from_uci(uci)
        assert move in board.legal_moves(), f"{uci} in {board.fen()}"
        board.push(move)
    if puzzle.kind == "mate":
        assert board.is_checkmate() and puzzle.mate_in == (len(puzzle.moves) + 1) // 2
    else:
        assert -settle(board) - before >= MIN_GAIN and count_cannot_matter(board)
