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
from .errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    MakrukError,
    UnknownVariantError,
)
from .fen import STARTING_FEN
from .history import CountEvent
from .notation import parse_move, read_square, san, square_thai, thai_san, to_arabic_digits
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
from .variants import VARIANTS, board_class, starting_fen

__all__ = [
    "BLACK",
    "COLOR_NAMES",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "Count",
    "CountEvent",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "MakrukError",
    "Move",
    "Outcome",
    "Piece",
    "PieceType",
    "Square",
    "UnknownVariantError",
    "board_class",
    "parse_move",
    "parse_square",
    "perft",
    "read_square",
    "san",
    "square_name",
    "square_thai",
    "starting_fen",
    "thai_san",
    "to_arabic_digits",
]
