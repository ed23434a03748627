"""The generator's two economies, each against the code without it, in one run: the probe
before each blunder's screen, and the acceptance's look-ahead at the smaller budget.

    .venv/bin/python bench/bench_acceptance.py [--variant makruk] [--games 20] [--seed 1]

1. Self-play: each seeded game is played twice, with the probe (``probe_nodes=PROBE_NODES``)
   and without (``PlaySettings()``, the generator's), in turn; reported: the CPU (this process and its engine) and the
   candidates each found, and candidates per CPU-minute.
2. The acceptance: every candidate of step 1 is built with and without the look-ahead, in turn
   (``EngineCheck(look_ahead=...)``); reported: the CPU of each, the puzzles each accepted, and
   the candidates on which they disagree (the look-ahead may refuse a line the full build
   accepts, where its replies at the smaller budget differ).
3. End to end, per self-play mode: the puzzles accepted among its candidates, per CPU-hour of
   its games and their candidates' acceptance (with the look-ahead).

The figures: docs/PERFORMANCE.md and docs/puzzles.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines import SyncUciEngine
from bot.puzzles.engine_check import EngineCheck, Rejected
from bot.puzzles.selfplay import PROBE_NODES, PlaySettings, candidates
from bot.puzzles.shelf import DEFAULT_ENGINE, cpu_seconds

PLAY = {"probe": PlaySettings(probe_nodes=PROBE_NODES), "no probe": PlaySettings()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="makruk")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {args.variant}, "
          f"{args.games} games, seed {args.seed}")
    with SyncUciEngine(DEFAULT_ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        found, play_cpu = self_play(engine, args)
        accepted, accept_cpu = accept(engine, args.variant, sorted(set().union(*found.values())))
        for mode, fens in found.items():  # end to end: the games, then their candidates' acceptance
            hours = (play_cpu[mode] + sum(accept_cpu[fen] for fen in fens)) / 3600
            kept = sum(fen in accepted for fen in fens)
            print(f"end to end, {mode:>8}: {kept} accepted in {hours * 60:.1f} CPU-min, "
                  f"{kept / hours:.1f} per CPU-hour")


def self_play(engine: SyncUciEngine, args: argparse.Namespace) -> tuple[dict[str, list[str]], dict[str, float]]:
    cpu = dict.fromkeys(PLAY, 0.0)
    found: dict[str, list[str]] = {mode: [] for mode in PLAY}
    for game in range(args.games):
        for mode, settings in PLAY.items():
            rng = random.Random(f"{args.seed}/{game}")
            before = cpu_seconds()
            found[mode] += candidates(engine, args.variant, rng, settings, races=False)
            cpu[mode] += cpu_seconds() - before
    for mode in PLAY:
        print(f"self-play, {mode:>8}: {len(found[mode])} candidates in {cpu[mode]:.0f} CPU-s, "
              f"{len(found[mode]) / cpu[mode] * 60:.1f} per CPU-minute")
    rates = {mode: len(found[mode]) / cpu[mode] for mode in PLAY}
    print(f"candidates per CPU-second, probe / no probe: {rates['probe'] / rates['no probe']:.2f}x")
    return found, cpu


def accept(engine: SyncUciEngine, variant: str, fens: list[str]) -> tuple[set[str], dict[str, float]]:
    """The candidates the full build accepts, and each one's CPU with the look-ahead."""
    checks = {"look-ahead": EngineCheck(engine, look_ahead=True), "full": EngineCheck(engine)}
    cpu = dict.fromkeys(checks, 0.0)
    each: dict[str, float] = {}
    kept: dict[str, set[str]] = {mode: set() for mode in checks}
    for fen in fens:
        for mode, check in checks.items():
            before = cpu_seconds()
            try:
                check.build(fen, variant)
                kept[mode].add(fen)
            except Rejected:
                pass
            spent = cpu_seconds() - before
            cpu[mode] += spent
            if mode == "look-ahead":
                each[fen] = spent
    for mode in checks:
        print(f"acceptance, {mode:>10}: {len(fens)} candidates in {cpu[mode]:.0f} CPU-s, {len(kept[mode])} accepted")
    print(f"acceptance CPU, full / look-ahead: {cpu['full'] / cpu['look-ahead']:.2f}x; "
          f"accepted by the full build alone: {len(kept['full'] - kept['look-ahead'])}, "
          f"by the look-ahead alone: {len(kept['look-ahead'] - kept['full'])}")
    return kept["full"], each


if __name__ == "__main__":
    main()
