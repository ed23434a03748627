"""Fixtures for the engine tests. Fairy-Stockfish must be installed: without it they fail."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.engines import LEVELS, BuiltinEngine, LevelledEngine, UciEngine, find_fairy_stockfish

TEST_TIME_SCALE = 0.2  # the built-in engine thinks a fifth of its normal time here


@pytest.fixture(scope="session")
def fairy_path() -> str:
    path = find_fairy_stockfish(os.environ.get("FAIRY_STOCKFISH"))
    if path is None:
        pytest.fail("Fairy-Stockfish is missing: install the fairy-stockfish package or set FAIRY_STOCKFISH")
    return path


@pytest.fixture
async def builtin() -> AsyncIterator[BuiltinEngine]:
    """A built-in engine of the test's own: a fresh worker process (an empty table) and a seeded
    random generator, so that no test's moves depend on the tests that ran before it."""
    engine = BuiltinEngine(seed=7, time_scale=TEST_TIME_SCALE)
    yield engine
    await engine.aclose()


@pytest.fixture
async def fairy(fairy_path: str) -> AsyncIterator[UciEngine]:
    """Fairy-Stockfish of the test's own (a new process, an empty hash)."""
    engine = UciEngine(fairy_path)
    yield engine
    await engine.aclose()


@pytest.fixture
def engine(builtin: BuiltinEngine, fairy: UciEngine) -> LevelledEngine:
    """Levels 1-4 built-in, 5-8 Fairy-Stockfish; closing is left to the two fixtures above."""
    return LevelledEngine(builtin, fairy)


@pytest.fixture
def light_level_5(monkeypatch: pytest.MonkeyPatch) -> int:
    """Level 5 at a small node count, to keep the tests that play many moves light."""
    monkeypatch.setitem(LEVELS, 5, replace(LEVELS[5], nodes=1_000))
    return 5
