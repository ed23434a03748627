"""The engine's time per move, by level, and the moves another engine answered instead."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.engines import BuiltinEngine, EnginePosition, LevelledEngine, UciEngine
from bot.observability.metrics import Metrics
from makruk import Board

START = EnginePosition(Board.starting_fen, ())


@pytest.fixture
async def builtin() -> AsyncIterator[BuiltinEngine]:
    engine = BuiltinEngine(seed=7, time_scale=0.2)
    yield engine
    await engine.aclose()


async def test_each_move_is_timed_under_its_level(builtin):
    metrics = Metrics()
    engine = LevelledEngine(builtin, metrics=metrics)
    await engine.best_move(START, level=1)
    await engine.best_move(START, level=1)
    await engine.best_move(START, level=2)
    assert metrics.value("makruk_engine_move_seconds_count", level="1") == 2
    assert metrics.value("makruk_engine_move_seconds_count", level="2") == 1
    assert metrics.value("makruk_engine_move_seconds_sum", level="1") > 0
    assert metrics.value("makruk_engine_fallbacks_total", to="builtin") == 0


async def test_a_fairy_stockfish_that_cannot_start_counts_a_fallback(builtin, tmp_path):
    metrics = Metrics()
    fairy = UciEngine(str(tmp_path / "no-such-engine"))
    engine = LevelledEngine(builtin, fairy, metrics=metrics)
    try:
        await engine.best_move(START, level=6)
    finally:
        await fairy.aclose()
    assert metrics.value("makruk_engine_fallbacks_total", to="builtin") == 1
    assert metrics.value("makruk_engine_move_seconds_count", level="6") == 1
