"""Fault injection: whatever fails, the bot's engine answers a legal move (issue 13).

Fairy-Stockfish killed mid-search, missing, hanging, dying or breaking our rules; the built-in
engine's worker killed mid-search; everything failing at once. No test measures time: each
waits for the engine to report that it searches, then kills it, then awaits the answer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.engines import LEVELS, BuiltinEngine, EngineError, EnginePosition, LevelledEngine, UciEngine
from bot.engines.base import rules_move
from bot.engines.builtin.pool import WORKER_NICENESS, SearchPool
from bot.engines.builtin.search import Limits, SearchResult
from makruk import Board

from . import support
from .fake_uci import commands, fake_engine
from .support import legal_ucis

START = EnginePosition(Board.starting_fen, ("e3e4",))
MATED = EnginePosition("7k/8/4p2K/8/8/4P3/8/R7 w - - 0 1", ("a1a8",))  # Black to move is checkmated


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The engines' warnings (not asyncio's, which may say it did not reap a dead child itself)."""
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and r.name.startswith("bot.")]


# --- Fairy-Stockfish ------------------------------------------------------------------------------


async def test_fairy_stockfish_killed_mid_search_is_restarted_and_answers_that_move(
        builtin, fairy_path, monkeypatch, caplog):
    monkeypatch.setitem(LEVELS, 8, replace(LEVELS[8], seconds=0.5))  # a short search, but a search
    fairy = UciEngine(fairy_path)
    engine = LevelledEngine(builtin, fairy)
    try:
        with caplog.at_level(logging.WARNING):
            move = asyncio.create_task(engine.best_move(START, level=8))
            while not fairy.searching:
                await asyncio.sleep(0.01)
            killed = fairy.pid
            assert killed is not None
            os.kill(killed, signal.SIGKILL)
            assert await move in legal_ucis(START)
        assert fairy.pid not in (None, killed)  # a new Fairy-Stockfish ...
        assert any("asking it once more" in w for w in warnings(caplog))
        assert not any("built-in engine answers" in w for w in warnings(caplog))  # ... answered that move
    finally:
        await fairy.aclose()


async def test_an_engine_that_dies_mid_search_is_restarted_for_the_same_move(tmp_path, builtin):
    path, log = fake_engine(tmp_path, "die-once")
    fairy = UciEngine(path)
    try:
        assert await LevelledEngine(builtin, fairy).best_move(START, level=6) == "a6a5"  # the fake's move
        assert commands(log).count("uci") == 2 and fairy.pid is not None
    finally:
        await fairy.aclose()


async def test_an_engine_that_keeps_dying_is_asked_twice_then_the_builtin_engine_answers(
        tmp_path, builtin, caplog):
    path, log = fake_engine(tmp_path, "die")
    fairy = UciEngine(path)
    try:
        with caplog.at_level(logging.WARNING):
            assert await LevelledEngine(builtin, fairy).best_move(START, level=7) in legal_ucis(START)
        assert commands(log).count("uci") == 2
        said = warnings(caplog)
        assert "asking it once more" in said[0] and "the built-in engine answers" in said[1]
    finally:
        await fairy.aclose()


async def test_a_hanging_engine_is_stopped_killed_and_asked_again_then_the_builtin_engine_answers(
        tmp_path, builtin):
    path, log = fake_engine(tmp_path, "hang")
    fairy = UciEngine(path, margin=0.2)
    try:
        assert await LevelledEngine(builtin, fairy).best_move(START, level=5) in legal_ucis(START)
        said = commands(log)
        assert said.count("uci") == 2 and said.count("stop") == 2 and said[-1] == "stop"
        assert fairy.pid is None
    finally:
        await fairy.aclose()


async def test_an_answer_our_rules_forbid_is_asked_again_among_our_legal_moves(tmp_path, builtin, caplog):
    path, log = fake_engine(tmp_path, "illegal")
    fairy = UciEngine(path)
    try:
        with caplog.at_level(logging.WARNING):
            assert await LevelledEngine(builtin, fairy).best_move(START, level=5) in legal_ucis(START)
        first, second = [c for c in commands(log) if c.startswith("go")]
        assert first == "go nodes 20000"
        assert second == "go nodes 20000 searchmoves " + " ".join(sorted(legal_ucis(START)))
        assert sum("not legal under our rules" in w for w in warnings(caplog)) == 2
        assert commands(log).count("uci") == 1  # it answered: no reason to restart it
    finally:
        await fairy.aclose()


async def test_fairy_stockfish_searches_only_the_moves_it_is_given(fairy):
    result = await fairy.go(START, nodes=2_000, searchmoves=("a8a7",))  # a poor move it would not choose
    assert result.bestmove == "a8a7"


async def test_without_its_program_levels_5_to_8_are_answered_by_the_builtin_engine(tmp_path, builtin, caplog):
    fairy = UciEngine(str(tmp_path / "no-such-fairy-stockfish"))
    engine = LevelledEngine(builtin, fairy)
    try:
        with caplog.at_level(logging.WARNING):
            for level in (5, 6, 7, 8):
                assert await engine.best_move(START, level=level) in legal_ucis(START)
            analysis = await engine.analyse(START, seconds=0.1)
        assert analysis.best in legal_ucis(START)
        assert sum("the built-in engine answers" in w for w in warnings(caplog)) == 4
        assert fairy.pid is None
    finally:
        await fairy.aclose()


