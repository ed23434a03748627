"""The generator's parts: comparing the engine's lines, the bank file, themes, and a short real run.

(The UCI client the generator talks through is tested in tests/engines/test_uci.py.)
"""

from __future__ import annotations

import fcntl
import multiprocessing
from pathlib import Path
from typing import Any

import pytest

from bot.engines import InfoLine, SyncUciEngine
from bot.puzzles.acceptance import check_record
from bot.puzzles.bank import (
    BankPuzzle,
    append_records,
    load_bank,
    load_runs,
    load_verification,
    read_records,
    write_bank,
)
from bot.puzzles.generate import GenerateSettings, generate, generate_in_parallel, worker_seed, worker_state
from bot.puzzles.selfplay import PlaySettings
from bot.puzzles.shelf import BankRewritten, Shelf, load_state, locked, puzzle_id
from bot.puzzles.themes import is_sacrifice, rating, tags
from bot.puzzles.verify import verify_puzzle

from .support import MATE2, MATE2_TWO_ENDINGS, MATERIAL, CountingEngine

ENGINE = "/usr/games/fairy-stockfish"


def test_lines_compare_mates_beyond_centipawns():
    mate2, mate5, up, mated = (InfoLine(None, 2, ("a1a2",)), InfoLine(None, 5, ("b1b2",)),
                               InfoLine(900, None, ("c1c2",)), InfoLine(None, -1, ("d1d2",)))
    assert sorted([up, mated, mate5, mate2], key=lambda x: -x.value()) == [mate2, mate5, up, mated]
    assert mate2.mates and not mated.mates


def test_the_bank_file_keeps_headers_and_puzzles_apart(tmp_path):
    bank = tmp_path / "bank.jsonl"
    p = BankPuzzle("mk1", MATE2.fen, MATE2.solution, "mate", 2, 1100, ("mate",), run="r1", extra={"found_depth": 3})
    append_records(bank, [{"run": "r1", "engine": "Fairy-Stockfish 11.1 LB 64", "settings": {"seed": 1}}, p])
    append_records(bank, [{"run": "r2", "engine": "x"}])
    assert load_bank(bank) == [p] and load_bank(bank)[0].extra == {"found_depth": 3}
    assert [r["run"] for r in load_runs(bank)] == ["r1", "r2"]
    assert len(list(read_records(bank))) == 3
    assert p.to_record().source == "r1" and p.to_record().solution == MATE2.solution
    assert load_bank(tmp_path / "missing.jsonl") == []


def test_themes_and_ratings_follow_the_line():
    assert tags(MATE2.fen, MATE2.solution, "mate", 2) == ("mate", "mateIn2", "check", "rua", "short", "middlegame")
    assert "promotion" in tags(MATE2_TWO_ENDINGS.fen, MATE2_TWO_ENDINGS.solution, "mate", 2)
    assert tags(MATERIAL.fen, MATERIAL.solution, "material", None)[:3] == ("material", "check", "capture")
    assert not is_sacrifice(MATERIAL.fen, MATERIAL.solution)
    easy = rating(MATE2.fen, MATE2.solution, "mate", 2, found_depth=1)
    hard = rating(MATE2.fen, MATE2.solution, "mate", 2, found_depth=9)
    assert 500 <= easy < hard <= 2600 and easy % 10 == 0
    assert puzzle_id(MATE2.fen, "c2h2") == puzzle_id(MATE2.fen.replace(" 0 61", " 5 70"), "c2h2")


def test_a_short_run_keeps_its_state_and_resumes(tmp_path: Path):
    state_path = tmp_path / "state.json"
    play = PlaySettings(blunders=1, max_plies=40)  # short games: the state is what is tested
    settings = GenerateSettings(targets={"makruk": 50}, seed=11, play=play)
    first = generate(settings, directory=tmp_path, state_path=state_path, engine_path=ENGINE, max_games=1)
    assert first["games"] == {"makruk": 1} and first["seed"] == 11
    # A second run resumes: the seed of the state wins over the new settings', the counter goes on.
    again = generate(GenerateSettings(targets={"makruk": 50}, seed=99, play=play), directory=tmp_path,
                     state_path=state_path, engine_path=ENGINE, max_games=1)
    assert again["games"] == {"makruk": 2} and again["seed"] == 11
    # Told to stop (a worker whose parent is gone), it plays no game more.
    stopped = generate(settings, directory=tmp_path, state_path=state_path, engine_path=ENGINE, stop=lambda: True)
    assert stopped["games"] == {"makruk": 2}
    assert again["cpu_seconds"]["makruk"] > first["cpu_seconds"]["makruk"] > 0
    assert sum(again["rejected"].get("makruk", {}).values()) + again["kept"].get("makruk", 0) \
        == again["candidates"].get("makruk", 0)


