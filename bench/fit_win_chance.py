"""Fits a variant's centipawn-to-win-chance curve from Fairy-Stockfish's self-play.

Makruk draws far more often than chess, so lichess's curve (fitted on chess games) would call a
+300 position a near-certain win when in Makruk it is often a draw. This script plays a few
hundred fast games of the engine against itself (equal node budgets, a few random opening
plies), records the engine's evaluation of sampled positions from White's side with the game's
result, and fits the expected score E = 1 / (1 + exp(-k * cp)) by maximum likelihood (a draw
counts half a win). The puzzle acceptance uses the win chance W = 2E - 1 on lichess's -1..1
scale (``bot/puzzles/acceptance.py``).

    PYTHONPATH=. .venv/bin/python bench/fit_win_chance.py [--variant makruk] [--games 300] [--nodes 3000]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engines import EnginePosition, SyncUciEngine  # noqa: E402
from makruk import Board, Move, starting_fen  # noqa: E402

MAX_PLIES = 240
FIRST_SAMPLED_PLY = 12
SAMPLE_EVERY = 3
SCORE_CLIP = 1500  # beyond this the result is settled; such positions carry no information on k


def play(engine: SyncUciEngine, variant: str, rng: random.Random, nodes: int) -> tuple[list[int], float]:
    """One game: the sampled evaluations (White's side, cp) and White's score (1, 0.5, 0)."""
    start = starting_fen(variant)
    board = Board(start, variant=variant)
    moves: list[str] = []
    samples: list[int] = []
    random_plies = rng.randint(2, 8)
    while len(moves) < MAX_PLIES and not board.is_game_over():
        legal = board.legal_moves()
        if len(moves) < random_plies:
            move = rng.choice(legal)
        else:
            result = engine.go(EnginePosition(start, tuple(moves), variant=variant), nodes=nodes)
            line = next((x for x in result.lines if x.multipv == 1), None)
            if result.bestmove is None or line is None:
                break  # the engine sees the game over (its own counting): scored by the board below
            if line.mate is None and line.score_cp is not None and len(moves) >= FIRST_SAMPLED_PLY \
                    and len(moves) % SAMPLE_EVERY == 0:
                cp = line.score_cp if board.turn else -line.score_cp
                if abs(cp) <= SCORE_CLIP:
                    samples.append(cp)
            move = Move.from_uci(result.bestmove)
            if move not in legal:
                break
        board.push(move)
        moves.append(move.uci())
    outcome = board.outcome()
    score = 0.5 if outcome is None or outcome.winner is None else (1.0 if outcome.winner else 0.0)
    return samples, score


def fit(points: list[tuple[int, float]]) -> float:
    """The k of E = 1/(1+exp(-k cp)) of greatest likelihood (Newton's method on one parameter)."""
    k = 0.004
    for _ in range(50):
        grad = hess = 0.0
        for cp, score in points:
            e = 1 / (1 + math.exp(-k * cp))
            grad += (score - e) * cp
            hess -= e * (1 - e) * cp * cp
        step = grad / hess
        k -= step
        if abs(step) < 1e-9:
            break
    return k


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="makruk")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish")
    parser.add_argument("--out", type=Path, help="also write the samples and the fit as JSON here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    points: list[tuple[int, float]] = []
    results = {1.0: 0, 0.5: 0, 0.0: 0}
    with SyncUciEngine(args.engine, options={"Threads": 1, "Hash": 16}) as engine:
        for _ in range(args.games):
            samples, score = play(engine, args.variant, rng, args.nodes)
            results[score] += 1
            points += [(cp, score) for cp in samples]
    k = fit(points)
    draws = results[0.5] / max(1, sum(results.values()))
    lines = [f"{args.variant}: {args.games} games at {args.nodes} nodes a move: +{results[1.0]} ={results[0.5]} "
             f"-{results[0.0]} (draws {draws:.0%}); {len(points)} positions; k = {k:.6f} per cp"]
    for cp in (100, 200, 300, 500, 800):
        lines.append(f"  {cp:4d} cp: win chance {2 / (1 + math.exp(-k * cp)) - 1:+.3f}")
    print("\n".join(lines))
    if args.out:
        args.out.write_text(json.dumps({"variant": args.variant, "games": args.games, "nodes": args.nodes,
                                        "results": {str(s): n for s, n in results.items()}, "k": k,
                                        "positions": len(points)}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
