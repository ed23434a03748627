"""Swiss pairing speed and memory (issue 25): a 64-player round p95 <= 200 ms; memory flat over many events.

    .venv/bin/python bench/bench_tournament.py [--events 5] [--repeat 3] [--tournaments 300 | --full]

1. Speed: ``--events`` seeded simulated events of 64 players x 9 rounds (random results, draws,
   forfeits, withdrawals, late joins, half-point byes: ``tests/tournaments/simulate.py``); the
   history each round was paired on is kept, and ``pair_round`` on it is timed ``--repeat``
   times, rounds 1..9 mixed. Reports p50/p95/max of wall time and of the thread's CPU time
   (the wall time counts whatever else the machine runs; the CPU time does not).
2. Memory: ``--tournaments`` simulated events of 16 players x 5 rounds one after another, every
   round paired, under ``tracemalloc`` (started after 10 events of warm-up); the memory still
   held after each tenth of them, and the peak. The issue asks for 3,000 events; the default
   300 keeps the run under a few minutes, ``--full`` runs the 3,000.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.tournaments.swiss import pair_round
from tests.tournaments.simulate import Round, simulate

GOAL_P95_MS = 200.0
WARM_UP = 10


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=5, help="64x9 events whose rounds are timed")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each round")
    parser.add_argument("--tournaments", type=int, default=300, help="16x5 events for the memory check")
    parser.add_argument("--full", action="store_true", help="the issue's 3,000 events for the memory check")
    args = parser.parse_args()
    tournaments = 3000 if args.full else args.tournaments

    print(f"$ python {' '.join(sys.argv)}")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; Python {platform.python_version()}, "
          f"py4swiss {version('py4swiss')}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    speed(args.events, args.repeat)
    memory(tournaments)


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


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


if __name__ == "__main__":
    main()
