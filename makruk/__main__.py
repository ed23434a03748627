"""Command line: ``python -m makruk perft|legal|status|parse [--variant NAME] ...`` and
``python -m makruk pgn FILE [--json]`` (see README).

``--variant`` plays another member of the family (makpong, cambodian, asean, sittuyin); the FEN
``startpos`` stands for the variant's start position.

Every error is one line on stderr and exit status 2; nothing is printed on stdout then.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from .board import Board
from .errors import MakrukError
from .notation import parse_move
from .perft import perft
from .pgn import PgnGame, read_games
from .types import Move


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        raise _UsageError(message)


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        output = args.run(args)
        if isinstance(output, tuple):  # pgn: its text, and whether every game was read
            text, complete = output
            print(text)
            return 0 if complete else 1
        print(output)
        return 0
    except (_UsageError, MakrukError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("error: depth too large", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m makruk", description="Makruk rules core")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = commands.add_parser("perft", help="count leaf positions")
    p.add_argument("fen")
    p.add_argument("depth", type=int)
    _rule_options(p)
    p.set_defaults(run=_perft)

    p = commands.add_parser("legal", help="legal moves after some moves")
    p.add_argument("fen")
    p.add_argument("moves", nargs="*")
    _rule_options(p)
    p.set_defaults(run=_legal)

    p = commands.add_parser("status", help="the position as JSON after moves and count tokens")
    p.add_argument("fen")
    p.add_argument("tokens", nargs="*")
    _rule_options(p)
    p.set_defaults(run=_status)

    p = commands.add_parser("parse", help="the UCI of a move in any notation")
    p.add_argument("fen")
    p.add_argument("text")
    _rule_options(p)
    p.set_defaults(run=_parse)

    p = commands.add_parser("pgn", help="read the games of a PGN file ('-': standard input)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="one JSON object a game")
    p.add_argument("--promotion", choices=["forced", "optional"], default="forced")
    p.add_argument("--perpetual", choices=["forbid", "draw"], default="draw")
    p.set_defaults(run=_pgn)
    return parser


def _rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--promotion", choices=["forced", "optional"], default="forced")
    p.add_argument("--perpetual", choices=["forbid", "draw"], default="forbid")
    p.add_argument("--variant", default="makruk", help="makruk (default), makpong, cambodian, asean or sittuyin")


def _board(args: argparse.Namespace) -> Board:
    fen = None if args.fen == "startpos" else args.fen
    return Board(fen, variant=args.variant, promotion=args.promotion, perpetual=args.perpetual)


def _perft(args: argparse.Namespace) -> str:
    if args.depth < 0:
        raise _UsageError(f"depth must not be negative, got {args.depth}")
    return str(perft(_board(args), args.depth))


def _legal(args: argparse.Namespace) -> str:
    board = _board(args)
    for token in args.moves:
        board.play(Move.from_uci(token))
    return " ".join(sorted(m.uci() for m in board.legal_moves()))


def _status(args: argparse.Namespace) -> str:
    board = _board(args)
    for token in args.tokens:
        if token == "count":
            if board.is_game_over():
                raise _UsageError("the game is over; the count cannot be declared")
            board.declare_count()
        elif token == "stopcount":
            if board.is_game_over():
                raise _UsageError("the game is over; the count cannot be stopped")
            board.stop_count()
        else:
            board.play(Move.from_uci(token))
    outcome = board.outcome()
    status = {
        "fen": board.fen(),
        "turn": "w" if board.turn else "b",
        "check": board.is_check(),
        "legal": sorted(m.uci() for m in board.legal_moves()),
        "outcome": outcome.as_dict() if outcome else None,
        "count": board.count.as_dict() if board.count else None,
    }
    return json.dumps(status, ensure_ascii=False)


def _parse(args: argparse.Namespace) -> str:
    return parse_move(_board(args), args.text).uci()


def _pgn(args: argparse.Namespace) -> tuple[str, bool]:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8-sig") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise _UsageError(f"cannot read {args.file}: {exc}") from None
    games = read_games(text, promotion=args.promotion, perpetual=args.perpetual)
    if not games:
        raise _UsageError(f"no game in {args.file}")
    if args.json:
        lines = [json.dumps(game.as_dict(), ensure_ascii=False) for game in games]
    else:
        lines = ["\n".join(_describe(game)) + "\n" for game in games]
    return "\n".join(lines).rstrip("\n"), all(game.error is None for game in games)


def _describe(game: PgnGame) -> list[str]:
    lines = [f"game {game.number}"]
    lines += [f"  [{name} \"{value}\"]" for name, value in game.tags.items()]
    lines.append(f"  variant: {game.variant}")
    lines.append("  moves: " + (" ".join(m.uci() for m in game.moves) or "-"))
    lines.append(f"  fen: {game.fen or '-'}")
    lines.append(f"  result: {game.result or '-'}")
    outcome = game.outcome
    lines.append(f"  outcome: {outcome.result} {outcome.reason}" if outcome else "  outcome: -")
    if game.after_end:
        lines.append(f"  note: the rules ended the game after ply {len(game.moves)}; "
                     f"{len(game.after_end)} more moves were not played: {' '.join(game.after_end[:10])}")
    if game.error is not None:
        lines.append(f"  error: game {game.number}, {game.error}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
