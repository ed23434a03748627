"""``makruk-bot puzzles ...``: make, prove and list the puzzle bank.

    makruk-bot puzzles generate [--target 420] [--games N] [--minutes M] [--seed S]
    makruk-bot puzzles verify [--workers 2] [--prune] [--exhaustive 4]
    makruk-bot puzzles list [--json]
    makruk-bot puzzles stats
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path

from ..config import Settings
from .bank import BANK_PATH, load_bank, load_runs, write_bank


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("puzzles", help="make, prove and list the puzzle bank")
    actions = parser.add_subparsers(dest="puzzles_command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--bank", type=Path, default=BANK_PATH, help="the bank file (default: the shipped one)")

    gen = actions.add_parser("generate", parents=[common],
                             help="append new puzzles made with Fairy-Stockfish (resumable)")
    gen.add_argument("--target", type=int, default=420, help="bank size to reach over all runs")
    gen.add_argument("--games", type=int, help="stop after this many games")
    gen.add_argument("--minutes", type=float, help="stop after this long")
    gen.add_argument("--seed", type=int, help="random seed of this run (default: random)")
    gen.add_argument("--engine", help="Fairy-Stockfish binary (default: FAIRY_STOCKFISH or /usr/games/fairy-stockfish)")
    gen.add_argument("--threads", type=int, default=1)
    gen.add_argument("--hash", type=int, default=64, help="engine hash in MB")

    ver = actions.add_parser("verify", parents=[common], help="prove every puzzle with the project's own rules")
    ver.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ver.add_argument("--prune", action="store_true", help="drop the puzzles that fail from the bank")
    ver.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    ver.add_argument("--exhaustive", type=int, default=None, metavar="N",
                     help="prove uniqueness by exhaustive search for mates in up to N moves (default 4)")

    lst = actions.add_parser("list", parents=[common], help="print the bank")
    lst.add_argument("--json", action="store_true", help="one JSON object per line")

    actions.add_parser("stats", parents=[common], help="how many puzzles of each kind, ratings and themes")


async def main(settings: Settings, args: argparse.Namespace) -> int:
    command = args.puzzles_command
    if command == "generate":
        return await asyncio.to_thread(_generate, settings, args)
    if command == "verify":
        return await asyncio.to_thread(_verify, args)
    if command == "list":
        return _list(args)
    return _stats(args)


def _generate(settings: Settings, args: argparse.Namespace) -> int:
    from .generate import DEFAULT_ENGINE, GenerateSettings, generate

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(31)
    options = GenerateSettings(target=args.target, seed=seed, threads=args.threads, hash_mb=args.hash)
    engine = args.engine or settings.fairy_stockfish or DEFAULT_ENGINE
    started = time.monotonic()
    stats = generate(
        options, bank=args.bank, engine_path=engine, max_games=args.games,
        max_seconds=args.minutes * 60 if args.minutes else None,
    )
    print(f"{stats.games} games, {stats.positions} positions, {stats.screened} screened, "
          f"{stats.checked} fully checked, kept {dict(stats.kept)} in {time.monotonic() - started:.0f} s")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from .verify import EXHAUSTIVE_UP_TO, verify_bank

    puzzles = load_bank(args.bank)
    started = time.monotonic()
    exhaustive = EXHAUSTIVE_UP_TO if args.exhaustive is None else args.exhaustive
    verdicts = verify_bank(puzzles, workers=args.workers, exhaustive=exhaustive)
    elapsed = time.monotonic() - started
    failed = [v for v in verdicts if not v.ok]
    for verdict in verdicts:
        if not verdict.ok:
            print(f"FAIL {verdict.puzzle_id}: {'; '.join(verdict.problems)}")
        elif not args.quiet:
            print(f"ok   {verdict.puzzle_id} ({verdict.nodes} nodes)")
    print(f"{len(verdicts) - len(failed)} of {len(verdicts)} puzzles proved in {elapsed:.1f} s")
    if failed and args.prune:
        bad = {v.puzzle_id for v in failed}
        write_bank(args.bank, load_runs(args.bank), [p for p in puzzles if p.id not in bad])
        print(f"dropped {len(bad)} puzzles from {args.bank}")
        return 0
    return 1 if failed or not verdicts else 0


def _list(args: argparse.Namespace) -> int:
    out = sys.stdout
    for p in load_bank(args.bank):
        if args.json:
            out.write(json.dumps(p.listing(), ensure_ascii=False) + "\n")
        else:
            depth = f"mate in {p.mate_in}" if p.kind == "mate" else "material"
            out.write(f"{p.id}  {p.rating:4d}  {depth:<10}  {' '.join(p.moves):<30}  {p.fen}  {','.join(p.themes)}\n")
    return 0


def _stats(args: argparse.Namespace) -> int:
    puzzles = load_bank(args.bank)
    kinds = Counter(f"mate in {p.mate_in}" if p.kind == "mate" else "material" for p in puzzles)
    themes = Counter(t for p in puzzles for t in p.themes)
    ratings = sorted(p.rating for p in puzzles)
    print(f"{len(puzzles)} puzzles in {args.bank}; {len(load_runs(args.bank))} generation runs")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind:<10} {n}")
    if ratings:
        print(f"ratings {ratings[0]}..{ratings[-1]}, median {ratings[len(ratings) // 2]}")
    print("themes " + ", ".join(f"{t} {n}" for t, n in themes.most_common()))
    return 0
