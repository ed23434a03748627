"""Command line: draw a board (PNG) or a game replay (GIF).

    python -m renderers FEN --out board.png [--flip] [--last UCI] [--coords thai] [--size N]
    python -m renderers FEN --gif e3e4 e6e5 ... --out game.gif
    python -m renderers startpos --variant sittuyin --out deployment.png

``FEN`` may be ``startpos`` (the variant's start position). ``--out -`` writes to standard
output. Bad input exits with status 2 and one line on standard error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from makruk import VARIANTS, starting_fen

from .animation import render_gif
from .board import render_board, render_preview
from .caption import render_puzzle_card
from .scene import COORDS
from .theme import THEMES

EXIT_BAD_INPUT = 2


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    fen = starting_fen(args.variant) if args.fen == "startpos" else args.fen
    try:
        data = _render(args, fen)
    except ValueError as error:  # every input error of makruk and renderers is a ValueError
        return _fail(str(error))
    try:
        if args.out == "-":
            sys.stdout.buffer.write(data)
        else:
            Path(args.out).write_bytes(data)
    except OSError as error:
        return _fail(f"cannot write {args.out}: {error.strerror or error}")
    return 0


def _render(args: argparse.Namespace, fen: str) -> bytes:
    common = {"variant": args.variant, "coords": args.coords, "theme": args.theme}
    if args.gif is not None:
        moves = [m for chunk in args.gif for m in chunk.replace(",", " ").split()]
        return render_gif(fen, moves, size=args.size or 480, flip=args.flip, **common)
    if args.puzzle is not None:
        flip = True if args.flip else None
        return render_puzzle_card(fen, args.puzzle, size=args.size or 800, flip=flip, last_move=args.last, **common)
    options = {"flip": args.flip, "last_move": args.last, "arrows": args.arrow or (), "caption": args.caption, **common}
    if args.preview:
        return render_preview(fen, size=args.size or 240, **options)
    return render_board(fen, size=args.size or 800, **options)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        raise SystemExit(_fail(message))


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m renderers",
                     description="Draw a board of the Makruk family as PNG, or a game as GIF.")
    parser.add_argument("fen", help="position in FEN, or 'startpos'")
    parser.add_argument("--out", required=True, help="output file, '-' for standard output")
    parser.add_argument("--variant", metavar="NAME", choices=VARIANTS, default="makruk",
                        help=f"the variant the FEN is read as: {', '.join(VARIANTS)} (default makruk)")
    parser.add_argument("--size", type=int, help="width in pixels (board 800, preview 240, GIF 480)")
    parser.add_argument("--flip", action="store_true", help="show the board from Black's side")
    parser.add_argument("--last", metavar="UCI", help="last move to highlight, e.g. e3e4")
    parser.add_argument("--coords", choices=COORDS, default="latin", help="coordinate labels")
    parser.add_argument("--theme", choices=sorted(THEMES), default="wood")
    parser.add_argument("--arrow", action="append", metavar="UCI", help="hint arrow (repeatable)")
    parser.add_argument("--caption", help="text below the board (Thai, English, Japanese)")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--preview", action="store_true", help="small preview image (LINE)")
    kind.add_argument("--puzzle", metavar="CAPTION", help="puzzle card with this caption above the board")
    kind.add_argument("--gif", nargs="+", metavar="UCI", help="replay these moves from FEN as a GIF")
    return parser


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
