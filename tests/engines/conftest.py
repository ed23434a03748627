"""Fixtures for the engine tests. Fairy-Stockfish must be installed: without it they fail."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from bot.clock import FakeClock
from bot.engines import LEVELS, BuiltinEngine, LevelledEngine, UciEngine, find_fairy_stockfish

TEST_TIME_SCALE = 0.2  # the built-in engine thinks a fifth of its normal time here


@pytest.fixture(scope="session")
def fairy_path() -> str:
    path = find_fairy_stockfish(os.environ.get("FAIRY_STOCKFISH"))
    if path is None:
        pytest.fail("Fairy-Stockfish is missing: install the fairy-stockfish package or set FAIRY_STOCKFISH")
    return path


@pytest.fixture(scope="session")
def builtin():
    """One built-in engine (one worker process) for the whole session."""
    engine = BuiltinEngine(seed=7, time_scale=TEST_TIME_SCALE)
    yield engine
    engine.pool.close()


@pytest.fixture
async def fairy(fairy_path):
    engine = UciEngine(fairy_path)
    yield engine
    await engine.aclose()


@pytest.fixture
def engine(builtin, fairy) -> LevelledEngine:
    """Levels 1-4 built-in, 5-8 Fairy-Stockfish; closing is left to the two fixtures above."""
    return LevelledEngine(builtin, fairy)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def light_level_5(monkeypatch) -> int:
    """Level 5 at a small node count, to keep the tests that play many moves light."""
    monkeypatch.setitem(LEVELS, 5, replace(LEVELS[5], nodes=1_000))
    return 5
