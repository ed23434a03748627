"""The UCI client: reading ``info`` reports, and the conversation with an engine that misbehaves."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bot.engines import Analysis, EngineError, EnginePosition, SyncUciEngine, UciEngine
from bot.engines.uci import InfoLine, UciResult, final_lines, go_command, parse_info_line, position_command
from makruk import Board

from .fake_uci import commands, fake_engine

START = EnginePosition(Board.starting_fen, ("e3e4",))
MATE1 = "7k/8/4p2K/8/8/4P3/8/R7 w - - 0 1"  # Ra8# is the only mate

# --- info reports -------------------------------------------------------------------------


def test_an_exact_report_keeps_every_field_the_bot_uses():
    line = "info depth 9 seldepth 12 multipv 2 score cp -35 nodes 900 nps 1 tbhits 0 time 1 pv c2h2 h3g3 a1g1"
    assert parse_info_line(line) == InfoLine(-35, None, ("c2h2", "h3g3", "a1g1"), depth=9, nodes=900, multipv=2)
    info = parse_info_line("info depth 4 score cp 10 pv e3e4")
    assert info is not None and info.multipv == 1 and info.exact and info.best == "e3e4"


def test_mate_scores_count_moves_for_the_side_to_move():
    mating = parse_info_line("info depth 5 multipv 1 score mate 3 nodes 10 pv c2h2 h3g3 a1g1")
    mated = parse_info_line("info depth 5 multipv 1 score mate -2 nodes 10 pv a1a2")
    assert mating is not None and mating.mate == 3 and mating.score_cp is None and mating.mates
    assert mated is not None and mated.mate == -2 and not mated.mates
    assert mating.value() == 100_000 - 3 and mated.value() == -100_000 + 2
    assert mating.analysis() == Analysis(None, 3, ("c2h2", "h3g3", "a1g1"), 5, 10)


def test_bound_scores_are_kept_with_their_bound():
    lower = parse_info_line("info depth 9 multipv 1 score cp 31 lowerbound nodes 10 pv e3e4")
    upper = parse_info_line("info depth 9 multipv 1 score mate 4 upperbound nodes 10 pv e3e4")
    assert lower is not None and lower.score_cp == 31 and lower.bound == "lower" and not lower.exact
    assert upper is not None and upper.mate == 4 and upper.bound == "upper"


@pytest.mark.parametrize("line", [
    "info string variant makruk score cp 5",
    "info depth 5 currmove e3e4 currmovenumber 1",
    "info depth 5 seldepth 7 nodes 100",
    "info depth 5 score cp",
    "info depth x score cp 5 pv e3e4",
    "info depth 5 score wdl 500 pv e3e4",
    "bestmove e3e4",
    "",
])
def test_reports_without_a_readable_score_are_skipped(line):
    assert parse_info_line(line) is None


def test_a_report_without_a_line_is_read():
    # Fairy-Stockfish says this of a position where the side to move is mated.
    assert parse_info_line("info depth 0 score mate 0") == InfoLine(None, 0, ())


def test_the_last_exact_report_of_each_line_is_final_and_a_bound_only_stands_in_for_none():
    first = InfoLine(20, None, ("a3a4",), depth=5)
    second = InfoLine(10, None, ("b3b4",), depth=5, multipv=2)
    deeper = InfoLine(25, None, ("a3a4", "a6a5"), depth=6)
    failed_high = InfoLine(90, None, ("c3c4",), depth=7, bound="lower")
    only_bound = InfoLine(-5, None, ("h3h4",), depth=5, multipv=3, bound="upper")
    assert final_lines([first, second, deeper, failed_high, only_bound]) == (deeper, second, only_bound)
    assert final_lines([failed_high, InfoLine(60, None, ("c3c4",), depth=8, bound="lower")])[0].score_cp == 60
    assert final_lines([]) == ()


def test_a_result_reads_as_the_main_lines_analysis():
    main = InfoLine(25, None, ("a3a4", "a6a5"), depth=6, nodes=99)
    result = UciResult("a3a4", (main, InfoLine(10, None, ("b3b4",), multipv=2)))
    assert result.analysis == Analysis(25, None, ("a3a4", "a6a5"), 6, 99)
    assert UciResult(None).analysis == Analysis(0, None, ())


def test_the_commands_are_written_as_uci_says():
    assert position_command(START) == f"position fen {Board.starting_fen} moves e3e4"
    assert position_command(EnginePosition(MATE1, ())) == f"position fen {MATE1}"
    assert go_command(movetime=250) == "go movetime 250"
    with pytest.raises(ValueError, match="limit"):
        go_command()


# --- the conversation, with a fake engine ------------------------------------------------------


async def test_the_handshake_options_position_and_go_are_sent_once_each(tmp_path):
    path, log = fake_engine(tmp_path, "ok")
    engine = UciEngine(path, options={"Hash": 16})
    try:
        result = await engine.go(START, nodes=500, multipv=2)
        assert result.bestmove == "a6a5" and result.analysis.best == "a6a5" and not result.stopped
        assert engine.id_name == "Fake 1.0"
        await engine.go(START, depth=3, multipv=2)
    finally:
        await engine.aclose()
    assert commands(log) == [
        "uci", "setoption name Threads value 1", "setoption name Hash value 16",
        "setoption name UCI_Variant value makruk", "isready",
        "setoption name Skill Level value 20", "setoption name MultiPV value 2",
        f"position fen {Board.starting_fen} moves e3e4", "go nodes 500",
        f"position fen {Board.starting_fen} moves e3e4", "go depth 3",
        "quit",
    ]


async def test_a_bound_report_does_not_replace_an_exact_one(tmp_path):
    engine = UciEngine(fake_engine(tmp_path, "bounds")[0])
    try:
        result = await engine.go(START, nodes=500, multipv=2)
    finally:
        await engine.aclose()
    assert result.bestmove == "b6b5" and len(result.infos) == 3
    main, second = result.lines
    assert main.exact and main.depth == 1 and main.score_cp == 12  # not the deeper "80 lowerbound"
    assert second.bound == "upper" and second.best == "h6h5"  # nothing exact came for this line
    assert result.analysis == Analysis(12, None, ("a6a5", "e4e5"), 1, 30)


async def test_a_search_that_overruns_is_stopped_and_answers_with_what_it_has(tmp_path, monkeypatch):
    monkeypatch.setattr("bot.engines.uci.STOP_GRACE_SECONDS", 60.0)  # the answer to "stop" may be slow here
    path, log = fake_engine(tmp_path, "slow")
    engine = UciEngine(path, margin=60.0)
    try:
        result = await engine.go(START, nodes=1000, timeout=0.2)
        assert result.stopped and result.bestmove == "a6a5" and result.analysis.score_cp == 12
        assert engine.pid is not None  # it answered the stop: no need for a new process
    finally:
        await engine.aclose()
    assert commands(log)[-3:] == ["go nodes 1000", "stop", "quit"]


async def test_an_engine_that_does_not_stop_is_killed(tmp_path):
    path, log = fake_engine(tmp_path, "hang")
    engine = UciEngine(path, margin=0.2)
    try:
        with pytest.raises(EngineError, match="did not stop"):
            await engine.go(START, movetime=100)
        assert "stop" in commands(log) and engine.pid is None
    finally:
        await engine.aclose()


async def test_an_engine_that_dies_mid_search_is_started_again_on_the_next(tmp_path):
    path, log = fake_engine(tmp_path, "die-once")
    engine = UciEngine(path)
    try:
        with pytest.raises(EngineError, match="exited"):
            await engine.go(START, nodes=500)
        assert engine.pid is None
        result = await engine.go(START, nodes=500)
        assert result.bestmove == "a6a5"
    finally:
        await engine.aclose()
    assert commands(log).count("uci") == 2


async def test_an_engine_that_never_finishes_its_handshake_fails_in_time(tmp_path, monkeypatch):
    monkeypatch.setattr("bot.engines.uci.START_SECONDS", 0.2)
    engine = UciEngine(fake_engine(tmp_path, "mute")[0])
    try:
        with pytest.raises(EngineError, match="uciok"):
            await engine.go(START, nodes=500)
        assert engine.pid is None
    finally:
        await engine.aclose()


async def test_a_missing_engine_is_an_engine_error(tmp_path):
    engine = UciEngine(str(tmp_path / "missing"))
    with pytest.raises(EngineError):
        await engine.start()
    await engine.aclose()


async def test_a_cancelled_search_kills_the_engine(tmp_path):
    path, log = fake_engine(tmp_path, "hang")
    engine = UciEngine(path)
    try:
        search = asyncio.create_task(engine.go(START, depth=30))
        while "go depth 30" not in commands(log):
            await asyncio.sleep(0.01)
        search.cancel()
        with pytest.raises(asyncio.CancelledError):
            await search
        assert engine.pid is None  # its late answer cannot be taken for the next search's
    finally:
        await engine.aclose()


# --- Fairy-Stockfish itself ---------------------------------------------------------------------


async def test_fairy_stockfish_killed_between_searches_is_started_again(fairy):
    first = await fairy.go(START, nodes=2000)
    pid = fairy.pid
    assert first.bestmove is not None and pid is not None
    os.kill(pid, signal.SIGKILL)
    while fairy.pid is not None:  # the event loop sees the exit
        await asyncio.sleep(0.01)
    second = await fairy.go(START, nodes=2000)
    assert second.bestmove == first.bestmove and fairy.pid not in (None, pid)


async def test_fairy_stockfish_reports_mates_and_every_line_asked_for(fairy):
    result = await fairy.go(EnginePosition(MATE1, ()), depth=6, multipv=3)
    assert result.bestmove == "a1a8" and [line.multipv for line in result.lines] == [1, 2, 3]
    assert result.lines[0].mate == 1 and result.lines[0].exact
    assert all(line.mate != 1 for line in result.lines[1:])  # the verifier proves Ra8 the only mate in 1


def test_the_blocking_wrapper_runs_the_same_client(fairy_path: str, tmp_path: Path):
    with SyncUciEngine(fairy_path, options={"Hash": 16}) as engine:
        engine.start()
        assert engine.id_name is not None and engine.id_name.startswith("Fairy-Stockfish")
        first = engine.go(EnginePosition(MATE1, ()), depth=4)
        engine.new_game()
        assert engine.go(EnginePosition(MATE1, ()), depth=4).lines == first.lines
        assert first.lines[0].mate == 1
    with SyncUciEngine(fake_engine(tmp_path, "die-once")[0]) as engine:
        with pytest.raises(EngineError):
            engine.go(START, nodes=10)
        assert engine.go(START, nodes=10).bestmove == "a6a5"
