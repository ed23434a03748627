"""Makruk (Thai chess) rules core: pure Python, standard library only.

>>> from makruk import Board
>>> board = Board()
>>> board.play(board.parse_move("จ๔"))
Move.from_uci('e3e4')
>>> board.san(board.parse_move("b8d7"))
'Nd7'
"""

from .board import Board, Outcome
from .counting import Count
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError, MakrukError
from .fen import STARTING_FEN
from .notation import parse_move, san, square_thai, thai_san
from .perft import perft
from .types import (
    BLACK,
    COLOR_NAMES,
    SQUARE_NAMES,
    WHITE,
    Color,
    Move,
    Piece,
    PieceType,
    Square,
    parse_square,
    square_name,
)


def _parse(self: Board, text: str) -> Move:
    return parse_move(self, text)


def _san(self: Board, move: Move) -> str:
    return san(self, move)


def _thai_san(self: Board, move: Move) -> str:
    return thai_san(self, move)


# Notation lives in its own module; these make it reachable from the board as well.
Board.parse_move = _parse  # type: ignore[attr-defined]
Board.san = _san  # type: ignore[attr-defined]
Board.thai_san = _thai_san  # type: ignore[attr-defined]

__all__ = [
    "BLACK",
    "COLOR_NAMES",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "Count",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "MakrukError",
    "Move",
    "Outcome",
    "Piece",
    "PieceType",
    "Square",
    "parse_move",
    "parse_square",
    "perft",
    "san",
    "square_name",
    "square_thai",
    "thai_san",
]
