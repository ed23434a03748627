"""ASEAN's counting, which Sittuyin shares: it starts by itself, without a declaration.

When no Bia is left on the board and the side to move has nothing but its Khun, the other
side has a number of moves to checkmate, fixed then by its strongest piece: with a Rua 16,
else with a Khon 44, else with a Ma 64; a Met alone gives no count (the 50-move rule is left).
As for Makruk (RULES.md), the count is of the stronger side's moves: when its last one is not
mate, the game is drawn (Fairy-Stockfish lets the draw be claimed one move later).
"""

from __future__ import annotations

from ..board import Board
from ..counting import Count, CountKind
from ..errors import IllegalMoveError
from ..types import BLACK_OFFSET, Color, Move, PieceType

_BIA, _KHUN = PieceType.BIA, PieceType.KHUN
LIMITS = ((PieceType.RUA, 16), (PieceType.KHON, 44), (PieceType.MA, 64))


class AutomaticCounting(Board):
    """A board whose count starts by itself (mixed into ASEAN's and Sittuyin's boards)."""

    declared_counting = False

    def push(self, move: Move) -> None:
        super().push(move)
        if self.count is None:
            self._start_count()

    def _start_count(self) -> None:
        bb = self.bitboards
        if bb[_BIA] | bb[_BIA + BLACK_OFFSET]:
            return
        bare = self.turn
        if self.occupied_co[bare] != bb[_KHUN + (0 if bare else BLACK_OFFSET)]:
            return
        limit = self.count_limit(not bare)
        if limit is None:
            return
        self.count = Count("pieces", bare, limit)
        self._history[-1] = (self.transposition_key(), self._history[-1][1])
        self._legal = None

    def count_limit(self, strong: Color) -> int | None:
        """The moves ``strong`` gets to mate a bare Khun, from its strongest piece; None: no count."""
        off = 0 if strong else BLACK_OFFSET
        for kind, limit in LIMITS:
            if self.bitboards[kind + off]:
                return limit
        return None

    def count_open_to(self, side: Color) -> CountKind | None:
        return None  # nobody declares: the count starts by itself

    def declare_count(self) -> Count:
        raise IllegalMoveError(f"in {self.variant} the count starts by itself", code="count_not_allowed")

    def _is_dead_material(self) -> bool:
        # Only two bare Khuns: Makruk's table of dead draws is not part of these variants.
        khuns = self.bitboards[_KHUN] | self.bitboards[_KHUN + BLACK_OFFSET]
        return (self.occupied_co[0] | self.occupied_co[1]) == khuns