# An opening trap two games fell into from different pawns: Black's Ma takes on e3 and mates the
# Khun on d1 (its own Ma and Khon shut it in).
TRAP = "1nsmks1r/r7/ppppppp1/5n1p/2P5/PP1PPPPP/3NN3/R1SKMS1R b - - 0 5"
TRAP_AGAIN = "rnsmks1r/8/ppp2pp1/3ppnPp/8/PPPPPP1P/3NN1S1/R1SKM1R1 b - - 0 6"


def test_a_puzzle_repeating_anothers_line_against_the_same_khun_square_is_refused(tmp_path: Path):
    state = load_state(tmp_path / "state.json")
    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        kept = Shelf(tmp_path, {"makruk": 50}, state, engine, {}).offer(TRAP, "makruk")
        assert kept is not None and kept.moves == ("f5e3",)
        # A new run reads the bank: the same mate from other pawns is the same puzzle to a player.
        shelf = Shelf(tmp_path, {"makruk": 50}, state, engine, {})
        assert shelf.offer(TRAP_AGAIN, "makruk") is None
    # The kept one is in the bank, proved, its engine output stored beside it and passing.
    assert load_bank(tmp_path / "bank.jsonl") == [kept] and verify_puzzle(kept).ok
    record = load_verification(tmp_path / "verification.jsonl")[kept.id]
    assert check_record(kept.moves, kept.kind, kept.mate_in, kept.variant, record) == []
    assert list(state["rejected"]["makruk"]) == ["repeat: another puzzle's line against the Khun on the same square"]


def test_once_the_warm_ups_have_their_share_a_mate_in_1_is_refused_before_any_search(tmp_path: Path):
    state = load_state(tmp_path / "state.json")
    with CountingEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        shelf = Shelf(tmp_path, {"makruk": 10}, state, engine, {})  # a tenth of 10: one warm-up
        assert shelf.offer(TRAP, "makruk") is not None and engine.nodes  # searched and kept
        engine.nodes = []
        assert shelf.offer(TRAP_AGAIN, "makruk") is None and engine.nodes == []
    assert state["rejected"]["makruk"] == {"warm-up: enough mates in 1": 1}


def test_runs_sharing_the_banks_see_each_others_puzzles_before_searching(tmp_path: Path):
    with CountingEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        # Two runs started on the same empty banks; a tenth of 10: one warm-up.
        first = Shelf(tmp_path, {"makruk": 10}, load_state(tmp_path / "a.json"), engine, {})
        second = Shelf(tmp_path, {"makruk": 10}, load_state(tmp_path / "b.json"), engine, {})
        assert first.offer(TRAP, "makruk") is not None
        engine.nodes = []
        assert second.offer(TRAP, "makruk") is None  # the first run's position: not a candidate
        assert second.offer(TRAP_AGAIN, "makruk") is None and engine.nodes == []  # the share is full
        assert second.have == {"makruk": 1} and second.warmups == {"makruk": 1}
    assert second.state["rejected"] == {"makruk": {"warm-up: enough mates in 1": 1}}
    assert len(load_bank(tmp_path / "bank.jsonl")) == 1


def offer_while_another_run_keeps(directory: Path, fen: str, kept_meanwhile: str) -> Shelf:
    """Two runs on ``directory``'s banks: the second offers ``fen`` and, during its search, the
    first keeps ``kept_meanwhile`` (the two runs' searches overlapping); returns the second."""
    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        first = Shelf(directory, {"makruk": 50}, load_state(directory / "a.json"), engine, {})
        second = Shelf(directory, {"makruk": 50}, load_state(directory / "b.json"), engine, {})
        build = second.check.build

        def build_while_the_first_run_keeps(*args, **kwargs):
            assert first.offer(kept_meanwhile, "makruk") is not None
            return build(*args, **kwargs)

        second.check.build = build_while_the_first_run_keeps  # type: ignore[method-assign]
        assert second.offer(fen, "makruk") is None
    return second


