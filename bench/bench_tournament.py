"""Swiss pairing speed and memory (issue 25): a 64-player round p95 <= 200 ms; memory flat over many events.

    .venv/bin/python bench/bench_tournament.py [--events 5] [--repeat 3] [--tournaments 300 | --full]
        [--service [--service-events 3] [--service-memory N]]

1. Speed: ``--events`` seeded simulated events of 64 players x 9 rounds (random results, draws,
   forfeits, withdrawals, late joins, half-point byes: ``tests/tournaments/simulate.py``); the
   history each round was paired on is kept, and ``pair_round`` on it is timed ``--repeat``
   times, rounds 1..9 mixed. Reports p50/p95/max of wall time and of the thread's CPU time
   (the wall time counts whatever else the machine runs; the CPU time does not).
2. Memory: ``--tournaments`` simulated events of 16 players x 5 rounds one after another, every
   round paired, under ``tracemalloc`` (started after 10 events of warm-up); the memory still
   held after each tenth of them, and the peak. The issue asks for 3,000 events; the default
   300 keeps the run under a few minutes, ``--full`` runs the 3,000.
3. ``--service``: the same round through ``TournamentService.advance`` on a SQLite file (the
   event's history read, the pairing in the executor, ``store_round`` with 32 games and their
   notices): ``--service-events`` events of 64 players x 9 rounds, every game of a round ended
   with a seeded result (not timed), then the advance that pairs the next round timed (rounds
   2-9; round 1 is paired by ``tournament start``). With ``--full`` (or ``--service-memory N``)
   also memory over small events (8 players x 3 rounds, correspondence) run through the
   service one after another: RSS and tracemalloc after each tenth, and after each event the
   service's in-memory tables (poked events, event locks, the table's chat locks) and the
   database's claims checked empty.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import open_tournaments
from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.services.claims import here
from bot.services.games import GameService
from bot.services.games.context import Context
from bot.services.tournaments.service import TournamentService
from bot.tournaments.swiss import pair_round
from storage import Storage, open_storage
from storage.records import Result
from tests.tournaments.simulate import Round, simulate

GOAL_P95_MS = 200.0
WARM_UP = 10


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=5, help="64x9 events whose rounds are timed")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each round")
    parser.add_argument("--tournaments", type=int, default=300, help="16x5 events for the memory check")
    parser.add_argument("--full", action="store_true", help="the issue's 3,000 events for the memory check")
    parser.add_argument("--service", action="store_true", help="a 64-player round through TournamentService.advance")
    parser.add_argument("--service-events", type=int, default=3, help="64x9 events advanced by the service")
    parser.add_argument("--service-memory", type=int, default=None,
                        help="8x3 events through the service for the memory check (--full: 3,000)")
    parser.add_argument("--skip-pure", action="store_true", help="only the service's measures")
    args = parser.parse_args()
    tournaments = 3000 if args.full else args.tournaments

    print(f"$ python {' '.join(sys.argv)}")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; Python {platform.python_version()}, "
          f"py4swiss {version('py4swiss')}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    if not args.skip_pure:
        speed(args.events, args.repeat)
        memory(tournaments)
    if args.service:
        service_memory = args.service_memory if args.service_memory is not None else (3000 if args.full else 0)
        asyncio.run(service(args.service_events, service_memory))


def speed(events: int, repeat: int) -> None:
    rounds: list[Round] = [r for seed in range(1, events + 1) for r in simulate(seed, 64, 9)]
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        for rnd in rounds:
            wall_start, cpu_start = time.perf_counter(), time.thread_time()
            pair_round(rnd.before, rnd.number, rounds_total=rnd.rounds_total)
            cpu.append((time.thread_time() - cpu_start) * 1000)
            wall.append((time.perf_counter() - wall_start) * 1000)
    print(f"\n1. Pairing a round of a 64-player Swiss (rounds 1-9 of {events} simulated events, "
          f"{len(wall)} pairings)")
    print("| time | p50 | p95 | max |\n|---|---|---|---|")
    for name, samples in (("wall", wall), ("CPU", cpu)):
        print(f"| {name} | {percentile(samples, 50):.1f} ms | {percentile(samples, 95):.1f} ms "
              f"| {max(samples):.1f} ms |")
    p95 = percentile(wall, 95)
    print(f"goal: wall p95 <= {GOAL_P95_MS:.0f} ms: {'met' if p95 <= GOAL_P95_MS else 'NOT met'} ({p95:.1f} ms)")
    by_round = {n: [t for t, r in zip(wall, rounds * repeat, strict=True) if r.number == n] for n in range(1, 10)}
    print("wall p50 by round: " + ", ".join(f"{n}: {statistics.median(ts):.0f}" for n, ts in by_round.items()
                                            if ts))


def memory(tournaments: int) -> None:
    print(f"\n2. Memory over {tournaments:,} simulated 16-player x 5-round events, every round paired"
          f"{'' if tournaments >= 3000 else ' (scaled down from the issue’s 3,000; --full runs them)'}")
    for seed in range(WARM_UP):
        play(seed)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    print("| events | held (KiB, above the start) | peak (KiB, above the start) | RSS (MiB) |\n|---|---|---|---|")
    started = time.perf_counter()
    step = max(1, tournaments // 10)
    for done in range(1, tournaments + 1):
        play(WARM_UP + done)
        if done % step == 0 or done == tournaments:
            gc.collect()
            current, peak = tracemalloc.get_traced_memory()
            print(f"| {done:,} | {(current - base) / 1024:.1f} | {(peak - base) / 1024:.1f} | {rss_mib():.1f} |")
    tracemalloc.stop()
    print(f"({time.perf_counter() - started:.0f} s under tracemalloc)")


def play(seed: int) -> None:
    for _ in simulate(seed, 16, 5):
        pass


# --- 3. through the service --------------------------------------------------------------------

class Bench:
    """A bot on a SQLite file with a fake clock, its events in chats ``t0``, ``t1``, ..."""

    def __init__(self, storage: Storage, clock: FakeClock) -> None:
        self.storage = storage
        self.clock = clock
        self.games = GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1),
                                 render=lambda view: None)
        self.tournaments: TournamentService = open_tournaments(self.games)
        self.chats = 0

    async def say(self, channel: str, user: str, text: str) -> None:
        replies = await self.games.handle(Incoming("console", channel, User(user, user), text, community="bench"))
        refused = [(r.error, r.text) for r in replies if r.error]
        assert not refused, (text, refused)
        await self.games.delivered(replies)

    async def event(self, spec: str, players: int) -> int:
        """A new event of ``players`` in a new chat, started (round 1 paired); its id."""
        channel = f"t{self.chats}"
        self.chats += 1
        await self.say(channel, "org", f"tournament new {spec}")
        for n in range(players):
            await self.say(channel, f"p{n}", "join")
        found = await self.storage.open_tournament("console", channel)
        assert found is not None
        await self.say(channel, "org", "tournament start")
        return found.id

    async def end_round(self, tournament_id: int, rng: random.Random) -> bool:
        """Ends every open game of the event's last round with a seeded result, as the clock or
        a resignation would, without advancing the event (the game ends only poke it).
        Whether the event is still running."""
        state = await self.storage.tournament_state(tournament_id)
        if state.tournament.status != "running":
            return False
        table = self.games.table
        for board in state.boards:
            if board.round != state.tournament.last_round or board.status != "active" or board.game_id is None:
                continue
            game = await self.storage.get_game(board.game_id)
            settings = await self.storage.get_channel_settings(game.platform, game.channel)
            ctx = Context(Incoming("console", game.channel, User("", ""), ""), "en", settings)
            ctx.game, ctx.board = game, table.board(game)
            result: Result = rng.choices(("1-0", "0-1", "1/2-1/2"), (4, 4, 2))[0]
            await table.finish(ctx, game, ctx.board, result, "resignation")
        return True

    async def settled(self) -> dict[str, int]:
        """What the service still keeps in memory, and the claims still held in the database."""
        gc.collect()
        sizes = self.tournaments.sizes()
        sizes["chat_locks"] = self.games.table.sizes()["locks"]  # (its board cache is bounded, not emptied)
        sizes["claims"] = len(await self.storage.lease_holders(here()))
        return sizes


async def service(events: int, memory_events: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = FakeClock()
        async with await open_storage(Path(folder) / "bench.db", clock=clock.now) as storage:
            bench = Bench(storage, clock)
            await service_speed(bench, events)
            if memory_events:
                await service_memory(bench, memory_events)


async def service_speed(bench: Bench, events: int) -> None:
    rng = random.Random(25)
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(events):
        tournament_id = await bench.event("swiss 9 rounds 1d", 64)
        while await bench.end_round(tournament_id, rng):
            bench.clock.advance(minutes=1)
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            await bench.tournaments.settle()  # the poked event advances: the next round paired and stored
            cpu.append((time.process_time() - cpu_start) * 1000)
            wall.append((time.perf_counter() - wall_start) * 1000)
        state = await bench.storage.tournament_state(tournament_id)
        assert state.tournament.status == "finished" and state.tournament.last_round == 9, state.tournament
        assert len([b for b in state.boards if b.round == 9 and b.game_id is not None]) == 32
    rounds = [w for i, w in enumerate(wall) if i % 9 != 8]  # the last advance of each event stores the end
    ends = [w for i, w in enumerate(wall) if i % 9 == 8]
    print(f"\n3. A 64-player round through TournamentService.advance on a SQLite file ({events} events, "
          f"rounds 2-9: {len(rounds)} advances, each the history read, the pairing in the executor and "
          "store_round with 32 games and their notices)")
    print("| time | p50 | p95 | max |\n|---|---|---|---|")
    for name, samples in (("wall", rounds), ("process CPU", [c for i, c in enumerate(cpu) if i % 9 != 8])):
        print(f"| {name} | {percentile(samples, 50):.1f} ms | {percentile(samples, 95):.1f} ms "
              f"| {max(samples):.1f} ms |")
    p95 = percentile(rounds, 95)
    print(f"goal: wall p95 <= {GOAL_P95_MS:.0f} ms: {'met' if p95 <= GOAL_P95_MS else 'NOT met'} ({p95:.1f} ms)")
    print(f"the event's end (final standings): p50 {percentile(ends, 50):.1f} ms")


async def service_memory(bench: Bench, events: int) -> None:
    print(f"\n4. Memory over {events:,} events of 8 players x 3 rounds through the service, one after another")
    rng = random.Random(3000)
    for _ in range(WARM_UP):
        await service_event(bench, rng)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    print("| events | held (KiB, above the start) | RSS (MiB) | in memory after each event |\n|---|---|---|---|")
    started = time.perf_counter()
    step = max(1, events // 10)
    for done in range(1, events + 1):
        left = await service_event(bench, rng)
        assert not any(left.values()), f"event {done} left {left}"
        if done % step == 0 or done == events:
            current, _ = tracemalloc.get_traced_memory()
            print(f"| {done:,} | {(current - base) / 1024:.1f} | {rss_mib():.1f} | none |")
    tracemalloc.stop()
    print(f"({time.perf_counter() - started:.0f} s under tracemalloc)")


async def service_event(bench: Bench, rng: random.Random) -> dict[str, int]:
    tournament_id = await bench.event("swiss 3 rounds 1d", 8)
    while await bench.end_round(tournament_id, rng):
        await bench.tournaments.settle()
    return await bench.settled()


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


if __name__ == "__main__":
    main()
