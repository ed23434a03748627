"""The acceptance's look-ahead: a line built first at a small budget with looser margins (the
sketch), then at the smaller budget alone, refused there before the larger searches, and the
same puzzle as without them when it passes (docs/puzzles.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.puzzles.acceptance import BUDGETS
from bot.puzzles.engine_check import SKETCH, EngineCheck, Rejected

from .support import CountingEngine

ENGINE = "/usr/games/fairy-stockfish"
# A self-play candidate whose first move is an only move at both budgets; after the defender's
# reply, the second solver move is not (Ma c2 is as good as Rua h3).
FAILS_LATER = "3m3r/8/p1spk3/2p1p3/2P1P2p/P2PN3/2KS2SR/1r2M3 w - - 0 28"
# A Rua blunder's punishment (test_selfplay.py): the skewer Ra8+ Kd7 Rxg8.
SKEWER = "3k2r1/2s5/1s1m4/1p1p3p/1P1P3P/3KM3/1S3S2/R7 w - - 0 1"
# A bank puzzle (mk694b5eb9): Rua takes the Ma on b5, the Khon takes back, and Ma d6+ forks the
# Khun and the Rua on e8. At 25,000 nodes Ma e5 looks nearly as good as Ma d6.
SACRIFICE_FORK = "4r3/1k6/2s3p1/Rnrs1p1p/1pN2P1P/1P1KP1P1/3R1MS1/8 w - - 0 36"


@pytest.fixture(scope="module")
def engine() -> Iterator[CountingEngine]:
    with CountingEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as started:
        started.start()
        yield started


def _refusal(engine: CountingEngine, check: EngineCheck) -> tuple[str, list[int | None]]:
    engine.nodes = []
    with pytest.raises(Rejected) as refused:
        check.build(FAILS_LATER, "makruk")
    return refused.value.reason, engine.nodes


def test_the_look_ahead_refuses_a_later_solver_move_before_any_larger_search(engine: CountingEngine) -> None:
    small, large = BUDGETS
    reason, nodes = _refusal(engine, EngineCheck(engine))
    assert reason == "screen: not an only move" and nodes.count(large) >= 2  # the first move's and the reply's
    ahead, nodes = _refusal(engine, EngineCheck(engine, look_ahead=True, sketch=None))
    assert ahead == reason and large not in nodes
    assert nodes == [small, small, small]  # the first move, the reply, the second move


def test_the_sketch_refuses_it_before_the_look_ahead(engine: CountingEngine) -> None:
    nodes, _ = SKETCH
    reason, searched = _refusal(engine, EngineCheck(engine, look_ahead=True))
    assert reason == "screen: not an only move"
    assert searched == [nodes, nodes, nodes]  # the same three searches, at a quarter of the budget


def test_the_sketch_is_looser_than_the_acceptance_at_its_budget(engine: CountingEngine) -> None:
    # Built at the sketch's budget with the acceptance's own margins, the line is refused at
    # its second solver move; the sketch's slack lets it on to the larger budgets, where it passes.
    nodes, _ = SKETCH
    with pytest.raises(Rejected, match="c4e5 close to c4d6"):
        EngineCheck(engine, budgets=(nodes,)).build(SACRIFICE_FORK, "makruk")
    built = EngineCheck(engine, look_ahead=True).build(SACRIFICE_FORK, "makruk")
    assert built.moves == ("a5b5", "c6b5", "c4d6") and built == EngineCheck(engine).build(SACRIFICE_FORK, "makruk")


def test_a_line_that_passes_is_the_same_puzzle_with_its_searches_shared(engine: CountingEngine) -> None:
    engine.nodes = []
    without = EngineCheck(engine).build(SKEWER, "makruk")
    plain = engine.nodes
    engine.nodes = []
    built = EngineCheck(engine, look_ahead=True).build(SKEWER, "makruk")
    assert built == without and built.moves == ("a1a8", "d8d7", "a8g8")
    # Each search of the look-ahead that the full build repeats is run once; the look-ahead
    # adds only its own replies at the smaller budget, and the sketch its own line.
    sketched = engine.nodes.count(SKETCH[0])
    assert sketched == len(without.moves)  # each solver move and each reply, once
    assert len(engine.nodes) - sketched - len(plain) == len(without.moves) // 2
