"""The generator's economies, each against the code without it, in one run: the acceptance's
sketch and look-ahead, and (``--probe``) the probe before each blunder's screen.

    .venv/bin/python bench/bench_acceptance.py [--variant makruk] [--games 20] [--seed 1] [--probe] [--full]

1. Self-play: the seeded games (``PlaySettings()``, the generator's: with the probe), and with
   ``--probe`` each game again without it (``probe_nodes=0``), in turn; reported: the CPU (this
   process and its engine) and the candidates each found, and candidates per CPU-minute.
2. The acceptance: every candidate of step 1 is built by each check in turn: ``sketch`` (the
   generator's: ``EngineCheck(look_ahead=True)``), ``look-ahead`` (without the sketch) and, with
   ``--full``, ``full`` (neither); reported: the CPU of each, the puzzles each accepted, and the
   candidates on which they disagree (a cheaper look may refuse a line the full build accepts).
3. End to end, per self-play mode and check: the puzzles accepted among its candidates, per
   CPU-hour of its games and their candidates' acceptance.

The figures: docs/PERFORMANCE.md and docs/puzzles.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines import SyncUciEngine
from bot.puzzles.engine_check import EngineCheck, Rejected
from bot.puzzles.selfplay import PlaySettings, candidates
from bot.puzzles.shelf import DEFAULT_ENGINE, cpu_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="makruk")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--probe", action="store_true", help="play each game without the probe too")
    parser.add_argument("--full", action="store_true", help="build each candidate without either look too")
    args = parser.parse_args()
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {args.variant}, "
          f"{args.games} games, seed {args.seed}")
    play = {"probe": PlaySettings()}
    if args.probe:
        play["no probe"] = replace(play["probe"], probe_nodes=0)
    with SyncUciEngine(DEFAULT_ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        checks = {"sketch": EngineCheck(engine, look_ahead=True),
                  "look-ahead": EngineCheck(engine, look_ahead=True, sketch=None)}
        if args.full:
            checks["full"] = EngineCheck(engine)
        found, play_cpu = self_play(engine, args, play)
        kept, accept_cpu = accept(args.variant, sorted(set().union(*found.values())), checks)
        for mode, fens in found.items():  # end to end: the games, then their candidates' acceptance
            for name in checks:
                hours = (play_cpu[mode] + sum(accept_cpu[name][fen] for fen in fens)) / 3600
                puzzles = sum(fen in kept[name] for fen in fens)
                print(f"end to end, {mode}, {name:>10}: {puzzles} accepted in {hours * 60:.1f} CPU-min, "
                      f"{puzzles / hours:.1f} per CPU-hour")


def self_play(engine: SyncUciEngine, args: argparse.Namespace,
              play: dict[str, PlaySettings]) -> tuple[dict[str, list[str]], dict[str, float]]:
    cpu = dict.fromkeys(play, 0.0)
    found: dict[str, list[str]] = {mode: [] for mode in play}
    for game in range(args.games):
        for mode, settings in play.items():
            rng = random.Random(f"{args.seed}/{game}")
            before = cpu_seconds()
            found[mode] += candidates(engine, args.variant, rng, settings, races=False)
            cpu[mode] += cpu_seconds() - before
    for mode in play:
        print(f"self-play, {mode:>8}: {len(found[mode])} candidates in {cpu[mode]:.0f} CPU-s, "
              f"{len(found[mode]) / cpu[mode] * 60:.1f} per CPU-minute")
    if "no probe" in play:
        rates = {mode: len(found[mode]) / cpu[mode] for mode in play}
        print(f"candidates per CPU-second, probe / no probe: {rates['probe'] / rates['no probe']:.2f}x")
    return found, cpu


def accept(variant: str, fens: list[str],
           checks: dict[str, EngineCheck]) -> tuple[dict[str, set[str]], dict[str, dict[str, float]]]:
    """The candidates each check accepts, and each one's CPU with each."""
    cpu: dict[str, dict[str, float]] = {name: {} for name in checks}
    kept: dict[str, set[str]] = {name: set() for name in checks}
    for fen in fens:
        for name, check in checks.items():
            before = cpu_seconds()
            try:
                check.build(fen, variant)
                kept[name].add(fen)
            except Rejected:
                pass
            cpu[name][fen] = cpu_seconds() - before
    for name in checks:
        print(f"acceptance, {name:>10}: {len(fens)} candidates in {sum(cpu[name].values()):.0f} CPU-s, "
              f"{len(kept[name])} accepted")
    for name in list(checks)[1:]:
        print(f"acceptance CPU, {name} / sketch: {sum(cpu[name].values()) / sum(cpu['sketch'].values()):.2f}x; "
              f"accepted by {name} alone: {len(kept[name] - kept['sketch'])}, "
              f"by the sketch alone: {len(kept['sketch'] - kept[name])}")
    return kept, cpu


if __name__ == "__main__":
    main()
