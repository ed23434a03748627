"""Durability: writers killed with SIGKILL at random moments lose nothing reported stored, on
SQLite and on PostgreSQL (the `database` fixture: a file, or a new database on the test server)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from storage import is_database_url, open_storage

CHILD = Path(__file__).with_name("storage_crash_child.py")
REPO = Path(__file__).resolve().parents[2]
ROUNDS = 6
WRITERS = 4  # processes per round, all on one database, each on its own channel
SHORTEST_LIFE = 0.05  # seconds from spawn to SIGKILL; the longest is set by measuring start-up


def test_sigkill_at_random_moments_loses_no_reported_move(database: str) -> None:
    rng = random.Random()
    reported: dict[str, dict[int, str]] = {f"writer-{n}": {} for n in range(WRITERS)}
    kills = rounds = 0
    # Start-up alone takes ~0.2 s on a quiet machine and much longer on a busy one: kill
    # anywhere from before the file exists to well after the first commits.
    longest_life = 2 * _time_to_first_move(database) + 0.3
    # On a slow machine start-up eats most lifetimes: go on until enough moves got stored.
    while rounds < ROUNDS or (sum(map(len, reported.values())) < 20 and rounds < 3 * ROUNDS):
        rounds += 1
        for channel, out in _run_and_kill(database, list(reported), rng, longest_life).items():
            kills += 1
            for line in out.splitlines(keepends=True):
                if line.endswith("\n"):  # a line cut by the kill was never fully reported
                    ply, uci = line.split()
                    reported[channel][int(ply)] = uci

    counts = {channel: len(moves) for channel, moves in reported.items()}
    assert kills >= 20
    assert sum(counts.values()) >= 20, f"too few moves got reported: {counts}"
    if not is_database_url(database):
        conn = sqlite3.connect(database)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            conn.close()
    asyncio.run(_assert_all_stored(database, reported))


def _spawn(database: str, channel: str) -> subprocess.Popen[bytes]:
    paths = [str(REPO), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    return subprocess.Popen(
        [sys.executable, str(CHILD), database, channel],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def _time_to_first_move(database: str) -> float:
    """Seconds from spawning a writer to its first reported move, on this machine now."""
    started = time.monotonic()
    child = _spawn(database, "calibration")
    try:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline(), child.stderr.read().decode()
        return time.monotonic() - started
    finally:
        child.kill()
        child.communicate(timeout=10)


def _run_and_kill(
    database: str, channels: list[str], rng: random.Random, longest_life: float
) -> dict[str, str]:
    """Start one writer per channel, SIGKILL each at its own random moment; their output."""
    started = time.monotonic()
    children = {channel: _spawn(database, channel) for channel in channels}
    deadlines = sorted((rng.uniform(SHORTEST_LIFE, longest_life), channel) for channel in channels)
    for deadline, channel in deadlines:
        time.sleep(max(0.0, started + deadline - time.monotonic()))
        children[channel].send_signal(signal.SIGKILL)
    outputs = {}
    for channel, child in children.items():
        out, err = child.communicate(timeout=10)
        assert child.returncode == -signal.SIGKILL, err.decode()
        outputs[channel] = out.decode()
    return outputs


async def _assert_all_stored(database: str, reported: dict[str, dict[int, str]]) -> None:
    async with await open_storage(database) as storage:
        for channel, moves in reported.items():
            game = await storage.active_game("console", channel)
            stored = {m.ply: m.uci for m in game.moves} if game is not None else {}
            assert sorted(stored) == list(range(1, len(stored) + 1)), "plies have a gap"
            missing = {ply: uci for ply, uci in moves.items() if stored.get(ply) != uci}
            assert not missing, f"{channel}: reported but not stored: {missing}"
