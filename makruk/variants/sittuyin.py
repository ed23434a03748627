"""Sittuyin (Myanmar chess): the pieces start in hand and are deployed, and a Bia promotes to a
Sit-ke by a move of its own.

- Deployment: the Bia stand as in the start FEN; every other piece is in the hand (the FEN's
  pocket) and, while a side holds any, its move is to drop one (``R@a1``) on an empty square of
  its own first three ranks (Black: 6-8), a Rua only on the back rank.
- Promotion: a Bia on one of its promotion squares (the two long diagonals in the enemy half,
  a8 b7 c6 d5 e5 f6 g7 h8 for White; any square for a side's last Bia) becomes a Sit-ke where it
  stands (``d5d5f``) or one diagonal step away on an empty square (``d5c6f``), only while its
  side has no Sit-ke, and the new Sit-ke may neither attack an enemy piece nor give check.
- ASEAN's counting and the 50-move rule (``_counting``).

Fairy-Stockfish writes the Sit-ke ``F`` (moves as a Met) and the Elephant ``S`` (as a Khon).

>>> from makruk import Board
>>> board = Board(variant="sittuyin")
>>> len(board.legal_moves()), board.in_deployment(), board.pocket(True)[PieceType.RUA]
(88, True, 2)
>>> board.push(board.parse_move("R@a1")); board.fen()
'8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7[KSSFRNNkssfrrnn] b - - 0 1'
"""

from __future__ import annotations

import random
from typing import ClassVar

from .. import attacks as A
from ..board import Outcome
from ..errors import IllegalMoveError, InvalidFenError
from ..fen import FenFields, make_dialect, sort_pocket
from ..notation import SAN_LETTERS
from ..position import ZOBRIST, ZOBRIST_BLACK
from ..types import BLACK_OFFSET, DROP_KINDS, DROP_LETTERS, WHITE, Color, Move, PieceType, Square, parse_square
from ._counting import AutomaticCounting

_BIA, _MET, _NGAI, _RUA, _KHUN = PieceType.BIA, PieceType.MET, PieceType.BIA_NGAI, PieceType.RUA, PieceType.KHUN
# A promoted Sit-ke is a Bia Ngai written F (Fairy-Stockfish's Thai SAN gives it the letter ง).
DIALECT = make_dialect(
    {PieceType.BIA: "p", PieceType.MET: "f", PieceType.BIA_NGAI: "f", PieceType.KHON: "s", PieceType.MA: "n",
     PieceType.RUA: "r", PieceType.KHUN: "k"},
    pocket=True, bia_on_last_rank=True,
)
# Where each side deploys: its first three ranks; a Rua only on the back rank.
_CAMP = {WHITE: 0xFFFFFF, not WHITE: 0xFFFFFF << 40}
_BACK_RANK = {WHITE: A.RANK_1, not WHITE: A.RANK_8}
_PROMOTION_SQUARES = {
    WHITE: sum(1 << sq for sq in (56, 49, 42, 35, 36, 45, 54, 63)),
    not WHITE: sum(1 << sq for sq in (0, 9, 18, 27, 28, 21, 14, 7)),
}
_rng = random.Random(0x534954)
ZOBRIST_HAND = [[_rng.getrandbits(64) for _ in range(3)] for _ in range(16)]  # [piece code][number in hand]


