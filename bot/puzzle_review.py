"""``makruk-bot puzzle-review``: the puzzles that players' reports withheld, and the operator's
verdict on each.

    makruk-bot puzzle-review [--db PATH_OR_URL]                  list them, with the reasons
    makruk-bot puzzle-review --serve ID [--db ...]               reviewed: serve it again
    makruk-bot puzzle-review --withhold ID [--db ...]            reviewed: keep it withheld

A puzzle that three players reported since its last review is served to nobody (docs/puzzles.md,
"Ratings"); a verdict marks its reports reviewed, so only new reports count afterwards.
"""

from __future__ import annotations

import argparse
import sys

from storage import NotFound, open_storage

from .config import Settings, with_database


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("puzzle-review", help="puzzles withheld after reports, and the verdict on each")
    parser.add_argument("--db", help="database file or postgresql:// URL (default: DATABASE_URL, DATABASE_PATH)")
    verdict = parser.add_mutually_exclusive_group()
    verdict.add_argument("--serve", metavar="ID", help="serve the puzzle again")
    verdict.add_argument("--withhold", metavar="ID", help="keep the puzzle withheld")


async def main(settings: Settings, args: argparse.Namespace) -> int:
    if args.db:
        settings = with_database(settings, args.db)
    async with await open_storage(settings.database) as storage:
        chosen = args.serve or args.withhold
        if chosen:
            try:
                await storage.review_puzzle(chosen, withhold=args.withhold is not None)
            except NotFound:
                print(f"makruk-bot: no puzzle {chosen!r}", file=sys.stderr)
                return 1
            print(f"{chosen}: {'withheld' if args.withhold else 'served again'}")
            return 0
        for puzzle_id, reasons in await storage.withheld_puzzles():
            print(f"{puzzle_id}: {len(reasons)} reports" + "".join(f"\n  - {reason or '(no reason)'}"
                                                                   for reason in reasons))
    return 0
