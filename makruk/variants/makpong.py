"""Makpong: Makruk where a Khun in check may move only to capture the one piece giving check.

Other pieces still answer a check as in Makruk, by capturing or blocking; in double check the
Khun cannot move at all, so a double check is mate unless a capture or block answers both.

>>> from makruk import Board
>>> [m.uci() for m in Board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", variant="makpong").legal_moves()]
['e1e2']
"""

from __future__ import annotations

from ..board import Board
from ..errors import IllegalMoveError
from ..types import Move


class MakpongBoard(Board):
    variant = "makpong"

    def generate_moves(self) -> list[Move]:
        moves = super().generate_moves()
        checkers = self.checkers_mask
        if not checkers:
            return moves
        ksq = self.king(self.turn)
        return [m for m in moves if m.from_square != ksq or 1 << m.to_square == checkers]

    def _obeys_movement_and_check(self, move: Move) -> bool:
        if not super()._obeys_movement_and_check(move):
            return False
        checkers = self.checkers_mask
        # In double check no single square equals both checkers: the Khun may not move.
        return not checkers or move.from_square != self.king(self.turn) or 1 << move.to_square == checkers

    def why_illegal(self, move: Move) -> IllegalMoveError:
        if self.checkers_mask and move.from_square == self.king(self.turn) and move in Board.generate_moves(self):
            return IllegalMoveError(
                f"{move.uci()}: in Makpong a Khun in check may only capture the piece giving check",
                code="khun_may_not_flee",
            )
        return super().why_illegal(move)
