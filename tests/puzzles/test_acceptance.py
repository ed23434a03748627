"""The acceptance's thresholds over engine output made by hand: each rule refuses what it must."""

from __future__ import annotations

import copy

import pytest

from bot.puzzles.acceptance import BUDGETS, MARGIN, MARGIN_MATE, check_record, win_chance
from bot.puzzles.engine_check import Rejected

A, B = (str(b) for b in BUDGETS)
MOVES = ("c2h2", "h3g3", "a1g1")


def mate2_record() -> dict:
    """A mate in 2 whose moves are only moves at both budgets."""
    return {"variant": "makruk", "budgets": list(BUDGETS), "plies": [
        {"ply": 0, "legal": 20, "search": {A: [["c2h2", None, 2], ["c2c1", 30, None], ["a1a2", 0, None]],
                                          B: [["c2h2", None, 2], ["c2c1", 10, None], ["a1a2", -5, None]]}},
        {"ply": 1, "reply": ["h3g3", None, -1]},
        {"ply": 2, "legal": 15, "search": {A: [["a1g1", None, 1], ["a1a2", 40, None]],
                                          B: [["a1g1", None, 1], ["a1a2", 45, None]]},
         "rest": {A: ["a1a2", 40, None], B: ["a1a2", 45, None]}},
    ]}


def test_the_win_chance_curve():
    assert win_chance(0, None) == 0 and win_chance(None, 4) == 1 and win_chance(None, -1) == -1
    assert 0 < win_chance(200, None) < win_chance(600, None) < 1
    assert win_chance(-300, None) == pytest.approx(-win_chance(300, None))
    assert win_chance(600, None, "asean") > win_chance(600, None, "makruk")  # ASEAN draws less


def test_a_sound_mate_passes():
    assert check_record(MOVES, "mate", 2, "makruk", mate2_record()) == []


def test_a_slower_second_mate_refuses_the_puzzle():
    record = mate2_record()
    record["plies"][0]["search"][B][1] = ["c2c1", None, 4]
    problems = check_record(MOVES, "mate", 2, "makruk", record)
    assert problems and "c2c1 (mate 4) is 0.00 behind" in problems[0]


def test_a_second_move_that_keeps_a_big_edge_refuses_a_mate_but_a_small_one_does_not():
    record = mate2_record()
    record["plies"][0]["search"][A][1] = ["c2c1", 300, None]  # win chance 0.22 < 1 - 0.7
    assert check_record(MOVES, "mate", 2, "makruk", record) == []
    record["plies"][0]["search"][A][1] = ["c2c1", 700, None]
    assert 1 - win_chance(700, None) < MARGIN_MATE
    assert any("at 100000 nodes: c2c1" in p for p in check_record(MOVES, "mate", 2, "makruk", record))


def test_the_budgets_must_agree_on_the_best_move():
    record = mate2_record()
    record["plies"][0]["search"][A][:2] = [["c2c1", 30, None], ["c2h2", None, 2]]
    assert any("prefers c2c1 to c2h2" in p for p in check_record(MOVES, "mate", 2, "makruk", record))


def test_on_the_last_move_any_mate_passes_but_a_slower_one_does_not():
    record = mate2_record()
    record["plies"][2]["search"][B][1] = ["a1a8", None, 1]  # another mate in 1: accepted as an answer
    assert check_record(MOVES, "mate", 2, "makruk", record) == []
    record["plies"][2]["rest"][B] = ["a1a2", None, 3]  # a non-mating move that mates later
    assert any("a1a2 also wins" in p for p in check_record(MOVES, "mate", 2, "makruk", record))


@pytest.mark.parametrize("change, problem", [
    (lambda r: r["plies"][1].update(reply=["h3h4", None, -1]), "is not the engine's best defence"),
    (lambda r: r["plies"][0].update(legal=1), "a forced move begins the puzzle"),
    (lambda r: r["plies"][2].update(legal=1), "a forced move ends the puzzle"),
    (lambda r: r["plies"][0]["search"][A].pop(), "MultiPV 3 needed"),
    (lambda r: r.update(budgets=[1000, 2000]), "the acceptance needs"),
    (lambda r: r["plies"].pop(), "2 plies verified"),
])
def test_each_rule_refuses(change, problem):
    record = copy.deepcopy(mate2_record())
    change(record)
    assert any(problem in p for p in check_record(MOVES, "mate", 2, "makruk", record))


def test_material_needs_two_solver_moves_and_the_margin():
    one: dict = {"variant": "makruk", "budgets": list(BUDGETS), "plies": [
        {"ply": 0, "legal": 20, "search": {b: [["a1a8", 900, None], ["a1a2", 0, None], ["b1b2", -10, None]]
                                          for b in (A, B)}}]}
    assert any("a single move only as a mate in 1" in p for p in check_record(("a1a8",), "material", None,
                                                                               "makruk", one))
    assert win_chance(900, None) - win_chance(0, None) >= MARGIN
    close = copy.deepcopy(one)
    close["plies"][0]["search"][B][1] = ["a1a2", 600, None]
    assert any("a1a2 (600 cp)" in p for p in check_record(("a1a8",), "material", None, "makruk", close))


def test_a_refusal_is_counted_by_its_reason_without_details():
    assert Rejected("mate: not an only move: ply 1 at 100000 nodes: x").reason == "mate: not an only move"
    assert Rejected("first move: the engine prefers another (a1a2 to b1b2)").reason == \
        "first move: the engine prefers another"
