"""Moves and squares as a channel reads them: the channel's notation (``notation san|thai|playok``),
else Thai notation in Thai and SAN otherwise; Thai squares in Thai, Latin otherwise.

>>> from makruk import Board, Move
>>> board = Board()
>>> move_text("th", board, Move.from_uci("e3e4")), move_text("en", board, Move.from_uci("e3e4"))
('จ๔', 'e4')
>>> move_text("en", board, Move.from_uci("f1e2"), "playok"), move_text("en", board, Move.from_uci("f1e2"), "thai")
('Be2', 'ค-จ๒')
>>> square_text("th", 20), square_text("ja", 20)
('จ๓', 'e3')
"""

from __future__ import annotations

from makruk import Board, Move, Square, square_name, square_thai

NOTATIONS = ("san", "thai", "playok")


def move_text(language: str, board: Board, move: Move, notation: str | None = None) -> str:
    """``move`` (legal on ``board``, before it is played) in ``notation``, or by default in the
    notation of ``language``. PlayOK's letters are Makruk's: other variants write their own SAN."""
    notation = notation or ("thai" if language == "th" else "san")
    if notation == "thai":
        return board.thai_san(move)
    if notation == "playok" and board.variant == "makruk":
        return board.playok_san(move)
    return board.san(move)


def square_text(language: str, square: Square) -> str:
    return square_thai(square) if language == "th" else square_name(square)
