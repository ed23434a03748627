"""Storage speed: move appends per second against raw sqlite3, and 200-ply game load times.

    .venv/bin/python bench/bench_storage.py [--pairs 40] [--block 25] [--dir DIR]

Both sides commit every move with the same journal settings (WAL, synchronous=FULL), in
files of one directory. They alternate in short blocks (which one goes first swaps every
pair), so a disk whose fsync time drifts slows both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import (
    Game,
    GameChanges,
    NewGame,
    NewMove,
    Seat,
    SqliteStorage,
    open_storage,
)

PLIES = 200  # one game's length in the append run and the load test
START_FEN = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w 0 1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40, help="raw/storage block pairs")
    parser.add_argument("--block", type=int, default=25, help="commits per block")
    parser.add_argument("--loads", type=int, default=500, help="timed loads of a 200-ply game")
    parser.add_argument("--dir", type=Path, default=None, help="where the files go (a disk)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        asyncio.run(run(Path(tmp), args.pairs, args.block, args.loads))


async def run(folder: Path, pairs: int, block: int, loads: int) -> None:
    raw_times, storage_times = [], []
    raw = RawBaseline(folder / "raw.db")
    async with await open_storage(folder / "storage.db") as storage:
        appender = Appender(storage)
        await appender.append(block)  # warm-up
        raw.insert(block)
        for pair in range(pairs):
            if pair % 2:
                storage_times.append(await timed_async(appender.append(block)))
            raw_times.append(timed(lambda: raw.insert(block)))
            if not pair % 2:
                storage_times.append(await timed_async(appender.append(block)))
        game_id = await appender.full_game()
    raw.close()
    cold = await load_times(folder / "storage.db", game_id, loads, move_cache=0)
    warm = await load_times(folder / "storage.db", game_id, loads, move_cache=256)
    report(raw_times, storage_times, block, cold, warm, loads)


class RawBaseline:
    """The floor: one INSERT + COMMIT per move through plain sqlite3, same pragmas."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute(
            """CREATE TABLE moves (game_id INTEGER, ply INTEGER, uci TEXT, san TEXT, by TEXT,
                   at TEXT, PRIMARY KEY (game_id, ply)) WITHOUT ROWID"""
        )
        self.ply = 0

    def insert(self, count: int) -> None:
        for _ in range(count):
            self.ply += 1
            self.conn.execute("BEGIN")
            self.conn.execute(
                "INSERT INTO moves VALUES (1, ?, 'e3e4', 'e4', 'w', ?)",
                (self.ply, datetime.now(UTC).isoformat()),
            )
            self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()


class Appender:
    """Plays games of PLIES plies through append_move, as the game service does."""

    def __init__(self, storage: SqliteStorage) -> None:
        self.storage = storage
        self.games = 0
        self.game: Game | None = None

    async def append(self, count: int) -> None:
        for _ in range(count):
            game = self.game or await self._new_game()
            ply = len(game.moves) + 1
            deadline = datetime.now(UTC) + timedelta(minutes=5)
            changes = GameChanges(deadline=deadline, remind_at=deadline, reminded=False)
            if ply == PLIES:
                changes = GameChanges(status="finished", result="1/2-1/2", reason="count")
            game = await self.storage.append_move(
                game.id, game.version, NewMove("e3e4", "e4", "w" if ply % 2 else "b"), changes
            )
            self.game = None if game.status == "finished" else game

    async def full_game(self) -> int:
        """Play the current game to its end; the id of that game of exactly PLIES plies."""
        await self.append(PLIES - len(self.game.moves) if self.game else PLIES)
        game = await self.storage.last_game("console", f"bench-{self.games}")
        assert game is not None and len(game.moves) == PLIES
        return game.id

    async def _new_game(self) -> Game:
        self.games += 1
        player = await self.storage.get_or_create_player("console", "bench", "Bench")
        return await self.storage.create_game(
            NewGame(
                platform="console",
                channel=f"bench-{self.games}",
                white=Seat.human(player.id),
                black=Seat.engine(1),
                start_fen=START_FEN,
                promotion="forced",
                perpetual="forbid",
                move_seconds=300,
                status="active",
            )
        )


async def load_times(path: Path, game_id: int, loads: int, move_cache: int) -> list[float]:
    async with await open_storage(path, move_cache=move_cache) as storage:
        times = []
        for _ in range(loads):
            started = time.perf_counter()
            game = await storage.get_game(game_id)
            times.append(time.perf_counter() - started)
            assert len(game.moves) == PLIES
    return times


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


async def timed_async(work: Awaitable[object]) -> float:
    started = time.perf_counter()
    await work
    return time.perf_counter() - started


def report(
    raw_times: list[float],
    storage_times: list[float],
    block: int,
    cold: list[float],
    warm: list[float],
    loads: int,
) -> None:
    commits = block * len(raw_times)
    raw, ours = commits / sum(raw_times), commits / sum(storage_times)
    paired = statistics.median(r / s for r, s in zip(raw_times, storage_times, strict=True))
    print(
        f"storage benchmark: Python {platform.python_version()}, SQLite {sqlite3.sqlite_version},"
        f" WAL + synchronous=FULL, {len(raw_times)} alternating blocks of {block} commits"
        " per side\n"
    )
    print("| move append, one commit each | raw sqlite3 | storage | storage / raw |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| commits/s, all blocks | {raw:,.0f} | {ours:,.0f} | {ours / raw:.2f}x |")
    print(f"| median of per-pair ratios | | | {paired:.2f}x |")
    print()
    print(f"| load a {PLIES}-ply game ({loads} loads) | p50 | p99 |")
    print("| --- | ---: | ---: |")
    for name, times in (("from the file (move cache off)", cold), ("move cache on", warm)):
        print(f"| {name} | {ms(percentile(times, 50))} | {ms(percentile(times, 99))} |")


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


if __name__ == "__main__":
    main()