async def test_analysis_is_asked_again_after_a_death(tmp_path, builtin):
    path, log = fake_engine(tmp_path, "die-once")
    fairy = UciEngine(path)
    try:
        analysis = await LevelledEngine(builtin, fairy).analyse(START, seconds=0.1)
        assert analysis.pv == ("a6a5", "e4e5")  # the restarted fake's line
        assert commands(log).count("uci") == 2
    finally:
        await fairy.aclose()


# --- the built-in engine's worker pool --------------------------------------------------------------


async def test_the_worker_killed_mid_search_the_pool_is_rebuilt_and_answers(builtin, tmp_path, monkeypatch, caplog):
    monkeypatch.setenv(support.HOLD_DIRECTORY, str(tmp_path))  # before the pool starts its worker
    monkeypatch.setattr("bot.engines.builtin.think", support.think_held_once)
    (tmp_path / "armed").touch()
    engine = LevelledEngine(builtin)
    try:
        with caplog.at_level(logging.WARNING):
            move = asyncio.create_task(engine.best_move(START, level=2))
            while not (tmp_path / "searching").exists():
                await asyncio.sleep(0.01)
            (killed,) = builtin.pool.pids()
            os.kill(killed, signal.SIGKILL)
            assert await move in legal_ucis(START)
        assert builtin.pool.pids() and killed not in builtin.pool.pids()  # a new worker answered
        assert any("the pool is rebuilt" in w for w in warnings(caplog))
        assert not any("quick move" in w for w in warnings(caplog))
    finally:
        (tmp_path / "release").touch()  # if the test failed before the kill


async def test_workers_search_at_low_priority_and_one_that_overruns_is_killed(tmp_path):
    pool = SearchPool()
    at_once = str(tmp_path / "at-once")  # started and released by the same file: no wait
    try:
        assert await pool.run(support.hold_until, at_once, at_once, timeout=60)
        (worker,) = pool.pids()
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, own + WORKER_NICENESS)
        with pytest.raises(EngineError, match="longer than"):
            await pool.run(support.hold_until, str(tmp_path / "searching"), str(tmp_path / "release"), timeout=0.5)
        while not ended(worker):
            await asyncio.sleep(0.01)
        assert await pool.run(support.hold_until, at_once, at_once, timeout=60)
        assert pool.pids() and worker not in pool.pids()  # a new worker
    finally:
        (tmp_path / "release").touch()
        await pool.aclose()


def ended(pid: int) -> bool:
    """The process is gone, or dead and not yet reaped (a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone before or while it was read
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def test_a_worker_whose_bot_died_before_it_started_ends_itself() -> None:
    # The bot is killed while its worker is still starting: by the time the worker's
    # initializer runs, the worker belongs to init. It must still notice and end, or it keeps
    # the killed bot's pipes (and a restarted bot's terminal) open for ever.
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    worker = subprocess.Popen([
        sys.executable, "-c",
        f"from bot.engines.builtin.pool import _init_worker; _init_worker({gone.pid}); import time; time.sleep(600)",
    ])
    try:
        assert await asyncio.to_thread(worker.wait, 60) == 0
    finally:
        worker.kill()
        worker.wait()


class BrokenSearcher:
    def search(self, board: Board, limits: Limits, *, all_root_scores: bool = False) -> SearchResult:
        raise RuntimeError("a bug in the search")


async def test_when_every_engine_fails_the_rules_core_answers(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr("bot.engines.builtin.think", support.die)  # every worker dies in every search
    monkeypatch.setattr("bot.engines.builtin.Searcher", BrokenSearcher)  # and the search here fails
    builtin = BuiltinEngine(time_scale=0.2)
    fairy = UciEngine(str(tmp_path / "no-such-fairy-stockfish"))
    engine = LevelledEngine(builtin, fairy)
    try:
        with caplog.at_level(logging.WARNING):
            assert await engine.best_move(START, level=8) == rules_move(START.board())
            said = warnings(caplog)
            assert any("keep dying" in w for w in said) and "a move chosen by the rules alone" in said[-1]
            with pytest.raises(EngineError):  # a hint may be refused ...
                await engine.analyse(START, seconds=0.1)
            assert not await engine.accepts_draw(START, level=8)  # ... a draw offer is declined
    finally:
        await fairy.aclose()
        await builtin.aclose()


async def test_a_failed_decision_on_counting_or_a_draw_means_no(builtin, caplog):
    engine = LevelledEngine(builtin)
    broken = EnginePosition("not a position", ())
    with caplog.at_level(logging.WARNING):
        assert not await engine.wants_count(broken)
        assert not await engine.accepts_draw(broken, level=3)
    assert len(warnings(caplog)) == 2


async def test_a_position_without_a_legal_move_is_the_only_one_refused(builtin):
    assert MATED.board().is_checkmate()
    with pytest.raises(EngineError, match="game is over"):
        await LevelledEngine(builtin).best_move(MATED, level=2)


def test_the_rules_alone_choose_a_legal_move():
    for position in support.random_positions(20, seed=13):
        assert rules_move(position.board()) in legal_ucis(position)
    with pytest.raises(EngineError):
        rules_move(MATED.board())
