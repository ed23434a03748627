"""200 channels playing at once through the game service: parse, validate, store, render.

Each channel is a game between two people; every channel sends its next move at random
moments (an open loop, like people in many chats), at a total offered rate of --rate moves
per second. The engine is not involved. Reports moves/s achieved and the latency of each
move (from the message to its reply with the rendered board) at p50 and p99.

    .venv/bin/python bench/bench_service.py [--channels 200] [--rate 250] [--seconds 20]
        [--db PATH_OR_URL ...] [--postgres] [--processes 1 2] [--split]

Each run of the service is a process of its own (the load generator runs in it, on its event
loop, as before). Without --db it measures a new SQLite file. --db names databases to measure
(a SQLite path or a postgresql:// URL, repeated for several); --postgres also starts a
throwaway PostgreSQL cluster on loopback (Debian's postgresql package, durable settings:
fsync and synchronous_commit on, as SQLite's synchronous=FULL) and measures a new database in
it. --processes 1 2 measures each database with one service process, then with two sharing
it (the channels and the rate split between them, started together); one row each.
--split puts each load generator in a process of its own: the service process then only
answers, over JSON lines on a loopback connection per channel, so the generator does not
compete with it for its event loop (latency is timed in the generator, connection included).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import next_move  # noqa: E402
from bot.app import settle_memory  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.messages import Incoming, User  # noqa: E402
from bot.services.games import GameService  # noqa: E402
from makruk import Board  # noqa: E402
from storage import open_storage  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rate", type=float, default=250.0, help="offered moves per second, all channels")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--db", action="append", default=[], help="a SQLite path or postgresql:// URL (repeatable)")
    parser.add_argument("--postgres", action="store_true", help="also measure a throwaway PostgreSQL on loopback")
    parser.add_argument("--processes", type=int, nargs="+", default=[1], help="service processes per database")
    parser.add_argument("--split", action="store_true",
                        help="each load generator in a process of its own, beside its service process")
    parser.add_argument("--profile", metavar="FILE",
                        help="with --split: cProfile the service process into FILE (python -m pstats FILE)")
    # One service process of a run (started by the run itself).
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    settle_memory()  # as `makruk-bot` does at start
    if args.serve and args.profile:
        import cProfile

        cProfile.runctx("asyncio.run(serve(args))", globals(), {"args": args}, args.profile)
    elif args.serve:
        asyncio.run(serve(args))
    elif args.worker:
        asyncio.run(worker(args))
    else:
        asyncio.run(run(args))


# --- the run: databases x process counts, one row each ----------------------------------------


async def run(args: argparse.Namespace) -> None:
    server = None
    with tempfile.TemporaryDirectory() as folder:
        targets = [(backend_of(db), db, False) for db in args.db]
        if not args.db:
            targets.append(("SQLite", str(Path(folder) / "bench.db"), True))
        if args.postgres:
            from tests.pgserver import PgServer

            server = PgServer(durable=True).start()
            targets.append(("PostgreSQL", "", True))
        try:
            print("| database | processes | load generator | channels | offered moves/s | moves | achieved moves/s "
                  "| p50 ms | p99 ms | render |")
            print("|---|---:|---|---:|---:|---:|---:|---:|---:|---|")
            for name, db, fresh in targets:
                for processes in args.processes:
                    if server is not None and name == "PostgreSQL" and fresh:
                        db = await server.new_database("bench")
                    elif fresh and name == "SQLite":
                        db = str(Path(folder) / f"bench-{processes}.db")
                    row = await measure(args, db, processes)
                    where = "own process" if args.split else "in the service"
                    print(f"| {name} | {processes} | {where} | {args.channels} | {args.rate:.0f} | {row} "
                          f"| {'no' if args.no_render else 'yes, 800 px PNG'} |", flush=True)
        finally:
            if server is not None:
                server.stop()


def backend_of(db: str) -> str:
    return "PostgreSQL" if db.startswith(("postgresql://", "postgres://")) else "SQLite"


async def measure(args: argparse.Namespace, db: str, processes: int) -> str:
    """Starts `processes` service processes on `db`, lets them set up their games, starts them
    together and merges what they measured."""
    share, rest = divmod(args.channels, processes)
    workers = []
    services = []
    first = 0
    for index in range(processes):
        channels = share + (1 if index < rest else 0)
        command = [sys.executable, __file__, "--worker", "--db", db, "--first", str(first),
                   "--channels", str(channels), "--rate", str(args.rate * channels / args.channels),
                   "--seconds", str(args.seconds), "--seed", str(index + 1)]
        if args.no_render:
            command.append("--no-render")
        if args.split:  # the service in a process of its own; the worker only sends and times
            service = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--serve", "--db", db, *(["--no-render"] if args.no_render else []),
                *(["--profile", args.profile] if args.profile else []),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT)
            assert service.stdout is not None
            port = int((await service.stdout.readline()).decode().split()[-1])
            services.append(service)
            command += ["--port", str(port)]
        workers.append(await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT))
        first += channels
    for process in workers:  # each says "ready" when its games are set up
        assert process.stdout is not None
        line = await process.stdout.readline()
        assert line.strip() == b"ready", f"a service process failed to set up: {line!r}"
    for process in workers:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        await process.stdin.drain()
    latencies: list[float] = []
    elapsed = 0.0
    for process in workers:
        out, _ = await process.communicate()
        assert process.returncode == 0, f"a service process failed ({process.returncode})"
        result = json.loads(out)
        latencies += result["latencies"]
        elapsed = max(elapsed, result["elapsed"])
    for service in services:
        assert service.stdin is not None
        service.stdin.close()
        await service.wait()
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    return f"{len(latencies)} | {len(latencies) / elapsed:.0f} | {p50:.1f} | {p99:.1f}"


# --- one service process ------------------------------------------------------------------


async def serve(args: argparse.Namespace) -> None:
    """The game service alone, answering JSON lines on a loopback port ({"channel", "user",
    "text", "mentions"} in, {"error", "image"} out, in order per connection) until stdin closes."""
    storage = await open_storage(args.db[0])
    render = (lambda view: None) if args.no_render else None
    service = GameService(storage, Settings(), render=render)

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while line := await reader.readline():
            asked = json.loads(line)
            replies = await say(service, asked["channel"], asked["user"], asked["text"],
                                *(User(m, m) for m in asked["mentions"]))
            answer = {"error": replies[0].error, "text": replies[0].text, "image": replies[0].image is not None}
            writer.write(json.dumps(answer).encode() + b"\n")
        writer.close()

    server = await asyncio.start_server(connection, "127.0.0.1", 0, limit=1 << 20)
    print(f"listening on {server.sockets[0].getsockname()[1]}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    server.close()
    await storage.close()


class Remote:
    """The service in another process, over one loopback connection per channel."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._connections: dict[str, tuple[asyncio.StreamReader, asyncio.StreamWriter]] = {}

    async def handle(self, channel: str, user: str, text: str, mentions: tuple[User, ...]) -> SimpleNamespace:
        if channel not in self._connections:
            self._connections[channel] = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
        reader, writer = self._connections[channel]
        writer.write(json.dumps({"channel": channel, "user": user, "text": text,
                                 "mentions": [m.id for m in mentions]}).encode() + b"\n")
        return SimpleNamespace(**json.loads(await reader.readline()))

    def close(self) -> None:
        for _, writer in self._connections.values():
            writer.close()


