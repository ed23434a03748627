"""PGN export of a finished or running game, with the variant tag Fairy-Stockfish reads
(``[Variant "cambodian"]``: its names for the family)."""

from __future__ import annotations

from datetime import datetime

from makruk import Board, Move, san, starting_fen
from makruk.board import Promotion


def export_pgn(
    *,
    start_fen: str,
    moves: list[str],
    white: str,
    black: str,
    result: str | None,
    date: datetime,
    site: str = "Makruk bot",
    promotion: Promotion = "forced",
    variant: str = "makruk",
) -> str:
    tags = [
        ("Event", "Casual game"),
        ("Site", site),
        ("Date", date.strftime("%Y.%m.%d")),
        ("White", white),
        ("Black", black),
        ("Result", result or "*"),
        ("Variant", variant),
    ]
    if start_fen != starting_fen(variant):
        tags += [("SetUp", "1"), ("FEN", start_fen)]
    board = Board(start_fen, variant=variant, promotion=promotion, perpetual="draw")
    tokens: list[str] = []
    for i, uci in enumerate(moves):
        move = Move.from_uci(uci)
        if board.turn or i == 0:
            tokens.append(f"{board.fullmove_number}." if board.turn else f"{board.fullmove_number}...")
        tokens.append(san(board, move))
        board.push(move)
    tokens.append(result or "*")
    header = "\n".join(f'[{name} "{_escape(value)}"]' for name, value in tags)
    return header + "\n\n" + _wrap(" ".join(tokens)) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(text: str, width: int = 79) -> str:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line] if line else lines)
