"""What talking to Fairy-Stockfish costs the bot, against what the engine's search costs.

    .venv/bin/python bench/bench_uci.py [--games 20] [--seed 3000]

The puzzle generator's self-play (``selfplay.candidates``, Makruk, games ending once decided)
over ``SyncUciEngine`` in a worker thread, as ``makruk-bot puzzles generate`` runs it: about
2,000 MultiPV 3 searches of 100-6,000 nodes. Per search, the CPU of this process (the UCI
conversation, reading every ``info`` line, the rules replaying each move) and of the engine
process (the peer, measured in the same run); the ratio of the two is the figure. The games are
seeded, so two trees compare on the same searches (the count is printed).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines import SyncUciEngine
from bot.engines.base import EnginePosition
from bot.engines.uci import UciResult
from bot.puzzles.selfplay import PlaySettings, candidates
from bot.puzzles.shelf import DEFAULT_ENGINE, cpu_seconds


class Counted(SyncUciEngine):
    """The engine, counting its searches."""

    searches = 0

    def go(self, position: EnginePosition, **limits) -> UciResult:
        self.searches += 1
        return super().go(position, **limits)


def measure(games: int, seed: int) -> dict[str, float]:
    with Counted(DEFAULT_ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        own, both = time.process_time(), cpu_seconds()
        found = sum(len(list(candidates(engine, "makruk", random.Random(s), PlaySettings(), races=False)))
                    for s in range(seed, seed + games))
        own, both = time.process_time() - own, cpu_seconds() - both
    return {"searches": engine.searches, "candidates": found, "bot_ms": own / engine.searches * 1000,
            "engine_ms": (both - own) / engine.searches * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3000)
    args = parser.parse_args()
    result: dict[str, float] = {}
    worker = threading.Thread(target=lambda: result.update(measure(args.games, args.seed)))
    worker.start()
    worker.join()
    print(f"UCI cost, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
          f"{args.games} self-play games from seed {args.seed}: {result['searches']:.0f} searches, "
          f"{result['candidates']:.0f} candidates")
    print(f"per search: the bot {result['bot_ms']:.2f} ms CPU, the engine {result['engine_ms']:.2f} ms CPU; "
          f"bot / engine = {result['bot_ms'] / result['engine_ms']:.2f}")


if __name__ == "__main__":
    main()
