"""The Makruk family: the variants Fairy-Stockfish and pychess-variants play, by their names there.

Each is a subclass of ``Board`` that names its variant; ``Board(fen, variant=name)`` makes one.

>>> from makruk import Board
>>> board = Board(variant="cambodian")
>>> type(board).__name__, board.fen()
('CambodianBoard', 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1')
>>> board_class("chess")
Traceback (most recent call last):
...
makruk.errors.UnknownVariantError: unknown variant 'chess'; one of makruk, asean, cambodian, karouk, makpong, sittuyin
"""

from __future__ import annotations

from ..board import Board, board_class
from .asean import AseanBoard
from .cambodian import CambodianBoard, KaroukBoard
from .makpong import MakpongBoard
from .sittuyin import SittuyinBoard

# Every member of the family, in the order players are shown them; Kar Ouk is Ouk Chatrang
# where the first check wins.
VARIANTS = ("makruk", "makpong", "cambodian", "asean", "sittuyin", "karouk")
BOARDS: dict[str, type[Board]] = {variant: board_class(variant) for variant in VARIANTS}


def starting_fen(variant: str) -> str:
    """The start position of ``variant``.

    >>> starting_fen("asean")
    'rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1'
    """
    return board_class(variant).starting_fen


__all__ = ["BOARDS", "VARIANTS", "AseanBoard", "CambodianBoard", "KaroukBoard", "MakpongBoard", "SittuyinBoard",
           "board_class", "starting_fen"]
