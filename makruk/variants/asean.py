"""ASEAN chess: Makruk's pieces in chess's places, a Bia promoting on the last rank to a Rua, Ma,
Khon or Met, the 50-move rule and counting that starts by itself (``_counting``).

Fairy-Stockfish writes the Khon ``b`` and the Met ``q``, as in chess.

>>> from makruk import Board
>>> board = Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", variant="asean")
>>> sorted(m.uci() for m in board.legal_moves() if m.promotion)
['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r']
>>> board.push(board.parse_move("a8=Q")); board.fen()
'Q3k3/8/8/8/8/8/8/4K3 b - - 0 1'
"""

from __future__ import annotations

from typing import ClassVar

from ..fen import make_dialect
from ..notation import SAN_LETTERS
from ..types import MOVES, Move, PieceType
from ._counting import AutomaticCounting

# A Bia promoted to a Met is a Bia Ngai, written Q like a Met (as Fairy-Stockfish does, which
# also tells them apart: its Thai SAN gives the promoted one the Bia Ngai's letter ง).
DIALECT = make_dialect({
    PieceType.BIA: "p", PieceType.MET: "q", PieceType.BIA_NGAI: "q", PieceType.KHON: "b", PieceType.MA: "n",
    PieceType.RUA: "r", PieceType.KHUN: "k",
})
PROMOTIONS = {"q": PieceType.BIA_NGAI, "r": PieceType.RUA, "n": PieceType.MA, "b": PieceType.KHON}
# Each promotion of Makruk's move generator ("m") stands for these four, in Fairy-Stockfish's order.
_CHOICES = {
    MOVES[frm][to][1]: [Move(frm, to, letter) for letter in "qrnb"]
    for frm in range(64)
    for to in (*range(8), *range(56, 64))
    if frm != to
}


class AseanBoard(AutomaticCounting):
    variant = "asean"
    starting_fen = "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1"
    dialect = DIALECT
    promotion_rank = 7  # the last rank, where promotion is forced
    promotion_kinds: ClassVar[dict[str, PieceType]] = PROMOTIONS
    move_rule = 50
    san_letters: ClassVar[dict[PieceType, str]] = {
        **SAN_LETTERS, PieceType.KHON: "B", PieceType.MET: "Q", PieceType.BIA_NGAI: "Q",
    }

    def generate_moves(self) -> list[Move]:
        return _with_choices(super().generate_moves())

    def generate_tactical_moves(self) -> list[Move]:
        return _with_choices(super().generate_tactical_moves())


def _with_choices(moves: list[Move]) -> list[Move]:
    if not any(m.promotion for m in moves):
        return moves
    out: list[Move] = []
    for move in moves:
        if move.promotion == "m":
            out.extend(_CHOICES[move])
        else:
            out.append(move)
    return out
