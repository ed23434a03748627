"""Serving a puzzle by rating with many players' histories stored: p50/p95/p99 of the whole
``puzzle`` command through the service (player, rating, the nearest unseen puzzles, the post and
the play stored with one commit), and of the choice alone (rating + candidates).

    .venv/bin/python bench/bench_puzzles.py [--players 10000] [--history 40] [--puzzles 1200]
                                            [--serves 500] [--postgres] [--dir DIR]

The bank is the shipped one (the whole family), padded with copies at other ratings up to ``--puzzles`` (the bank
issue 26 asks for holds 1,000+). Each player's history (puzzles served and answered, their
puzzle rating) and every puzzle's rating are written in bulk before the timing; then random
players of the 10,000 ask for a puzzle in their private chat. Cards are not drawn (a door that
draws them itself, as LINE's does). ``--postgres`` runs the same on a PostgreSQL server started
for the run (tests/pgserver.py).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.clock import SystemClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.puzzles.bank import load_family
from bot.services.games import GameService
from bot.services.puzzles import PuzzleService
from storage import Glicko2Rating, Puzzle, Storage, open_storage

CHUNK = 5000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--history", type=int, default=40, help="puzzles in each player's history")
    parser.add_argument("--puzzles", type=int, default=1200, help="the bank's size, padded with copies")
    parser.add_argument("--serves", type=int, default=500, help="timed puzzle commands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true", help="also on PostgreSQL")
    parser.add_argument("--dir", type=Path, default=None, help="where the SQLite file goes (a disk)")
    args = parser.parse_args()
    print(f"puzzle serving benchmark: Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
          f"{args.players} players x {args.history} puzzles of history, a bank of {args.puzzles}, "
          f"{args.serves} serves, {datetime.now(UTC):%Y-%m-%d}")
    print("| database | what | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        asyncio.run(run("SQLite", str(Path(tmp) / "bench.db"), args))
    if args.postgres:
        from tests.pgserver import PgServer

        server = PgServer().start()
        try:
            url = asyncio.run(server.new_database("bench_puzzles"))
            asyncio.run(run("PostgreSQL", url, args))
        finally:
            server.stop()


async def run(name: str, where: str, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    async with await open_storage(where) as storage:
        bank = padded_bank(args.puzzles, rng)
        await storage.upsert_puzzles(bank)
        await seed_histories(storage, bank, args.players, args.history, rng)
        settings = Settings(language="en")
        puzzles = PuzzleService(storage, settings, clock=SystemClock(), render=lambda view: None, rng=rng)
        games = GameService(storage, settings, engine=RandomMover(seed=1), render=lambda view: None, puzzles=puzzles)
        served: list[float] = []
        served_cpu: list[float] = []  # the bot process's CPU: what the machine's other jobs do not move
        chosen: list[float] = []
        for i in range(args.serves):
            player = rng.randrange(args.players)
            msg = Incoming("line", f"user:U{player}", User(f"U{player}", f"P{player}"), "puzzle", pictures=False,
                           private=True, event=f"bench-{i}")
            start, cpu = time.perf_counter(), time.process_time()
            replies = await games.handle(msg)
            served.append(time.perf_counter() - start)
            served_cpu.append(time.process_time() - cpu)
            assert replies and replies[0].kind == "puzzle", replies
            known = await storage.get_or_create_player("line", f"U{player}", f"P{player}")
            start = time.perf_counter()
            mine = await storage.player_puzzle_rating(known.id)
            await storage.puzzle_candidates(known.id, "line", f"user:U{player}",
                                            mine.rating.rating if mine.rating else 1500)
            chosen.append(time.perf_counter() - start)
        report(name, "`puzzle` command, whole", served)
        report(name, "`puzzle` command, the bot's CPU time", served_cpu)
        report(name, "choice alone (rating + nearest unseen)", chosen)


def padded_bank(size: int, rng: random.Random) -> list[Puzzle]:
    shipped = [p.to_record() for p in load_family()]
    bank = list(shipped)
    while len(bank) < size:
        model = shipped[len(bank) % len(shipped)]
        bank.append(replace(model, id=f"bench-{len(bank)}", rating=rng.randrange(600, 2400)))
    return bank


async def seed_histories(storage: Storage, bank: list[Puzzle], players: int, history: int,
                         rng: random.Random) -> None:
    """Players, their rated plays and ratings, and every puzzle's rating, written in bulk."""
    ids = [(await storage.get_or_create_player("line", f"U{number}", f"P{number}")).id for number in range(players)]
    for first in range(0, players, CHUNK):
        chunk = [(player_id, Glicko2Rating(rng.gauss(1500, 300), 80, 0.06),
                  [(bank[i].id, rng.random() < 0.6) for i in rng.sample(range(len(bank)), history)])
                 for player_id in ids[first:first + CHUNK]]
        await storage.import_puzzle_history(chunk)
    await storage.import_puzzle_history([], [(p.id, Glicko2Rating(float(p.rating or 1500) + rng.gauss(0, 100), 90,
                                                                  0.06, players * history // len(bank)))
                                             for p in bank])


def report(name: str, what: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    q = statistics.quantiles(ms, n=100)
    print(f"| {name} | {what} | {q[49]:.2f} | {q[94]:.2f} | {q[98]:.2f} | {ms[-1]:.2f} |")


if __name__ == "__main__":
    main()
