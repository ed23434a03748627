"""``makruk-bot puzzles ...`` in a fresh process: list --json, verify, stats."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.puzzles.bank import PUZZLE_VARIANTS, BankPuzzle, append_records, load_bank, load_family

from .support import MATE2

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"id", "variant", "fen", "moves", "kind", "mate_in", "rating", "themes"}


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot", "puzzles", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_list_json_prints_the_bank_one_object_per_line():
    done = run("list", "--json")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == len(load_family()) >= 1
    for record in records:
        assert set(record) == KEYS
        assert isinstance(record["id"], str) and isinstance(record["fen"], str)
        assert record["variant"] in PUZZLE_VARIANTS
        assert record["moves"] and all(isinstance(m, str) and 4 <= len(m) <= 5 for m in record["moves"])
        assert len(record["moves"]) % 2 == 1  # the solver's first move first, and last
        assert isinstance(record["rating"], int) and record["themes"]
        if record["kind"] == "mate":
            assert record["mate_in"] == (len(record["moves"]) + 1) // 2
        else:
            assert record["kind"] == "material" and record["mate_in"] is None


def test_a_reader_that_stops_early_gets_no_traceback():
    """``makruk-bot puzzles list --json | head -1``: the pipe closes under the listing."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    listing = subprocess.Popen([sys.executable, "-m", "bot", "puzzles", "list", "--json"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert listing.stdout is not None and listing.stderr is not None
    assert json.loads(listing.stdout.readline())["id"]
    listing.stdout.close()  # as head does after its line
    assert listing.wait(timeout=300) == 0
    assert listing.stderr.read() == b""


def test_verify_reports_and_prunes_a_bad_puzzle(tmp_path):
    bank = tmp_path / "bank.jsonl"
    good = BankPuzzle("good", MATE2.fen, MATE2.solution, "mate", 2, 1100, ("mate", "mateIn2"), run="r")
    bad = BankPuzzle("bad", MATE2.fen, ("c2c3", "h3g3", "a1g1"), "mate", 2, 1100, ("mate", "mateIn2"), run="r")
    append_records(bank, [{"run": "r", "engine": "test"}, good, bad])
    done = run("verify", "--bank", str(bank), "--rules-only")
    assert done.returncode == 1
    assert "FAIL bad: ply 1: c2c3 does not force mate in 2" in done.stdout
    assert "1 of 2 puzzles proved" in done.stdout
    done = run("verify", "--bank", str(bank), "--rules-only", "--prune")
    assert done.returncode == 0 and [p.id for p in load_bank(bank)] == ["good"]
    assert run("verify", "--bank", str(bank), "--rules-only", "--quiet").returncode == 0
    stats = run("stats", "--bank", str(bank))
    assert stats.returncode == 0 and "1 puzzles" in stats.stdout and "mate in 2" in stats.stdout


def test_verify_runs_the_engine_again_and_reports_a_disagreement(tmp_path):
    shipped = ROOT / "bot" / "puzzles"
    puzzle = load_bank(shipped / "bank.jsonl")[0]
    record = json.loads((shipped / "verification.jsonl").read_text().splitlines()[0])
    bank = tmp_path / "bank.jsonl"
    append_records(bank, [{"run": "r", "engine": "test"}, puzzle])
    append_records(tmp_path / "verification.jsonl", [record])
    done = run("verify", "--bank", str(bank))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 1 puzzles proved (rules, stored thresholds, engine again)" in done.stdout
    # A stored score the engine does not give again is a disagreement, even within the thresholds.
    record["plies"][0]["search"]["400000"][1][1] -= 7
    append_records(tmp_path / "verification.jsonl", [record])
    done = run("verify", "--bank", str(bank))
    assert done.returncode == 1
    assert f"FAIL {puzzle.id}: engine again: the engine's output differs from the stored one" in done.stdout


def test_generate_refuses_no_workers_and_writes_nothing(tmp_path):
    done = run("generate", "--dir", str(tmp_path), "--workers", "0")
    assert done.returncode == 2 and done.stderr.strip() == "--workers: at least 1"
    assert list(tmp_path.iterdir()) == []
