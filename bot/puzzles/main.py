"""``makruk-bot puzzles ...``: make, prove and list the puzzle banks of the family.

    makruk-bot puzzles generate [--variant V ...] [--target N] [--hours H] [--games N] [--seed S] [--workers 2]
    makruk-bot puzzles mine [FILE.pgn ...] [--db [LOCATION]] [--variant V ...] [--target N] [--hours H]
    makruk-bot puzzles verify [--rules-only] [--prune] [--workers 2] [--exhaustive 4]
    makruk-bot puzzles accept --bank FILE      # re-run the acceptance, keep what passes
    makruk-bot puzzles list [--json] [--variant V]
    makruk-bot puzzles stats

Every command reads the banks of ``--dir`` (default: the shipped ones, one file per variant),
or the one file ``--bank``; a bank file's verification file lies beside it
(``bank-x.jsonl`` -> ``verification-x.jsonl``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import shutil
import sys
from collections import Counter
from pathlib import Path

from storage import open_storage

from ..config import Settings, is_database_url, with_database
from ..pgn import export_pgn
from .bank import BANK_PATH, PUZZLE_VARIANTS, BankPuzzle, bank_path, load_bank


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("puzzles", help="make, prove and list the puzzle banks")
    actions = parser.add_subparsers(dest="puzzles_command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dir", type=Path, default=BANK_PATH.parent, help="the banks' directory (default: shipped)")
    common.add_argument("--bank", type=Path, help="one bank file instead of the directory's")
    common.add_argument("--variant", action="append", choices=PUZZLE_VARIANTS,
                        help="only this variant (repeatable; default: all)")
    common.add_argument("--engine", help="Fairy-Stockfish (default: FAIRY_STOCKFISH or /usr/games/fairy-stockfish)")

    gen = actions.add_parser("generate", parents=[common], help="append accepted puzzles (resumable)")
    gen.add_argument("--target", type=int, help="bank size to reach per variant (default: the issue's targets)")
    gen.add_argument("--games", type=int, help="stop after this many games")
    gen.add_argument("--hours", type=float, help="stop after this long")
    gen.add_argument("--seed", type=int, help="a new state's seed (default: random; a resumed run keeps its own)")
    gen.add_argument("--state", type=Path, help="the state file (default: DIR/generate-state.json)")
    gen.add_argument("--hash", type=int, default=16, help="engine hash in MB")
    gen.add_argument("--workers", type=int, default=1, help="runs at once, one a core, sharing the banks; worker "
                     "k>1 keeps its state in STATE-k.json (default 1)")

    mine = actions.add_parser("mine", parents=[common], help="append accepted puzzles from real games (PGN)")
    mine.add_argument("pgn", type=Path, nargs="*", help="PGN files (PlayOK, pychess-variants, the bot's export)")
    mine.add_argument("--db", nargs="?", const="", metavar="LOCATION",
                      help="and the finished games of the bot's database (default: DATABASE_URL, DATABASE_PATH; "
                      "put files before --db)")
    mine.add_argument("--target", type=int, help="bank size to reach per variant (default: the issue's targets)")
    mine.add_argument("--hours", type=float, help="stop after this long")
    mine.add_argument("--state", type=Path, help="the state file (default: DIR/mine-state.json)")

    ver = actions.add_parser("verify", parents=[common],
                             help="prove every puzzle with the rules and re-run the engine acceptance")
    ver.add_argument("--rules-only", action="store_true", help="skip the engine: the rules' proofs and the "
                     "thresholds over the stored engine output")
    ver.add_argument("--workers", type=int, default=2, help="processes for the rules' proofs (default 2)")
    ver.add_argument("--prune", action="store_true", help="drop the puzzles that fail from their bank")
    ver.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    ver.add_argument("--exhaustive", type=int, default=None, metavar="N",
                     help="prove uniqueness by exhaustive search for mates in up to N moves (default 4)")

    actions.add_parser("accept", parents=[common],
                       help="re-run the acceptance on a bank's puzzles, keep those that pass with their records")

    lst = actions.add_parser("list", parents=[common], help="print the banks")
    lst.add_argument("--json", action="store_true", help="one JSON object per line")

    actions.add_parser("stats", parents=[common], help="how many puzzles of each variant and kind, ratings, themes")


async def main(settings: Settings, args: argparse.Namespace) -> int:
    command = args.puzzles_command
    engine = args.engine or settings.fairy_stockfish or "/usr/games/fairy-stockfish"
    searching = command in ("generate", "mine", "accept") or (command == "verify" and not args.rules_only)
    if searching and shutil.which(engine) is None:
        print(f"no engine at {engine}: install fairy-stockfish or give --engine / FAIRY_STOCKFISH", file=sys.stderr)
        return 2
    if command in ("generate", "mine") and args.bank is None and not args.dir.is_dir():
        print(f"no such directory: {args.dir}", file=sys.stderr)
        return 2
    if command == "generate":
        return await asyncio.to_thread(_generate, args, engine)
    if command == "mine":
        sources = await _mine_sources(settings, args)
        return 2 if sources is None else await asyncio.to_thread(_mine, args, engine, sources)
    if command == "verify":
        return await asyncio.to_thread(_verify, args, engine)
    if command == "accept":
        return await asyncio.to_thread(_accept, args, engine)
    if command == "list":
        return _list(args)
    return _stats(args)


def bank_files(args: argparse.Namespace) -> list[Path]:
    """The bank files a command works on."""
    if args.bank is not None:
        return [args.bank]
    return [bank_path(v, args.dir) for v in (args.variant or PUZZLE_VARIANTS)]


def _puzzles(args: argparse.Namespace) -> list[BankPuzzle]:
    wanted = set(args.variant or PUZZLE_VARIANTS)
    return [p for path in bank_files(args) for p in load_bank(path) if p.variant in wanted]


def _generate(args: argparse.Namespace, engine: str) -> int:
    from .generate import GenerateSettings, generate, generate_in_parallel
    from .shelf import TARGETS, BankRewritten, yields

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    variants = args.variant or list(TARGETS)
    targets = {v: args.target if args.target is not None else TARGETS[v] for v in variants}
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(31)
    options = GenerateSettings(targets=targets, seed=seed, hash_mb=args.hash)
    if args.workers < 1:
        print("--workers: at least 1", file=sys.stderr)
        return 2
    limits = {"engine_path": engine, "max_seconds": args.hours * 3600 if args.hours else None,
              "max_games": args.games}
    try:
        states = ([generate(options, directory=args.dir, state_path=args.state, **limits)] if args.workers == 1
                  else generate_in_parallel(options, args.workers, directory=args.dir, state_path=args.state,
                                            **limits))
    except (BankRewritten, ValueError) as error:  # a bank cut off or rewritten: said, not a traceback
        print(error, file=sys.stderr)
        return 1
    for state in states:
        print(f"games {state['games']}; kept {state['kept']}; per CPU-hour {yields(state)}")
    return 0


async def _mine_sources(settings: Settings, args: argparse.Namespace) -> list[tuple[str, str]] | None:
    """Each source's name and PGN text: the files, then the database's finished games; None
    (said on standard error) when there is nothing to read or a file or database is missing."""
    missing = [str(path) for path in args.pgn if not path.is_file()]
    if args.db is not None:
        settings = with_database(settings, args.db) if args.db else settings
        if not is_database_url(settings.database) and not Path(settings.database).is_file():
            missing.append(settings.database)
    if missing or (not args.pgn and args.db is None):
        print(f"no such file: {', '.join(missing)}" if missing else "give PGN files or --db", file=sys.stderr)
        return None
    try:
        sources = [(path.name, path.read_text(encoding="utf-8", errors="replace")) for path in args.pgn]
    except OSError as error:
        print(f"cannot read {error.filename}: {error.strerror}", file=sys.stderr)
        return None
    if args.db is not None:
        games: list[str] = []
        async with await open_storage(settings.database) as storage:
            after = 0
            while page := await storage.finished_games_after(after, limit=500):
                # The banks' rules promote a Bia when it reaches its row; a PGN does not say how a
                # game promoted, so games played with optional promotion are passed over.
                games += [export_pgn(start_fen=g.start_fen, moves=[m.uci for m in g.moves], white="White",
                                     black="Black", result=g.result, date=g.created, variant=g.variant)
                          for g in page if g.promotion == "forced"]
                after = page[-1].id
        sources.append(("database", "\n".join(games)))
    return sources


def _mine(args: argparse.Namespace, engine: str, sources: list[tuple[str, str]]) -> int:
    from .mine import mine
    from .shelf import TARGETS, yields

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    variants = args.variant or list(TARGETS)
    targets = {v: args.target if args.target is not None else TARGETS[v] for v in variants}
    state = mine(sources, directory=args.dir, state_path=args.state, targets=targets, engine_path=engine,
                 max_seconds=args.hours * 3600 if args.hours else None)
    print(f"games {state['games']}; kept {state['kept']}; per CPU-hour {yields(state)}")
    return 0


def _verify(args: argparse.Namespace, engine: str) -> int:
    from .reverify import verify_files

    logging.basicConfig(level=logging.WARNING)
    return verify_files(bank_files(args), engine=engine, rules_only=args.rules_only, prune=args.prune,
                        workers=args.workers, exhaustive=args.exhaustive, quiet=args.quiet)


def _accept(args: argparse.Namespace, engine: str) -> int:
    from .reverify import accept_file

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    for path in bank_files(args):
        kept, total, reasons = accept_file(path, engine=engine)
        print(f"{path}: {kept} of {total} puzzles pass the acceptance; refused: {dict(reasons.most_common())}")
    return 0


def _list(args: argparse.Namespace) -> int:
    out = sys.stdout
    for p in _puzzles(args):
        if args.json:
            out.write(json.dumps(p.listing(), ensure_ascii=False) + "\n")
        else:
            depth = f"mate in {p.mate_in}" if p.kind == "mate" else "material"
            out.write(f"{p.id}  {p.variant:<9}  {p.rating:4d}  {depth:<10}  {' '.join(p.moves):<30}  {p.fen}  "
                      f"{','.join(p.themes)}\n")
    return 0


def _stats(args: argparse.Namespace) -> int:
    puzzles = _puzzles(args)
    variants = Counter(p.variant for p in puzzles)
    kinds = Counter(f"{p.variant} " + (f"mate in {p.mate_in}" if p.kind == "mate" else "material") for p in puzzles)
    themes = Counter(t for p in puzzles for t in p.themes)
    ratings = sorted(p.rating for p in puzzles)
    print(f"{len(puzzles)} puzzles: " + ", ".join(f"{v} {n}" for v, n in variants.items()))
    for kind, n in sorted(kinds.items()):
        print(f"  {kind:<20} {n}")
    if ratings:
        print(f"ratings {ratings[0]}..{ratings[-1]}, median {ratings[len(ratings) // 2]}")
    print("themes " + ", ".join(f"{t} {n}" for t, n in themes.most_common()))
    return 0
