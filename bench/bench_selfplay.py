"""Puzzles per CPU-hour from self-play with blunders off the line, against the line alone.

    .venv/bin/python bench/bench_selfplay.py [--variant makruk] [--seconds 600] [--seed 1]

Two modes take turns, a game each, in one run (the machine's load falls on both alike): the
generator's self-play as it is (``PlaySettings()``: 3 blunders a position) and the same without
blunders (``blunders=0``), both without counting races, as a variant that has its races plays.
Each game's candidates go to a shelf of their own in a temporary directory, holding a copy of
the shipped bank (so positions already kept are skipped, as in a real run), through the same
acceptance and proof as ``makruk-bot puzzles generate``. Each mode stops after ``--seconds``
of CPU (this process and its engine). Reported per mode: games, candidates, puzzles kept (mates
in 1 apart) and per CPU-hour; the figure is the ratio of the two modes' puzzles per CPU-hour.
"""

from __future__ import annotations

import argparse
import platform
import random
import shutil
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines import SyncUciEngine
from bot.puzzles.bank import bank_path, verification_path
from bot.puzzles.selfplay import PlaySettings, candidates
from bot.puzzles.shelf import DEFAULT_ENGINE, Shelf, load_state

MODES = {"blunders": PlaySettings(), "line alone": PlaySettings(blunders=0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="makruk")
    parser.add_argument("--seconds", type=float, default=600.0, help="CPU seconds per mode")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {args.variant}, "
          f"{args.seconds:g} CPU-s a mode, seed {args.seed}")
    with tempfile.TemporaryDirectory() as tmp, SyncUciEngine(DEFAULT_ENGINE, options={"Threads": 1, "Hash": 16}) \
            as engine:
        engine.start()
        shelves = {}
        for n, mode in enumerate(MODES):
            directory = Path(tmp) / str(n)
            directory.mkdir()
            for path in (bank_path(args.variant), verification_path(args.variant)):
                shutil.copy(path, directory / path.name)
            state = load_state(directory / "state.json")
            shelves[mode] = Shelf(directory, {args.variant: 100_000}, state, engine, {"seed": args.seed})
        shipped_warmups = next(iter(shelves.values())).warmups[args.variant]  # the bank's, before the run
        rngs = {mode: random.Random(args.seed) for mode in MODES}
        while any(shelf.state["cpu_seconds"].get(args.variant, 0) < args.seconds for shelf in shelves.values()):
            for mode, shelf in shelves.items():
                if shelf.state["cpu_seconds"].get(args.variant, 0) < args.seconds:
                    fens = candidates(engine, args.variant, rngs[mode], MODES[mode], races=False)
                    shelf.play(args.variant, fens, Path(tmp) / f"{mode}.json")
        rates = {}
        for mode, shelf in shelves.items():
            state = shelf.state
            hours = state["cpu_seconds"][args.variant] / 3600
            kept = state["kept"].get(args.variant, 0)
            warmups = shelf.warmups[args.variant] - shipped_warmups
            rates[mode] = kept / hours
            print(f"{mode:>10}: {state['games'][args.variant]} games, {state['candidates'].get(args.variant, 0)} "
                  f"candidates, {kept} kept ({warmups} mates in 1) in {hours * 60:.1f} CPU-min: "
                  f"{rates[mode]:.1f} per CPU-hour, {(kept - warmups) / hours:.1f} without mates in 1")
        base = rates["line alone"]
        print(f"blunders / line alone: {rates['blunders'] / base:.1f}x" if base else
              "blunders / line alone: the line alone kept none")


if __name__ == "__main__":
    main()
