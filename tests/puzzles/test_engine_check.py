"""The acceptance's look-ahead: a line built first at the smaller budget alone, refused there
before the larger searches, and the same puzzle as without it when it passes (docs/puzzles.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.engines import EnginePosition, SyncUciEngine
from bot.engines.uci import UciResult
from bot.puzzles.acceptance import BUDGETS
from bot.puzzles.engine_check import EngineCheck, Rejected

ENGINE = "/usr/games/fairy-stockfish"
# A self-play candidate whose first move is an only move at both budgets; after the defender's
# reply, the second solver move is not (Ma c2 is as good as Rua h3).
FAILS_LATER = "3m3r/8/p1spk3/2p1p3/2P1P2p/P2PN3/2KS2SR/1r2M3 w - - 0 28"
# A Rua blunder's punishment (test_selfplay.py): the skewer Ra8+ Kd7 Rxg8.
SKEWER = "3k2r1/2s5/1s1m4/1p1p3p/1P1P3P/3KM3/1S3S2/R7 w - - 0 1"


class Counted:
    """The engine, counting the searches it is sent by node budget."""

    def __init__(self, engine: SyncUciEngine) -> None:
        self.engine = engine
        self.nodes: list[int | None] = []

    def new_game(self) -> None:
        self.engine.new_game()

    def go(self, position: EnginePosition, **limits: Any) -> UciResult:
        self.nodes.append(limits.get("nodes"))
        return self.engine.go(position, **limits)


@pytest.fixture(scope="module")
def engine() -> Iterator[SyncUciEngine]:
    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as started:
        started.start()
        yield started


def _refusal(engine: SyncUciEngine, *, look_ahead: bool) -> tuple[str, list[int | None]]:
    counted = Counted(engine)
    with pytest.raises(Rejected) as refused:
        EngineCheck(counted, look_ahead=look_ahead).build(FAILS_LATER, "makruk")  # type: ignore[arg-type]
    return refused.value.reason, counted.nodes


def test_the_look_ahead_refuses_a_later_solver_move_before_any_larger_search(engine: SyncUciEngine) -> None:
    small, large = BUDGETS
    reason, nodes = _refusal(engine, look_ahead=False)
    assert reason == "screen: not an only move" and nodes.count(large) >= 2  # the first move's and the reply's
    ahead, nodes = _refusal(engine, look_ahead=True)
    assert ahead == reason and large not in nodes
    assert nodes == [small, small, small]  # the first move, the reply, the second move


def test_a_line_that_passes_is_the_same_puzzle_with_its_searches_shared(engine: SyncUciEngine) -> None:
    plain = Counted(engine)
    without = EngineCheck(plain).build(SKEWER, "makruk")  # type: ignore[arg-type]
    ahead = Counted(engine)
    built = EngineCheck(ahead, look_ahead=True).build(SKEWER, "makruk")  # type: ignore[arg-type]
    assert built == without and built.moves == ("a1a8", "d8d7", "a8g8")
    # Each search of the look-ahead that the full build repeats is run once; the look-ahead
    # adds only its own replies at the smaller budget.
    assert len(ahead.nodes) - len(plain.nodes) == len(without.moves) // 2
