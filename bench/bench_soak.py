"""Memory over many chats: chatter and games from 50,000 distinct chats through the game
service (a real SQLite file, the random mover as the engine, no pictures), printing the
process's resident memory and Python's traced allocations every 10,000 chats. They should
level off once the bounded tables (the board cache, the SQLite page cache) are full.

    .venv/bin/python bench/bench_soak.py [--chats 50000] [--game-every 20]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.services.games import GameService
from storage import open_storage


def rss_mb() -> float:
    """The process's resident memory now (Linux: /proc), in MB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 1e6


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=50_000)
    parser.add_argument("--game-every", type=int, default=20, help="one chat in N also plays a game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        async with await open_storage(Path(folder) / "soak.db") as storage:
            service = GameService(storage, Settings(language="en"), engine=RandomMover(seed=1),
                                  render=lambda view: None)
            tracemalloc.start()
            started = time.perf_counter()
            print("| chats | RSS MB | traced MB | boards cached | locks |")
            print("|---:|---:|---:|---:|---:|")
            for i in range(1, args.chats + 1):
                chat, user = f"group:{i}", User(f"u{i % 977}", f"user {i % 977}")
                await service.handle(Incoming("line", chat, user, "hello everyone", addressed=False))
                if i % args.game_every == 0:
                    for text in ("new bot 1", "e3e4", *(("resign",) if i % (2 * args.game_every) == 0 else ())):
                        await service.handle(Incoming("line", chat, user, text))
                if i % 10_000 == 0:
                    gc.collect()
                    sizes = service.table.sizes()
                    print(f"| {i:,} | {rss_mb():.1f} | {tracemalloc.get_traced_memory()[0] / 1e6:.1f} "
                          f"| {sizes['boards']} | {sizes['locks']} |", flush=True)
            print(f"\n{args.chats:,} chats in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    asyncio.run(main())
