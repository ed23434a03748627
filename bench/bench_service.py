"""200 channels playing at once through the game service: parse, validate, store, render.

Each channel is a game between two people; every channel sends its next move at random
moments (an open loop, like people in many chats), at a total offered rate of --rate moves
per second. The engine is not involved. Reports moves/s achieved and the latency of each
move (from the message to its reply with the rendered board) at p50 and p99.

    .venv/bin/python bench/bench_service.py [--channels 200] [--rate 250] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.config import Settings
from bot.messages import Incoming, User
from bot.services.games import GameService
from makruk import Board
from storage import open_storage


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rate", type=float, default=250.0, help="offered moves per second, all channels")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--no-render", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(Path(folder) / "bench.db")
        render = (lambda view: None) if args.no_render else None
        service = GameService(storage, Settings(), render=render)
        boards = {}
        for i in range(args.channels):
            channel = f"ch{i}"
            await say(service, channel, f"w{i}", "new @b", User(f"b{i}", f"b{i}"))
            await say(service, channel, f"b{i}", "accept")
            boards[channel] = Board()
        warm = await say(service, "ch0", "w0", "board")
        assert warm[0].image or args.no_render

        latencies: list[float] = []
        rng = random.Random(1)
        per_channel_rate = args.rate / args.channels
        stop_at = time.perf_counter() + args.seconds

        async def player(channel: str, index: int) -> None:
            board = boards[channel]
            while True:
                # Sleep at most to the end of the window, so the rate is counted over the window.
                await asyncio.sleep(min(rng.expovariate(per_channel_rate), max(0.0, stop_at - time.perf_counter())))
                if time.perf_counter() >= stop_at:
                    return
                moves = board.legal_moves()
                if not moves or board.is_game_over():
                    return
                move = rng.choice(moves)
                user = f"w{index}" if board.turn else f"b{index}"
                started = time.perf_counter()
                replies = await say(service, channel, user, move.uci())
                latencies.append(time.perf_counter() - started)
                assert not replies[0].error, (replies[0].error, replies[0].text)
                board.push(move)

        started = time.perf_counter()
        await asyncio.gather(*(player(f"ch{i}", i) for i in range(args.channels)))
        elapsed = time.perf_counter() - started
        await storage.close()

    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    print("| channels | offered moves/s | moves | achieved moves/s | p50 ms | p99 ms | render |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    print(f"| {args.channels} | {args.rate:.0f} | {len(latencies)} | {len(latencies) / elapsed:.0f} "
          f"| {p50:.1f} | {p99:.1f} | {'no' if args.no_render else 'yes, 800 px PNG'} |")


async def say(service: GameService, channel: str, user: str, text: str, *mentions: User):
    return await service.handle(Incoming("console", channel, User(user, user), text, mentions=mentions))


if __name__ == "__main__":
    asyncio.run(main())
