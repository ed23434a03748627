"""Moves and squares as a channel reads them: Thai notation in Thai, SAN and Latin squares otherwise.

>>> from makruk import Board, Move
>>> board = Board()
>>> move_text("th", board, Move.from_uci("e3e4")), move_text("en", board, Move.from_uci("e3e4"))
('จ๔', 'e4')
>>> square_text("th", 20), square_text("ja", 20)
('จ๓', 'e3')
"""

from __future__ import annotations

from makruk import Board, Move, Square, square_name, square_thai


def move_text(language: str, board: Board, move: Move) -> str:
    """``move`` (legal on ``board``, before it is played) in the notation of ``language``."""
    return board.thai_san(move) if language == "th" else board.san(move)


def square_text(language: str, square: Square) -> str:
    return square_thai(square) if language == "th" else square_name(square)
