"""Ouk Chatrang (Cambodian chess): Makruk with two first-move leaps and its own counting.

The FEN's third field flags the unmoved pieces (``D E`` for White's d1 and e1, ``d e`` for
Black's d8 and e8). While its flag stands, the Khun, when not in check, may leap like a Ma onto
the next rank forward (d1 to b2 or f2, e8 to c7 or g7) and the Neang (Met) may step two squares
straight forward, jumping; neither leap captures. A flag is lost when its piece moves or is
captured; the Khun's also when an enemy Rua comes onto its rank or file, whatever stands between.

>>> from makruk import Board
>>> board = Board(variant="cambodian")
>>> sorted(m.uci() for m in board.legal_moves() if m.from_square == 3)
['d1b2', 'd1c2', 'd1d2', 'd1e2', 'd1f2']
>>> board.push(board.parse_move("d1b2")); board.fen()
'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b Ede - 1 1'
"""

from __future__ import annotations

import random

from .. import attacks as A
from ..board import Board, Outcome
from ..counting import CountKind
from ..fen import FenFields, make_dialect
from ..types import BLACK_OFFSET, Color, Move, PieceType

_KHUN, _MET, _NGAI, _RUA = PieceType.KHUN, PieceType.MET, PieceType.BIA_NGAI, PieceType.RUA
DIALECT = make_dialect({kind: kind.letter for kind in PieceType}, flags="DEde")
KAROUK_DIALECT = make_dialect({kind: kind.letter for kind in PieceType}, flags="DEde", check_counts=True)
_FLAG_SQUARES = {"D": 3, "E": 4, "d": 59, "e": 60}
_FLAG_OF = {sq: flag for flag, sq in _FLAG_SQUARES.items()}
_rng = random.Random(0x4F554B)
ZOBRIST_GATE = {sq: _rng.getrandbits(64) for sq in _FLAG_SQUARES.values()}


class CambodianBoard(Board):
    variant = "cambodian"
    starting_fen = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"
    dialect = DIALECT
    board_honour_limit = 63
    board_honour_pieces = 3  # the declaring side may have at most this many pieces, its Khun included

    def _set_up(self, fields: FenFields) -> int:
        self._gates = 0
        self._gate_stack: list[int] = []
        occupied = sum(1 << sq for sq, code in enumerate(fields.placement) if code)
        for flag in fields.flags.strip("-"):
            self._gates |= 1 << _FLAG_SQUARES[flag]
        self._gates &= occupied  # as Fairy-Stockfish: a flag of an empty square is dropped
        return _gate_key(self._gates)

    def copy(self) -> CambodianBoard:
        other = super().copy()
        assert isinstance(other, CambodianBoard)
        other._gate_stack = self._gate_stack[:]
        return other

    @property
    def gates(self) -> int:
        return self._gates

    def _fen_flags(self) -> str:
        return "".join(flag for flag, sq in _FLAG_SQUARES.items() if self._gates >> sq & 1) or "-"

    # --- the leaps ---------------------------------------------------------------------

    def generate_moves(self) -> list[Move]:
        moves = super().generate_moves()
        gates = self._gates & self.occupied_co[self.turn]
        if gates:
            moves.extend(self._leaps(gates))
        return moves

    def _leaps(self, gates: int) -> list[Move]:
        us = self.turn
        off = 0 if us else BLACK_OFFSET
        occupied = self.occupied_co[0] | self.occupied_co[1]
        ksq = self.king(us)
        leaps = []
        for sq in A.squares(gates):
            kind = self.piece_codes[sq] - off
            if kind == _KHUN and not self.checkers_mask:
                next_rank = (sq >> 3) + (1 if us else -1)
                for to in A.squares(A.MA[sq] & 0xFF << (8 * next_rank) & ~occupied):
                    if not self.attackers_mask(not us, to, occupied ^ (1 << sq)):
                        leaps.append(Move(sq, to))
            elif kind in (_MET, _NGAI):  # whatever moves as a Met on the flagged square
                to = sq + (16 if us else -16)
                if 0 <= to < 64 and not occupied >> to & 1:
                    # Nothing is captured: only a Rua's line through the squares can change.
                    after = occupied ^ (1 << sq) ^ (1 << to)
                    if not self.attackers_mask(not us, ksq, after):
                        leaps.append(Move(sq, to))
        return leaps

    def _obeys_movement_and_check(self, move: Move) -> bool:
        if self._gates >> move.from_square & 1 and not move.promotion:
            return move in self.generate_moves()
        return super()._obeys_movement_and_check(move)

    def _pseudo_legal_all(self) -> list[Move]:
        return super()._pseudo_legal_all() + self._leaps(self._gates & self.occupied_co[self.turn])

    # --- making moves ------------------------------------------------------------------

    def push(self, move: Move) -> None:
        gates = self._gates
        super().push(move)
        self._gate_stack.append(gates)
        if not gates:
            return
        frm, to = move.from_square, move.to_square
        new = gates & ~(1 << frm | 1 << to)
        mover = self.piece_codes[to]
        if mover & 7 == _RUA:  # an enemy Rua on the Khun's rank or file takes its leap for good
            their_khun = self.king(self.turn)
            if new >> their_khun & 1 and A.RUA_RAYS[to] >> their_khun & 1:
                new &= ~(1 << their_khun)
        if new != gates:
            self._gates = new
            self._key ^= _gate_key(gates) ^ _gate_key(new)
            self._history[-1] = (self.transposition_key(), self._history[-1][1])

    def pop(self) -> Move:
        move = super().pop()
        self._gates = self._gate_stack.pop()
        return move

    # --- counting: one move less than Makruk's -------------------------------------------

    def _pieces_honour_limit(self, strong: bool) -> int:
        return super()._pieces_honour_limit(strong) - 1

    def count_open_to(self, side: Color) -> CountKind | None:
        kind = super().count_open_to(side)
        if kind == "board" and (self.occupied_co[side]).bit_count() > self.board_honour_pieces:
            return None
        return kind


def _gate_key(gates: int) -> int:
    key = 0
    for sq in A.squares(gates):
        key ^= ZOBRIST_GATE[sq]
    return key


class KaroukBoard(CambodianBoard):
    """Kar Ouk: Ouk Chatrang where the first check wins.

    >>> from makruk import Board
    >>> board = Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", variant="karouk")
    >>> board.push(board.parse_move("Ra8")); board.outcome(), board.fen()
    (Outcome(result='1-0', reason='check'), 'R3k3/8/8/8/8/8/8/4K3 b - - 0+1 1 1')
    """

    variant = "karouk"
    dialect = KAROUK_DIALECT

    def generate_moves(self) -> list[Move]:
        return [] if self.checkers_mask else super().generate_moves()

    def _obeys_movement_and_check(self, move: Move) -> bool:
        return not self.checkers_mask and super()._obeys_movement_and_check(move)

    def outcome(self) -> Outcome | None:
        if self.checkers_mask:
            return Outcome("0-1" if self.turn else "1-0", "check")
        return super().outcome()

    def fen(self) -> str:
        fields = super().fen().split()
        white_left = 0 if self.checkers_mask and not self.turn else 1
        black_left = 0 if self.checkers_mask and self.turn else 1
        fields.insert(4, f"{white_left}+{black_left}")
        return " ".join(fields)