async def worker(args: argparse.Namespace) -> None:
    db = args.db[0]
    if args.port is not None:
        storage = None
        service: GameService | Remote = Remote(args.port)
    else:
        storage = await open_storage(db)
        render = (lambda view: None) if args.no_render else None
        service = GameService(storage, Settings(), render=render)
    # Names unique to this run, so that a database given with --db can be measured again.
    run = f"{int(time.time())}-{args.first}"
    channels = [(f"ch{run}-{i}", i) for i in range(args.first, args.first + args.channels)]
    boards = {}
    for channel, i in channels:
        await say(service, channel, f"w{run}-{i}", "new @b", User(f"b{run}-{i}", f"b{run}-{i}"))
        await say(service, channel, f"b{run}-{i}", "accept")
        boards[channel] = Board()
    warm = await say(service, channels[0][0], f"w{run}-{channels[0][1]}", "board")
    assert warm[0].image or args.no_render
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

    latencies: list[float] = []
    rng = random.Random(args.seed)
    per_channel_rate = args.rate / args.channels
    stop_at = time.perf_counter() + args.seconds

    async def player(channel: str, index: int) -> None:
        board = boards[channel]
        while True:
            move = await next_move(board, rng, per_channel_rate, stop_at)
            if move is None:
                return
            user = f"w{run}-{index}" if board.turn else f"b{run}-{index}"
            started = time.perf_counter()
            replies = await say(service, channel, user, move.uci())
            latencies.append(time.perf_counter() - started)
            assert not replies[0].error, (replies[0].error, replies[0].text)
            board.push(move)

    started = time.perf_counter()
    await asyncio.gather(*(player(channel, i) for channel, i in channels))
    elapsed = time.perf_counter() - started
    if storage is not None:
        await storage.close()
    if isinstance(service, Remote):
        service.close()
    print(json.dumps({"latencies": latencies, "elapsed": elapsed}))


async def say(service: GameService | Remote, channel: str, user: str, text: str, *mentions: User) -> list[Any]:
    if isinstance(service, Remote):
        return [await service.handle(channel, user, text, mentions)]
    return await service.handle(Incoming("console", channel, User(user, user), text, mentions=mentions))


if __name__ == "__main__":
    main()
