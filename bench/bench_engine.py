"""Strength of the bot's levels: a small match table and estimated Elo per level.

Each level plays a few games against fixed opponents: the random mover and Fairy-Stockfish at
fixed node counts. Games start from short random openings (the same opening with both colours)
and use our rules (counting declared as the bot would declare it). A game still going at the
ply cap is adjudicated by Fairy-Stockfish (200,000 nodes): 6 Bia or more ahead wins, else a draw.
Ratings come from a Bradley-Terry fit over every game played (one virtual draw against each
opponent keeps perfect scores finite), with the random mover at 0. Timings (kept here, not in
the tests): each level's move on fixed middlegames, and a review's analysis of fixed games.

    .venv/bin/python bench/bench_engine.py                      # default: 2 games per pairing
    .venv/bin/python bench/bench_engine.py --games 4 --levels 1,2,3,4,5,6,7,8
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import itertools
import json
import random
import statistics
import sys
import time
import zlib
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines import BuiltinEngine, EnginePosition, LevelledEngine, UciEngine, find_fairy_stockfish
from bot.engines.builtin import wants_count
from bot.engines.levels import LEVELS
from bot.services.analysis import REVIEW_SECONDS
from makruk import Board, CountEvent, Move

ADJUDICATION_NODES = 200_000
ADJUDICATION_CP = 600
PEOPLE_SCALE = (800, 2600)  # ratings given to the weakest and the strongest level measured


@dataclass
class Player:
    name: str
    play: Callable[[EnginePosition], Awaitable[str]]  # the move's UCI


@dataclass
class Game:
    white: str
    black: str
    result: str  # "1-0", "0-1", "1/2-1/2"
    reason: str
    plies: int


async def play_game(white: Player, black: Player, opening: list[str], max_plies: int,
                    judge: UciEngine | None = None) -> Game:
    board = Board()
    moves: list[str] = []
    events: list[CountEvent] = []
    for uci in opening:
        board.push(Move.from_uci(uci))
        moves.append(uci)
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return Game(white.name, black.name, outcome.result, outcome.reason, board.ply)
        if board.ply >= max_plies:
            result = await adjudicate(judge, EnginePosition(Board.starting_fen, tuple(moves), tuple(events)))
            return Game(white.name, black.name, result, "adjudicated", board.ply)
        player = white if board.turn else black
        if board.can_declare_count() and wants_count(board):
            board.declare_count()
            events.append(CountEvent(board.ply, "count"))
            continue
        position = EnginePosition(Board.starting_fen, tuple(moves), tuple(events))
        uci = await player.play(position)
        move = Move.from_uci(uci)
        if move not in board.legal_moves():
            raise AssertionError(f"{player.name} played the illegal move {uci} in {board.fen()}")
        board.push(move)
        moves.append(uci)


async def adjudicate(judge: UciEngine | None, position: EnginePosition) -> str:
    if judge is None:
        return "1/2-1/2"
    analysis = (await judge.go(position, nodes=ADJUDICATION_NODES)).analysis
    value = analysis.value() if position.board().turn else -analysis.value()
    if abs(value) < ADJUDICATION_CP:
        return "1/2-1/2"
    return "1-0" if value > 0 else "0-1"


def random_player(seed: int) -> Player:
    rng = random.Random(seed)

    async def play(position: EnginePosition) -> str:
        return rng.choice(position.board().legal_moves()).uci()

    return Player("random", play)


def fairy_player(fairy: UciEngine, nodes: int) -> Player:
    rng = random.Random(nodes)

    async def play(position: EnginePosition) -> str:
        result = await fairy.go(position, nodes=nodes)
        legal = position.board().legal_moves()
        if result.bestmove is not None and Move.from_uci(result.bestmove) in legal:
            return result.bestmove
        return rng.choice(legal).uci()  # FSF's rules differ (counting, perpetual check): rare

    return Player(f"FSF {nodes} nodes", play)


def level_player(engine: LevelledEngine, level: int) -> Player:
    async def play(position: EnginePosition) -> str:
        return await engine.best_move(position, level=level)

    return Player(f"L{level}", play)


async def time_level(engine: LevelledEngine, level: int, positions: list[EnginePosition]) -> list[float]:
    times = []
    for position in positions:
        started = time.perf_counter()
        await engine.best_move(position, level=level)
        times.append(time.perf_counter() - started)
    return times


async def time_reviews(engine: LevelledEngine, games: list[EnginePosition]) -> list[float]:
    """Seconds the review's analysis of each game takes (its budget is REVIEW_SECONDS)."""
    times = []
    for game in games:
        started = time.perf_counter()
        await engine.analyse_game(game, seconds=REVIEW_SECONDS)
        times.append(time.perf_counter() - started)
    return times


