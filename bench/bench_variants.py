"""The built-in engine in each variant of the family: a level against the random mover, and speed.

    .venv/bin/python bench/bench_variants.py                         # level 3, 10 games per variant
    .venv/bin/python bench/bench_variants.py --levels 1,2,3 --games 4 --variants sittuyin,asean
    .venv/bin/python bench/bench_variants.py --games 0 --speed 12    # nodes per second only

Games start from each variant's start position (Sittuyin's with its deployment), half with each
colour; the random mover is seeded per game, with the same seeds for every variant and level.
Counts are declared as the bot declares them, for both sides. The level thinks as in the bot (its
full time), in one worker process. A game still going after ``--max-plies`` is judged by the
built-in search at depth 4: 6 Bia ahead wins, else a draw. Speed: a depth-4 search (level 3's
kind, every root move scored) of ``--speed`` positions reached by random play in each variant.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines import BuiltinEngine, EnginePosition
from bot.engines.builtin import wants_count
from bot.engines.builtin.search import Limits, Searcher
from makruk import VARIANTS, Board, CountEvent, Move, starting_fen

ADJUDICATION_DEPTH = 4
ADJUDICATION_CP = 600


@dataclass
class Tally:
    """One level's games in one variant."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    adjudicated: int = 0
    plies: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)  # the level's own moves
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2


async def play(engine: BuiltinEngine, variant: str, level: int, colour: bool, seed: int,
               max_plies: int) -> tuple[float, str, int, list[float], bool]:
    """One game of ``level`` (playing ``colour``) against the random mover: the level's score,
    how it ended, its plies, the level's time per move and whether it was adjudicated."""
    rng = random.Random(seed)
    fen = starting_fen(variant)
    board = Board(fen, variant=variant)
    moves: list[str] = []
    events: list[CountEvent] = []
    seconds: list[float] = []
    while board.outcome() is None and board.ply < max_plies:
        position = EnginePosition(fen, tuple(moves), tuple(events), variant=variant)
        if board.can_declare_count() and wants_count(board):
            board.declare_count()
            events.append(CountEvent(board.ply, "count"))
            continue
        if board.turn == colour:
            started = time.perf_counter()
            uci = await engine.best_move(position, level=level)
            seconds.append(time.perf_counter() - started)
        else:
            uci = rng.choice(board.legal_moves()).uci()
        move = Move.from_uci(uci)
        if move not in board.legal_moves():
            raise AssertionError(f"{uci} is not legal in {board.fen()}")
        board.push(move)
        moves.append(uci)
    outcome = board.outcome()
    if outcome is not None:
        score = 1.0 if outcome.winner == colour else 0.0 if outcome.winner is not None else 0.5
        return score, outcome.reason, board.ply, seconds, False
    judged = Searcher().search(board.copy(), Limits(depth=ADJUDICATION_DEPTH)).score
    ahead = judged if board.turn == colour else -judged
    score = 1.0 if ahead >= ADJUDICATION_CP else 0.0 if ahead <= -ADJUDICATION_CP else 0.5
    return score, "adjudicated", board.ply, seconds, True


def speed(variant: str, count: int, seed: int) -> tuple[int, float]:
    """Nodes and seconds of depth-4 searches (every root move scored) on ``count`` positions."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(variant=variant)
        for _ in range(rng.randrange(20, 60)):
            if board.outcome() is not None:
                break
            board.push(rng.choice(board.legal_moves()))
        if board.outcome() is None and not board.in_deployment():
            boards.append(board)
    nodes, started = 0, time.perf_counter()
    for board in boards:
        nodes += Searcher().search(board, Limits(depth=4), all_root_scores=True).nodes
    return nodes, time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="3", help="built-in levels, comma-separated (default 3)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="default: every variant")
    parser.add_argument("--games", type=int, default=10, help="per variant and level, half with each colour")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--speed", type=int, default=0, help="positions per variant for the speed table")
    args = parser.parse_args()
    levels = [int(n) for n in args.levels.split(",")]
    variants = args.variants.split(",")

    tallies: dict[tuple[str, int], Tally] = {}
    engine = BuiltinEngine(workers=1, seed=args.seed)
    started = time.perf_counter()
    try:
        for variant in variants:
            for level in levels:
                tally = tallies[(variant, level)] = Tally()
                for game in range(args.games):
                    colour = game % 2 == 0
                    score, reason, plies, seconds, adjudicated = await play(
                        engine, variant, level, colour, args.seed + game, args.max_plies)
                    tally.wins += score == 1.0
                    tally.draws += score == 0.5
                    tally.losses += score == 0.0
                    tally.adjudicated += adjudicated
                    tally.plies.append(plies)
                    tally.seconds.extend(seconds)
                    tally.reasons[reason] += 1
                    print(f"{variant} L{level} {'white' if colour else 'black'} seed {args.seed + game}: "
                          f"{score} ({reason}, {plies} plies)", file=sys.stderr, flush=True)
    finally:
        await engine.aclose()

    if tallies:
        print(f"\n{sum(t.games for t in tallies.values())} games in {time.perf_counter() - started:.0f} s\n")
        print("| variant | level | games | won-drawn-lost | score | how they ended | plies (mean) "
              "| s/move (mean, max) |")
        print("|---|---|---|---|---|---|---|---|")
        for (variant, level), t in tallies.items():
            ended = ", ".join(f"{reason} {n}" for reason, n in t.reasons.most_common())
            mean_s = statistics.fmean(t.seconds) if t.seconds else 0.0
            max_s = max(t.seconds, default=0.0)
            print(f"| {variant} | {level} | {t.games} | {t.wins}-{t.draws}-{t.losses} | "
                  f"{t.score:g}/{t.games} | {ended} | {statistics.fmean(t.plies):.0f} | "
                  f"{mean_s:.2f}, {max_s:.2f} |")
    if args.speed:
        print("\n| variant | positions | nodes | seconds | nodes/s |")
        print("|---|---|---|---|---|")
        for variant in variants:
            nodes, took = speed(variant, args.speed, args.seed)
            print(f"| {variant} | {args.speed} | {nodes:,} | {took:.1f} | {nodes / took:,.0f} |")


if __name__ == "__main__":
    asyncio.run(main())
