"""Three bot processes on one database share 500 games whose time ran out; one is killed
half-way. Every game is lost on time once, and every chat is told once."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from makruk import Board
from storage import NewGame, Seat, open_storage

GAMES = 500
START_FEN = Board().fen()
ROOT = Path(__file__).resolve().parents[2]


async def seed(database: str) -> None:
    past = datetime.now(UTC) - timedelta(minutes=1)
    async with await open_storage(database) as storage:
        white = await storage.get_or_create_player("console", "alice", "Alice")
        black = await storage.get_or_create_player("console", "bob", "Bob")
        for i in range(GAMES):
            await storage.create_game(NewGame(
                platform="console", channel=f"c{i}", white=Seat.human(white.id), black=Seat.human(black.id),
                start_fen=START_FEN, promotion="forced", perpetual="forbid", move_seconds=60, status="active",
                deadline=past))


async def start(database: str, name: str, log: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.multiprocess.deadline_worker", database, name, str(log), "--pause", "0.01",
        cwd=ROOT, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


def sends(log: Path) -> list[tuple[str, str, str]]:
    if not log.exists():
        return []
    return [tuple(line.split()) for line in log.read_text().splitlines()]  # type: ignore[misc]


async def test_three_processes_share_500_due_deadlines_and_survive_one_killed(database: str, tmp_path: Path) -> None:
    await seed(database)
    log = tmp_path / "sent.log"
    victim = await start(database, "victim", log)
    for _ in range(3000):  # at most a minute
        if sum(1 for _, holder, _ in sends(log) if holder == "victim") >= 40:
            break
        if victim.returncode is not None:
            _, err = await victim.communicate()
            raise AssertionError(f"the first process ended before it could be killed:\n{err.decode()}")
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the first process sent nothing")
    others = [await start(database, name, log) for name in ("p2", "p3")]
    await asyncio.sleep(0.2)  # the others are at work beside it
    victim.send_signal(signal.SIGKILL)
    await victim.wait()
    for process in others:
        _, err = await asyncio.wait_for(process.communicate(), timeout=120)
        assert process.returncode == 0, err.decode()

    log_lines = sends(log)
    by_holder = Counter(holder for _, holder, _ in log_lines)
    assert by_holder["victim"] < GAMES and by_holder["p2"] > 0 and by_holder["p3"] > 0, by_holder
    # Every chat got one notice (its game's loss on time), under one key.
    keys_by_channel: dict[str, set[str]] = {}
    for key, _, channel in log_lines:
        keys_by_channel.setdefault(channel, set()).add(key)
    assert sorted(keys_by_channel) == sorted(f"c{i}" for i in range(GAMES))
    assert all(len(keys) == 1 for keys in keys_by_channel.values())
    # A notice is sent again only when a process died between sending it and marking it sent
    # (the platforms drop the second copy by its key): at most the killed one's last.
    repeated = [key for key, count in Counter(key for key, _, _ in log_lines).items() if count > 1]
    assert len(repeated) <= 1, repeated
    async with await open_storage(database) as storage:
        for i in range(GAMES):
            game = await storage.last_game("console", f"c{i}")
            assert game is not None and (game.status, game.reason, game.result) == ("finished", "timeout", "0-1")
        assert (await storage.notice_counts("console")).pending == 0
    assert os.path.exists(log)