def middlegames(count: int, seed: int) -> list[EnginePosition]:
    """Positions after 16-40 random-but-capturing plies (fixed by the seed)."""
    rng = random.Random(seed)
    positions: list[EnginePosition] = []
    while len(positions) < count:
        board = Board()
        moves = []
        for _ in range(rng.randrange(16, 40)):
            legal = board.legal_moves()
            captures = [m for m in legal if board.piece_at(m.to_square)]
            move = rng.choice(captures if captures and rng.random() < 0.5 else legal)
            board.push(move)
            moves.append(move.uci())
            if board.outcome() is not None:
                break
        if board.outcome() is None:
            positions.append(EnginePosition(Board.starting_fen, tuple(moves)))
    return positions


def openings(count: int, plies: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        board = Board()
        line = []
        for _ in range(plies):
            move = rng.choice(board.legal_moves())
            board.push(move)
            line.append(move.uci())
        result.append(line)
    return result


def fit_ratings(games: list[Game], anchor: str, prior_draws: float = 1.0) -> dict[str, float]:
    """Bradley-Terry (Elo) ratings by gradient ascent; one virtual draw per pair played."""
    players = sorted({g.white for g in games} | {g.black for g in games})
    score: dict[tuple[str, str], float] = defaultdict(float)
    played: dict[tuple[str, str], float] = defaultdict(float)
    for g in games:
        s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g.result]
        score[(g.white, g.black)] += s
        score[(g.black, g.white)] += 1 - s
        played[(g.white, g.black)] += 1
        played[(g.black, g.white)] += 1
    for pair in list(played):
        played[pair] += prior_draws
        score[pair] += prior_draws / 2
    rating = dict.fromkeys(players, 0.0)
    for _ in range(20000):
        grad = dict.fromkeys(players, 0.0)
        for (a, b), n in played.items():
            expected = n / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            grad[a] += score[(a, b)] - expected
        for p in players:
            rating[p] += 4.0 * grad[p]
        shift = rating[anchor]
        rating = {p: r - shift for p, r in rating.items()}
        if max(abs(g) for g in grad.values()) < 1e-4:
            break
    return rating


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games per pairing (colours alternate)")
    parser.add_argument("--levels", default="1,2,3,4,5,6,7", help="levels to measure (8 thinks 2.5 s a move)")
    parser.add_argument("--fsf-nodes", default="10,100,1000,10000", help="Fairy-Stockfish opponents' node counts")
    parser.add_argument("--calibration-games", type=int, default=6,
                        help="games between neighbouring fixed opponents (they place the scale)")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--time-scale", type=float, default=1.0, help="multiplies the built-in engine's times")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ladder", type=int, default=0, metavar="N",
                        help="also N games between each two neighbouring levels of --ladder-levels")
    parser.add_argument("--ladder-levels", default=None, help="default: --levels")
    parser.add_argument("--timing", type=int, default=20, metavar="N",
                        help="also time each level's move on N fixed middlegame positions (0: skip)")
    parser.add_argument("--reviews", type=int, default=5, metavar="N",
                        help="also time the review of N fixed games of 16-40 plies (0: skip)")
    parser.add_argument("--results", type=Path,
                        help="JSON-lines file of games: read first (they count in the table), new games appended")
    args = parser.parse_args()

    path = find_fairy_stockfish()
    if path is None:
        print("Fairy-Stockfish is needed for this benchmark", file=sys.stderr)
        return 2
    fairy = UciEngine(path)  # the fixed opponents
    bot_fairy = UciEngine(path)  # the levels 5-8 (own process, own options)
    engine = LevelledEngine(BuiltinEngine(time_scale=args.time_scale, seed=args.seed), bot_fairy)
    levels = [int(x) for x in args.levels.split(",")]
    nodes = [int(x) for x in args.fsf_nodes.split(",")]
    anchors = [random_player(args.seed)] + [fairy_player(fairy, n) for n in nodes]
    games: list[Game] = []
    if args.results is not None and args.results.exists():
        games = [Game(**json.loads(line)) for line in args.results.read_text().splitlines() if line.strip()]
    started = time.perf_counter()

    async def match(a: Player, b: Player, count: int) -> None:
        seed = zlib.crc32(f"{a.name}/{b.name}/{args.seed}".encode())
        for i, opening in enumerate(openings((count + 1) // 2, 2, seed)):
            for white, black in ((a, b), (b, a))[: count - 2 * i]:
                game = await play_game(white, black, opening, args.max_plies, judge=fairy)
                games.append(game)
                if args.results is not None:
                    with args.results.open("a") as out:
                        out.write(json.dumps(dataclasses.asdict(game)) + "\n")
                print(f"  {game.white:>16} - {game.black:<16} {game.result:7} {game.reason:11} "
                      f"{game.plies:3d} plies", flush=True)

    timing: dict[int, list[float]] = {}
    try:
        for level in levels if args.timing else ():
            timing[level] = await time_level(engine, level, middlegames(args.timing, args.seed))
            print(f"level {level}: {statistics.mean(timing[level]):.2f} s per move on average, "
                  f"{max(timing[level]):.2f} s at most", flush=True)
        if args.reviews:
            reviews = await time_reviews(engine, middlegames(args.reviews, args.seed + 1))
            print(f"review: {statistics.mean(reviews):.2f} s per game on average, {max(reviews):.2f} s at most "
                  f"(budget {REVIEW_SECONDS:.0f} s)", flush=True)
        print("calibration: neighbouring fixed opponents")
        for a, b in itertools.pairwise(anchors):
            await match(a, b, args.calibration_games)
        ladder = [int(x) for x in (args.ladder_levels or args.levels).split(",")]
        players = {level: level_player(engine, level) for level in set(levels) | set(ladder)}
        for level in levels if args.games else ():
            print(f"level {level}: {LEVELS[level].summary}")
            for anchor in anchors:
                await match(players[level], anchor, args.games)
        for low, high in itertools.pairwise(ladder) if args.ladder else ():
            print(f"ladder: level {low} against level {high}")
            await match(players[low], players[high], args.ladder)
    finally:
        await engine.aclose()
        await fairy.aclose()

    print()
    print(f"{time.strftime('%Y-%m-%d')}: {len(games)} games ({time.perf_counter() - started:.0f} s in this run)")
    report(games, [a.name for a in anchors], timing)
    return 0


def report(games: list[Game], anchors: list[str], timing: dict[int, list[float]]) -> None:
    """The match table: each level's points against the fixed opponents and the next level up."""
    ratings = fit_ratings(games, "random")
    players = {g.white for g in games} | {g.black for g in games}
    levels = sorted(int(name[1:]) for name in players if name.startswith("L"))
    anchors = [a for a in anchors if a in players]
    low, high = (ratings.get(f"L{levels[0]}", 0.0), ratings.get(f"L{levels[-1]}", 1.0)) if levels else (0.0, 1.0)
    header = ("| player | " + " | ".join(anchors) +
              " | next level | Elo (random = 0) | rating (levels.py) | s/move (mean, max) |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name in [f"L{level}" for level in levels] + anchors:
        cells = [_points(games, name, anchor) if anchor != name else "-" for anchor in anchors]
        cells.append(_points(games, name, f"L{int(name[1:]) + 1}") if name.startswith("L") else "")
        times = timing.get(int(name[1:]), []) if name.startswith("L") else []
        cells.append(f"{ratings[name]:.0f}")
        cells.append(f"{_people_rating(ratings[name], low, high):.0f}" if name.startswith("L") else "")
        cells.append(f"{statistics.mean(times):.2f}, {max(times):.2f}" if times else "")
        print(f"| {name} | " + " | ".join(cells) + " |")


def _people_rating(elo: float, low: float, high: float) -> float:
    """On the bot's scale: the lowest level measured at 800, the highest at 2600, the others
    placed between by their Elo (the benchmark's gaps are relative; a few games saturate them)."""
    if high <= low:
        return PEOPLE_SCALE[0]
    return round((PEOPLE_SCALE[0] + (elo - low) * (PEOPLE_SCALE[1] - PEOPLE_SCALE[0]) / (high - low)) / 10) * 10


def _points(games: list[Game], name: str, other: str) -> str:
    pair = [g for g in games if {g.white, g.black} == {name, other}]
    if not pair:
        return ""
    points = sum(1.0 if _winner(g) == name else 0.5 if g.result == "1/2-1/2" else 0.0 for g in pair)
    return f"{points:g}/{len(pair)}"


def _winner(game: Game) -> str | None:
    return {"1-0": game.white, "0-1": game.black}.get(game.result)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
