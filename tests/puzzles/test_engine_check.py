"""The acceptance's look-ahead: a line built first at the smaller budget alone, refused there
before the larger searches, and the same puzzle as without it when it passes (docs/puzzles.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.puzzles.acceptance import BUDGETS
from bot.puzzles.engine_check import EngineCheck, Rejected

from .support import CountingEngine

ENGINE = "/usr/games/fairy-stockfish"
# A self-play candidate whose first move is an only move at both budgets; after the defender's
# reply, the second solver move is not (Ma c2 is as good as Rua h3).
FAILS_LATER = "3m3r/8/p1spk3/2p1p3/2P1P2p/P2PN3/2KS2SR/1r2M3 w - - 0 28"
# A Rua blunder's punishment (test_selfplay.py): the skewer Ra8+ Kd7 Rxg8.
SKEWER = "3k2r1/2s5/1s1m4/1p1p3p/1P1P3P/3KM3/1S3S2/R7 w - - 0 1"


@pytest.fixture(scope="module")
def engine() -> Iterator[CountingEngine]:
    with CountingEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as started:
        started.start()
        yield started


def _refusal(engine: CountingEngine, *, look_ahead: bool) -> tuple[str, list[int | None]]:
    engine.nodes = []
    with pytest.raises(Rejected) as refused:
        EngineCheck(engine, look_ahead=look_ahead).build(FAILS_LATER, "makruk")
    return refused.value.reason, engine.nodes


def test_the_look_ahead_refuses_a_later_solver_move_before_any_larger_search(engine: CountingEngine) -> None:
    small, large = BUDGETS
    reason, nodes = _refusal(engine, look_ahead=False)
    assert reason == "screen: not an only move" and nodes.count(large) >= 2  # the first move's and the reply's
    ahead, nodes = _refusal(engine, look_ahead=True)
    assert ahead == reason and large not in nodes
    assert nodes == [small, small, small]  # the first move, the reply, the second move


def test_a_line_that_passes_is_the_same_puzzle_with_its_searches_shared(engine: CountingEngine) -> None:
    engine.nodes = []
    without = EngineCheck(engine).build(SKEWER, "makruk")
    plain = engine.nodes
    engine.nodes = []
    built = EngineCheck(engine, look_ahead=True).build(SKEWER, "makruk")
    assert built == without and built.moves == ("a1a8", "d8d7", "a8g8")
    # Each search of the look-ahead that the full build repeats is run once; the look-ahead
    # adds only its own replies at the smaller budget.
    assert len(engine.nodes) - len(plain) == len(without.moves) // 2
