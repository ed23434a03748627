"""Move generation: the moves the pieces make that leave their Khun safe, all of them or the
tactical ones, and whether one given move is such a move.

These are ``Board``'s (``makruk/board.py``) ``generate_moves``, ``generate_tactical_moves`` and
``promotion_zone``; its ``legal_moves`` adds the perpetual-check rule, which needs the game's history.

>>> from makruk import Board
>>> len(Board().generate_moves())
23
"""

from __future__ import annotations

from typing import Literal

from . import attacks as A
from .attacks import Bitboard
from .position import BIA, KHON, KHUN, MA, RUA, Position
from .types import BLACK_OFFSET, MOVES, Color, Move

Promotion = Literal["forced", "optional"]


class MoveGenerator(Position):
    """A position with its moves (see ``Board``, which is what to make)."""

    promotion: Promotion  # the rule option of ``Board``: "forced" or "optional"

    def _obeys_movement_and_check(self, move: Move) -> bool:
        """The move is one its piece makes, with the right promotion, leaving its Khun safe."""
        frm, to = move.from_square, move.to_square
        us = self.turn
        off = 0 if us else BLACK_OFFSET
        kind = self.piece_codes[frm] - off
        if not BIA <= kind <= KHUN:
            return False  # no piece of the side to move on that square
        bb = self.bitboards
        ours, theirs = self.occupied_co[us], self.occupied_co[not us]
        occupied = ours | theirs
        to_bit = 1 << to
        if kind == BIA:
            reach = (A.BIA_PUSH[us][frm] & ~occupied) | (A.BIA_CAPTURES[us][frm] & theirs)
        elif kind == RUA:
            reach = A.rua_attacks(frm, occupied)
        elif kind == MA:
            reach = A.MA[frm]
        elif kind == KHON:
            reach = A.KHON[us][frm]
        elif kind == KHUN:
            reach = A.KHUN[frm]
        else:  # Met and Bia Ngai
            reach = A.MET[frm]
        if not reach & to_bit & ~ours:
            return False
        if kind == BIA and to_bit & self.promotion_zone(us):
            last = A.RANK_8 if us else A.RANK_1
            if not move.promotion and (self.promotion == "forced" or to_bit & last):
                return False
            if move.promotion and move.promotion not in self.promotion_kinds:
                return False
        elif move.promotion:
            return False
        if move.drop:
            return False

        if kind == KHUN:  # a Rua sees through the square the Khun leaves
            return not self.attackers_mask(not us, to, occupied ^ (1 << frm))
        # A check by anything but a Rua is answered only by taking the checker...
        their_rua = bb[RUA + (BLACK_OFFSET - off)]
        checkers = self.checkers_mask & ~their_rua
        if checkers and checkers != to_bit:
            return False
        # ...and no Rua (the only piece that pins) may see the Khun afterwards; one can only if
        # it checks now or the piece leaves the Khun's rank or file.
        ksq = bb[KHUN + off].bit_length() - 1
        if not (self.checkers_mask & their_rua or A.RUA_RAYS[ksq] >> frm & 1):
            return True
        return not A.rua_attacks(ksq, (occupied ^ (1 << frm)) | to_bit) & their_rua & ~to_bit

    def generate_moves(self) -> list[Move]:
        """The moves that obey movement and leave the mover's Khun safe: ``legal_moves()`` without
        the perpetual-check rule, which needs the game's history and rarely removes a move.

        Generated afresh at each call (a new list, not cached): the move generator of a search.

        >>> from makruk import Board
        >>> board = Board()
        >>> sorted(board.generate_moves(), key=Move.uci) == sorted(board.legal_moves(), key=Move.uci)
        True
        """
        us = self.turn
        off = 0 if us else BLACK_OFFSET
        bb, squares = self.bitboards, self.piece_codes
        ours, theirs = self.occupied_co[us], self.occupied_co[not us]
        occupied = ours | theirs
        not_ours = ~ours
        ksq = bb[KHUN + off].bit_length() - 1
        moves: list[Move] = []

        # The Khun: never onto an attacked square (a Rua sees through the square it leaves).
        without_khun = occupied ^ (1 << ksq)
        row = MOVES[ksq]
        for to in A.squares(A.KHUN[ksq] & not_ours):
            if not self.attackers_mask(not us, to, without_khun):
                moves.append(row[to][0])

        checkers = self.checkers_mask
        if checkers & (checkers - 1):
            return moves  # double check: only the Khun may move
        target = A.ALL
        if checkers:
            target = checkers | A.BETWEEN[ksq][checkers.bit_length() - 1]

        # Only a Rua can pin, along a rank or file.
        pins: dict[int, int] = {}
        for rsq in A.squares(bb[RUA + (BLACK_OFFSET - off)] & A.RUA_RAYS[ksq]):
            between = A.BETWEEN[ksq][rsq]
            blockers = between & occupied
            if blockers and not blockers & (blockers - 1) and blockers & ours:
                pins[blockers] = between | (1 << rsq)

        promo_from = self._promotion_from_mask(us)
        zone = self.promotion_zone(us)
        last = A.RANK_8 if us else A.RANK_1
        forced = self.promotion == "forced"
        for frm in A.squares(ours & ~bb[KHUN + off]):
            kind = squares[frm] - off
            if kind == BIA:
                dests = (A.BIA_PUSH[us][frm] & ~occupied) | (A.BIA_CAPTURES[us][frm] & theirs)
            elif kind == RUA:
                dests = A.rua_attacks(frm, occupied) & not_ours
            elif kind == MA:
                dests = A.MA[frm] & not_ours
            elif kind == KHON:
                dests = A.KHON[us][frm] & not_ours
            else:  # Met and Bia Ngai
                dests = A.MET[frm] & not_ours
            dests &= target
            pin = pins.get(1 << frm)
            if pin is not None:
                dests &= pin
            if not dests:
                continue
            row = MOVES[frm]
            if kind == BIA and (1 << frm) & promo_from:
                for to in A.squares(dests):
                    bit = 1 << to
                    if bit & zone:
                        if not forced and not bit & last:
                            moves.append(row[to][0])
                        moves.append(row[to][1])
                    else:
                        moves.append(row[to][0])
            else:
                for to in A.squares(dests):
                    moves.append(row[to][0])
        return moves

    def generate_tactical_moves(self) -> list[Move]:
        """The captures and promotions among ``generate_moves()``, what a quiescence search plays.

        A Bia reaching the promotion zone is offered promoted; under optional promotion its
        capture is offered unpromoted too, its quiet step is not.

        >>> from makruk import Board
        >>> Board("4k3/8/8/3p4/4P3/8/8/3K4 w - - 0 1").generate_tactical_moves()
        [Move.from_uci('e4d5')]
        """
        checkers = self.checkers_mask
        if checkers:  # rare in a quiescence search, which takes every evasion instead
            codes = self.piece_codes
            return [m for m in self.generate_moves() if m.promotion or codes[m.to_square]]
        us = self.turn
        off = 0 if us else BLACK_OFFSET
        bb, squares = self.bitboards, self.piece_codes
        ours, theirs = self.occupied_co[us], self.occupied_co[not us]
        occupied = ours | theirs
        ksq = bb[KHUN + off].bit_length() - 1
        moves: list[Move] = []

        without_khun = occupied ^ (1 << ksq)
        row = MOVES[ksq]
        targets = A.KHUN[ksq] & theirs
        while targets:
            low = targets & -targets
            to = low.bit_length() - 1
            targets ^= low
            if not self.attackers_mask(not us, to, without_khun):
                moves.append(row[to][0])

        pins: dict[int, int] = {}
        enemy_rua = bb[RUA + (BLACK_OFFSET - off)] & A.RUA_RAYS[ksq]
        while enemy_rua:
            low = enemy_rua & -enemy_rua
            rsq = low.bit_length() - 1
            enemy_rua ^= low
            between = A.BETWEEN[ksq][rsq]
            blockers = between & occupied
            if blockers and not blockers & (blockers - 1) and blockers & ours:
                pins[blockers] = between | low

        zone = self.promotion_zone(us)
        promo_from = self._promotion_from_mask(us)
        last = A.RANK_8 if us else A.RANK_1
        forced = self.promotion == "forced"
        pieces = ours & ~bb[KHUN + off]
        while pieces:
            low = pieces & -pieces
            frm = low.bit_length() - 1
            pieces ^= low
            kind = squares[frm] - off
            if kind == BIA:
                dests = A.BIA_CAPTURES[us][frm] & theirs
                if low & promo_from:
                    dests |= A.BIA_PUSH[us][frm] & ~occupied & zone
            elif kind == RUA:
                dests = A.rua_attacks(frm, occupied) & theirs
            elif kind == MA:
                dests = A.MA[frm] & theirs
            elif kind == KHON:
                dests = A.KHON[us][frm] & theirs
            else:  # Met and Bia Ngai
                dests = A.MET[frm] & theirs
            pin = pins.get(low)
            if pin is not None:
                dests &= pin
            row = MOVES[frm]
            while dests:
                bit = dests & -dests
                to = bit.bit_length() - 1
                dests ^= bit
                if kind == BIA and bit & zone:
                    moves.append(row[to][1])
                    if not forced and not bit & last and squares[to]:
                        moves.append(row[to][0])
                else:
                    moves.append(row[to][0])
        return moves

    def promotion_zone(self, color: Color) -> Bitboard:
        """Squares where a Bia of ``color`` arriving is promoted (or may be).

        >>> from makruk import WHITE, Board
        >>> Board().promotion_zone(WHITE) == 0xFFFFFF << 40
        True
        """
        if color:
            return A.ALL & ~((1 << (self.promotion_rank * 8)) - 1)
        return (1 << ((8 - self.promotion_rank) * 8)) - 1

    def _promotion_from_mask(self, color: Color) -> Bitboard:
        """Squares from which a Bia's move can land in the promotion zone."""
        if color:
            return A.ALL & ~((1 << ((self.promotion_rank - 1) * 8)) - 1)
        return (1 << ((9 - self.promotion_rank) * 8)) - 1

    def _pseudo_legal_all(self) -> list[Move]:
        """Moves by movement alone, ignoring check (for explaining errors, not for play)."""
        us = self.turn
        ksq = self.king(us)
        khun_moves = [MOVES[ksq][to][0] for to in A.squares(A.KHUN[ksq] & ~self.occupied_co[us])]
        # Without checkers and without enemy Rua (the only pinners) the generator filters nothing.
        enemy_rua = RUA + (BLACK_OFFSET if us else 0)
        saved = self.checkers_mask, self.bitboards[enemy_rua]
        self.checkers_mask, self.bitboards[enemy_rua] = 0, 0
        try:
            others = [m for m in self.generate_moves() if m.from_square != ksq]
        finally:
            self.checkers_mask, self.bitboards[enemy_rua] = saved
        return khun_moves + others
