"""The Makruk family: the variants Fairy-Stockfish and pychess-variants play, by their names there.

Each is a subclass of ``Board``; ``Board(fen, variant=name)`` makes one.

>>> from makruk import Board
>>> board = Board(variant="cambodian")
>>> type(board).__name__, board.fen()
('CambodianBoard', 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1')
>>> board_class("chess")
Traceback (most recent call last):
...
makruk.errors.UnknownVariantError: unknown variant 'chess'; one of makruk, makpong, cambodian, asean, sittuyin, karouk
"""

from __future__ import annotations

from ..board import Board
from ..errors import UnknownVariantError
from .asean import AseanBoard
from .cambodian import CambodianBoard, KaroukBoard
from .makpong import MakpongBoard
from .sittuyin import SittuyinBoard

BOARDS: dict[str, type[Board]] = {
    "makruk": Board,
    "makpong": MakpongBoard,
    "cambodian": CambodianBoard,
    "asean": AseanBoard,
    "sittuyin": SittuyinBoard,
    "karouk": KaroukBoard,  # Ouk Chatrang where the first check wins
}
VARIANTS = tuple(BOARDS)


def board_class(variant: str) -> type[Board]:
    """The board class of ``variant`` (a Fairy-Stockfish name); UnknownVariantError otherwise."""
    found = BOARDS.get(variant) if isinstance(variant, str) else None
    if found is None:
        raise UnknownVariantError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    return found


def starting_fen(variant: str) -> str:
    """The start position of ``variant``.

    >>> starting_fen("asean")
    'rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1'
    """
    return board_class(variant).starting_fen


__all__ = ["BOARDS", "VARIANTS", "AseanBoard", "CambodianBoard", "KaroukBoard", "MakpongBoard", "SittuyinBoard",
           "board_class", "starting_fen"]