class SittuyinBoard(AutomaticCounting):
    variant = "sittuyin"
    starting_fen = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"
    dialect = DIALECT
    promotion_rank = 8  # none of Makruk's promotions: Sittuyin's are moves of their own
    promotion_kinds: ClassVar[dict[str, PieceType]] = {"f": PieceType.BIA_NGAI}
    move_rule = 50
    san_letters: ClassVar[dict[PieceType, str]] = {**SAN_LETTERS, PieceType.MET: "F", PieceType.BIA_NGAI: "F"}

    def _set_up(self, fields: FenFields) -> int:
        self._hand = [0] * 16  # by piece code
        for code in fields.pocket:
            self._hand[code] += 1
        for code, n in enumerate(self._hand):
            if n and (code & 7 not in DROP_LETTERS or n > 2):
                raise InvalidFenError(f"Sittuyin's hand holds at most two of a piece and no Bia: {fields.pocket}")
        return _hand_key(self._hand)

    def copy(self) -> SittuyinBoard:
        other = super().copy()
        assert isinstance(other, SittuyinBoard)
        other._hand = self._hand[:]
        return other

    def pocket(self, color: Color) -> dict[PieceType, int]:
        off = 0 if color else BLACK_OFFSET
        return {kind: self._hand[kind + off] for kind in DROP_LETTERS if self._hand[kind + off]}

    def in_deployment(self) -> bool:
        return any(self._hand)

    def _holds(self, color: Color) -> bool:
        return any(self._hand[1:8] if color else self._hand[9:16])

    def _fen_pocket(self) -> tuple[int, ...]:
        return tuple(sort_pocket([code for code, n in enumerate(self._hand) for _ in range(n)]))

    # --- moves -------------------------------------------------------------------------

    def generate_moves(self) -> list[Move]:
        if self._holds(self.turn):
            drops = self._drops()
            if drops:  # a side with pieces in hand drops one, if it can
                return drops
        return super().generate_moves() + self._promotions()

    def generate_tactical_moves(self) -> list[Move]:
        if self._holds(self.turn) and self._drops():
            return []
        if self.checkers_mask:  # Makruk's answer to check takes every move, promotions included
            return super().generate_tactical_moves()
        return super().generate_tactical_moves() + self._promotions()

    def _drops(self) -> list[Move]:
        us = self.turn
        off = 0 if us else BLACK_OFFSET
        empty = _CAMP[us] & ~(self.occupied_co[0] | self.occupied_co[1])
        ksq = self.king(us)
        if ksq >= 0 and self.checkers_mask:  # only a drop between the Khun and a Rua helps
            checkers = self.checkers_mask
            if checkers & (checkers - 1) or not checkers & self.bitboards[_RUA + (BLACK_OFFSET - off)]:
                empty = 0
            else:
                empty &= A.BETWEEN[ksq][checkers.bit_length() - 1]
        moves = []
        for kind, letter in DROP_LETTERS.items():
            if not self._hand[kind + off]:
                continue
            targets = empty & _BACK_RANK[us] if kind == _RUA else empty
            for to in A.squares(targets):
                if kind == _KHUN and self.attackers_mask(not us, to):
                    continue
                moves.append(Move(to, to, drop=letter))
        return moves

    def _promotions(self) -> list[Move]:
        us = self.turn
        off = 0 if us else BLACK_OFFSET
        if self.bitboards[_MET + off] | self.bitboards[_NGAI + off]:
            return []  # a side promotes only while it has no Sit-ke
        bia = self.bitboards[_BIA + off]
        if not bia:
            return []
        occupied = self.occupied_co[0] | self.occupied_co[1]
        candidates = bia if not bia & (bia - 1) else bia & _PROMOTION_SQUARES[us]
        moves = []
        for frm in A.squares(candidates):
            for to in (frm, *A.squares(A.MET[frm] & ~occupied)):
                move = Move(frm, to, "f")
                if self._promotion_is_allowed(move):
                    moves.append(move)
        return moves

    def _promotion_is_allowed(self, move: Move) -> bool:
        """Legal, and the new Sit-ke attacks no enemy piece and no check is given."""
        us = self.turn
        if A.MET[move.to_square] & self.occupied_co[not us]:
            return False
        self.push(move)
        try:
            return not self.checkers_mask and not self.attackers_mask(self.turn, self.king(us))
        finally:
            self.pop()

    def _obeys_movement_and_check(self, move: Move) -> bool:
        if move.drop or move.promotion or self._holds(self.turn):
            return move in self.generate_moves()
        return super()._obeys_movement_and_check(move)

    def why_illegal(self, move: Move) -> IllegalMoveError:
        uci = move.uci()
        if self._holds(self.turn) and not move.drop:
            return IllegalMoveError(f"{uci}: pieces are still in hand; drop one first (e.g. R@a1)", code="must_drop")
        if move.drop:
            if not self._holds(self.turn):
                return IllegalMoveError(f"{uci}: no piece is left in hand", code="bad_drop")
            where = "the back rank" if move.drop == "R" else "an empty square of your first three ranks"
            return IllegalMoveError(f"{uci}: that piece is not in hand or may not go there ({where})", code="bad_drop")
        if move.promotion:
            return IllegalMoveError(
                f"{uci}: a Bia promotes on its promotion squares, while its side has no Sit-ke, and the new Sit-ke "
                "may not attack an enemy piece or give check", code="promotion_not_allowed",
            )
        return super().why_illegal(move)

    def _draw(self) -> Outcome | None:
        # When a side can do nothing but promote, the game is drawn (Fairy-Stockfish: a draw to claim).
        drawn = super()._draw()
        if drawn is None and not self._holds(self.turn):
            legal = self.legal_moves()
            if legal and all(m.promotion for m in legal):
                return Outcome("1/2-1/2", "stalemate")
        return drawn

    def _is_dead_material(self) -> bool:
        return not any(self._hand) and super()._is_dead_material()  # pieces in hand are still to come

    def _checks_after(self, code: int, frm: Square, to: Square) -> int:
        if self.king(self.turn) < 0:
            return 0  # that Khun is still in hand
        return super()._checks_after(code, frm, to)

    # --- making moves ------------------------------------------------------------------

    def push(self, move: Move) -> None:
        if not move.drop:
            super().push(move)
            return
        us = self.turn
        to = move.to_square
        code = DROP_KINDS[move.drop] + (0 if us else BLACK_OFFSET)
        self._stack.append((0, self.halfmove_clock, self.count, self._key, self.checkers_mask, self._window))
        self.move_stack.append(move)
        hand = self._hand
        key = self._key ^ ZOBRIST_HAND[code][hand[code]] ^ ZOBRIST_HAND[code][hand[code] - 1]
        hand[code] -= 1
        self.piece_codes[to] = code
        self.bitboards[code] |= 1 << to
        self.occupied_co[us] |= 1 << to
        self._key = key ^ ZOBRIST[code][to] ^ ZOBRIST_BLACK
        self.halfmove_clock = 0
        self._window = len(self._history)
        if not us:
            self.fullmove_number += 1
        self.turn = not us
        ksq = self.king(self.turn)
        self.checkers_mask = self.attackers_mask(us, ksq) if ksq >= 0 else 0
        self._history.append((self.transposition_key(), bool(self.checkers_mask)))
        self._legal = None

    def pop(self) -> Move:
        move = self.move_stack[-1]
        if not move.drop:
            return super().pop()
        self.move_stack.pop()
        _, self.halfmove_clock, self.count, self._key, self.checkers_mask, self._window = self._stack.pop()
        self._history.pop()
        self._legal = None
        self.turn = us = not self.turn
        if not us:
            self.fullmove_number -= 1
        to = move.to_square
        code = self.piece_codes[to]
        self._hand[code] += 1
        self.piece_codes[to] = 0
        self.bitboards[code] ^= 1 << to
        self.occupied_co[us] ^= 1 << to
        return move

    def standard_drop(self) -> Move | None:
        """The next drop of a sound standard arrangement for the side to move (``setup auto``):
        Rua in the corners, Ma and Elephants beside them, Khun and Sit-ke behind the centre; a
        square already taken falls back to the first legal drop of the same piece."""
        if not self._holds(self.turn):
            return None
        legal = self.legal_moves()
        plan = _STANDARD[self.turn]
        for letter, square in plan:
            move = Move(square, square, drop=letter)
            if move in legal:
                return move
        return legal[0]


# Black's Bia stand as White's turned half round the board (a3 and h6), so its plan is White's turned.
_WHITE_PLAN = [("K", "g2"), ("F", "e3"), ("R", "a1"), ("R", "h1"), ("S", "c2"), ("S", "f2"), ("N", "b2"), ("N", "d2")]
_STANDARD = {
    WHITE: [(letter, parse_square(name)) for letter, name in _WHITE_PLAN],
    not WHITE: [(letter, 63 - parse_square(name)) for letter, name in _WHITE_PLAN],
}


def _hand_key(hand: list[int]) -> int:
    key = 0
    for code, n in enumerate(hand):
        if n:
            key ^= ZOBRIST_HAND[code][0] ^ ZOBRIST_HAND[code][n]
    return key