def test_a_puzzle_another_run_kept_during_the_search_is_checked_again_before_keeping(tmp_path: Path):
    second = offer_while_another_run_keeps(tmp_path, TRAP_AGAIN, TRAP)
    repeat = "repeat: another puzzle's line against the Khun on the same square"
    assert second.state["rejected"] == {"makruk": {repeat: 1}}
    assert second.state["candidates"] == {"makruk": 1} and second.state["kept"] == {}
    assert [p.moves for p in load_bank(tmp_path / "bank.jsonl")] == [("f5e3",)]
    assert len(load_verification(tmp_path / "verification.jsonl")) == 1


def test_workers_play_their_own_games_into_the_same_banks(tmp_path: Path):
    state_path = tmp_path / "state.json"
    settings = GenerateSettings(targets={"makruk": 50}, seed=11, play=PlaySettings(blunders=1, max_plies=40))
    states = generate_in_parallel(settings, 2, directory=tmp_path, state_path=state_path, engine_path=ENGINE,
                                  max_games=1)
    assert worker_state(state_path, 0) == state_path and worker_state(state_path, 1) == tmp_path / "state-2.json"
    seeds = [11, worker_seed(11, 1)]  # not 12, which another run's --seed could be
    assert seeds[1] not in (11, 12) and [s["seed"] for s in states] == seeds
    assert [s["games"] for s in states] == [{"makruk": 1}] * 2
    assert [load_state(worker_state(state_path, k))["seed"] for k in (0, 1)] == seeds
    kept = sum(s["kept"].get("makruk", 0) for s in states)
    assert len(load_bank(tmp_path / "bank.jsonl")) == kept


# A Makruk mate in 3 of the bank (Rh7+ Kf8 Rh8+ Ke7 R1h7#) and the mate in 2 on its line, which
# passes the acceptance as a puzzle of its own.
MATE3 = "8/6k1/1s1mr1p1/1r4P1/pP5R/S2K4/3S4/7R w - - 0 54"
ON_ITS_LINE = "5k2/7R/1s1mr1p1/1r4P1/pP6/S2K4/3S4/7R w - - 0 55"


def test_a_position_on_the_line_of_a_puzzle_another_run_kept_during_the_search_is_refused(tmp_path: Path):
    second = offer_while_another_run_keeps(tmp_path, ON_ITS_LINE, MATE3)
    assert second.state["rejected"] == {"makruk": {"seen: on the line of another run's puzzle": 1}}
    assert [len(p.moves) for p in load_bank(tmp_path / "bank.jsonl")] == [5]


def test_a_bank_whose_last_line_is_cut_off_or_rewritten_under_a_run_stops_it(tmp_path: Path):
    engine = SyncUciEngine(ENGINE)  # never started: nothing here searches
    bank = tmp_path / "bank.jsonl"
    p = BankPuzzle("mk1", MATE2.fen, MATE2.solution, "mate", 2, 1100, ("mate",), run="r1")
    append_records(bank, [{"run": "r1"}, p])
    shelf = Shelf(tmp_path, {"makruk": 50}, load_state(tmp_path / "a.json"), engine, {})
    assert shelf.have == {"makruk": 1}
    write_bank(bank, [{"run": "r1"}], [])  # verify --prune, say, beside the run
    with pytest.raises(BankRewritten, match="start the run again"):
        shelf.short()
    with bank.open("a") as f:
        f.write('{"id":"mk2","fen":')  # a run killed while writing
    with pytest.raises(ValueError, match="cut off"):
        Shelf(tmp_path, {"makruk": 50}, load_state(tmp_path / "a.json"), engine, {})


def _hold(path: Path, holding: Any, release: Any) -> None:
    with locked(path):
        holding.set()
        release.wait()


def test_the_bank_lock_keeps_out_another_process(tmp_path: Path):
    bank = tmp_path / "bank.jsonl"
    context = multiprocessing.get_context("spawn")
    holding, release = context.Event(), context.Event()
    other = context.Process(target=_hold, args=(bank, holding, release))
    other.start()
    try:
        assert holding.wait(60)
        with bank.open("a") as f:
            with pytest.raises(BlockingIOError):
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            release.set()
            other.join(60)
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free once the other let go
    finally:
        release.set()
        other.join(60)
