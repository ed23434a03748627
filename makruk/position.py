"""The board's state: the pieces, the side to move, the count and the history since the FEN,
set up from a FEN and kept by ``push`` and ``pop``; what attacks a square.

``Board`` (``makruk/board.py``) builds on this with move generation (``makruk/movegen.py``) and
the rules of the game's end.

>>> from makruk import Board
>>> board = Board("4k3/8/8/8/8/8/R7/3K4 w - - 0 1")
>>> board.push(Move.from_uci("a2a8")); board.fen(), board.is_check()
('R3k3/8/8/8/8/8/8/3K4 b - - 1 1', True)
>>> board.pop(); board.fen()
Move.from_uci('a2a8')
'4k3/8/8/8/8/8/R7/3K4 w - - 0 1'
"""

from __future__ import annotations

import random
from typing import ClassVar

from . import attacks as A
from .attacks import Bitboard
from .counting import Count, is_bare
from .errors import InvalidFenError
from .fen import MAKRUK, STARTING_FEN, FenDialect, FenFields, parse_fen, write_fen
from .types import BLACK, BLACK_OFFSET, DROP_KINDS, WHITE, Color, Move, Piece, PieceType, Square, piece_from_code

TranspositionKey = int | tuple[int, Count]  # see ``Position.transposition_key``
# What pop needs back: the captured code, halfmove clock, count, key, checkers and window.
_Undo = tuple[int, int, Count | None, int, Bitboard, int]

BIA, BIA_NGAI, MET, KHON, MA, RUA, KHUN = (int(k) for k in PieceType)

# Zobrist keys for repetition: one per (piece code, square), one for Black to move.
_rng = random.Random(0x4D414B52554B)
ZOBRIST = [[_rng.getrandbits(64) for _ in range(64)] for _ in range(16)]
ZOBRIST_BLACK = _rng.getrandbits(64)


class Position:
    """The state of a board (see ``Board``, which is what to make): the class attributes a
    variant changes about the position, set-up, looking at the position, attacks, and making
    and taking back moves."""

    starting_fen = STARTING_FEN
    dialect: FenDialect = MAKRUK
    promotion_rank = 5  # rank index (from the mover's side) where a Bia promotes: rank 6
    promotion_kinds: ClassVar[dict[str, PieceType]] = {"m": PieceType.BIA_NGAI}  # UCI letter -> what a Bia becomes

    # --- set-up ---------------------------------------------------------------------

    def _set_fen(self, fen: str) -> None:
        fields = parse_fen(fen, self.dialect)
        self.piece_codes: list[int] = list(fields.placement)
        self.bitboards: list[Bitboard] = [0] * 16
        self.occupied_co: list[Bitboard] = [0, 0]  # indexed by colour: [Black, White]
        key = 0
        for sq, code in enumerate(self.piece_codes):
            if code:
                self.bitboards[code] |= 1 << sq
                self.occupied_co[code < 8] |= 1 << sq
                key ^= ZOBRIST[code][sq]
        self.turn: Color = fields.turn
        if not self.turn:
            key ^= ZOBRIST_BLACK
        self.halfmove_clock: int = fields.halfmove_clock
        self.fullmove_number: int = fields.fullmove_number
        self.starting_position: str = write_fen(fields, self.dialect)
        self.count: Count | None = None
        self.move_stack: list[Move] = []
        self._key = key ^ self._set_up(fields)
        their_khun, our_khun = self.king(not self.turn), self.king(self.turn)  # -1: in hand (Sittuyin)
        if their_khun >= 0 and self.attackers_mask(self.turn, their_khun):
            raise InvalidFenError(f"the side to move could capture the enemy Khun: {fen!r}", code="fen_check")
        self.checkers_mask: Bitboard = self.attackers_mask(not self.turn, our_khun) if our_khun >= 0 else 0
        self._window = 0  # ply of the last irreversible move: no repetition reaches before it
        self._stack: list[_Undo] = []
        # For each position since the FEN: its key and whether the side to move is in check.
        self._history: list[tuple[TranspositionKey, bool]] = [(self.transposition_key(), bool(self.checkers_mask))]
        self._legal: list[Move] | None = None  # Board.legal_moves, once asked; every change clears it

    def _set_up(self, fields: FenFields) -> int:
        """A variant's own state from the FEN (flags, pocket); returns what it adds to the key."""
        return 0

    # --- looking at the position -------------------------------------------------------

    def piece_at(self, sq: Square) -> Piece | None:
        code = self.piece_codes[sq]
        return piece_from_code(code) if code else None

    def piece_map(self) -> dict[Square, Piece]:
        return {sq: piece_from_code(code) for sq, code in enumerate(self.piece_codes) if code}

    def king(self, color: Color) -> Square:
        return self.bitboards[KHUN + (0 if color else BLACK_OFFSET)].bit_length() - 1

    def is_check(self) -> bool:
        return bool(self.checkers_mask)

    def checkers(self) -> list[Square]:
        return list(A.squares(self.checkers_mask))

    def is_attacked_by(self, color: Color, sq: Square) -> bool:
        return bool(self.attackers_mask(color, sq))

    @property
    def occupied(self) -> Bitboard:
        """Every occupied square.

        >>> from makruk import Board
        >>> Board().occupied == A.RANK_1 | 0xFF << 16 | 0xFF << 40 | A.RANK_8
        True
        """
        return self.occupied_co[0] | self.occupied_co[1]

    def pieces_mask(self, kind: PieceType, color: Color) -> Bitboard:
        """The squares of ``color``'s pieces of ``kind``.

        >>> from makruk import Board, square_name
        >>> [square_name(sq) for sq in A.squares(Board().pieces_mask(PieceType.MA, BLACK))]
        ['b8', 'g8']
        """
        return self.bitboards[kind + (0 if color else BLACK_OFFSET)]

    @property
    def ply(self) -> int:
        return len(self.move_stack)

    def fen(self) -> str:
        fields = FenFields(
            tuple(self.piece_codes), self.turn, self.halfmove_clock, self.fullmove_number, self._fen_flags(),
            self._fen_pocket(),
        )
        return write_fen(fields, self.dialect)

    def _fen_flags(self) -> str:
        return "-"

    def _fen_pocket(self) -> tuple[int, ...]:
        return ()

    def pocket(self, color: Color) -> dict[PieceType, int]:
        """The pieces ``color`` holds in hand (only Sittuyin's deployment has any)."""
        return {}

    def in_deployment(self) -> bool:
        """Whether pieces are still to be placed from the hand (Sittuyin)."""
        return False

    def standard_drop(self) -> Move | None:
        """The drop a standard arrangement makes next for the side to move (Sittuyin); None elsewhere."""
        return None

    @property
    def gates(self) -> Bitboard:
        """Squares whose piece still has its first-move leap (Ouk Chatrang's ``DEde``); 0 elsewhere."""
        return 0

    def moving_kind(self, move: Move) -> PieceType | None:
        """The kind of the piece ``move`` moves, or drops from the hand; None: no piece there."""
        if move.drop:
            return DROP_KINDS.get(move.drop)
        piece = self.piece_at(move.from_square)
        return piece.kind if piece is not None else None

    def promoted_kind(self, move: Move) -> PieceType | None:
        """What the Bia of a promoting move becomes (``None`` when the move does not promote)."""
        return self.promotion_kinds.get(move.promotion) if move.promotion else None

    def placement(self) -> tuple[int, ...]:
        """The 64 piece codes, a1 first (0 = empty); see ``Piece.code``."""
        return tuple(self.piece_codes)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r})"

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = self.piece_at(rank * 8 + file)
                cells.append(piece.symbol().ljust(2) if piece else ". ")
            rows.append(" ".join(cells).rstrip())
        return "\n".join(rows)

    # --- attacks ----------------------------------------------------------------------

    def attackers_mask(self, color: Color, sq: Square, occupied: Bitboard | None = None) -> Bitboard:
        """Squares of ``color``'s pieces that attack ``sq``, with ``occupied`` standing for the
        occupied squares if given (a Rua sees through the squares left out of it).

        >>> from makruk import Board, parse_square, square_name
        >>> board = Board("4k3/8/8/8/8/8/R7/3K4 w - - 0 1")
        >>> [square_name(sq) for sq in A.squares(board.attackers_mask(WHITE, parse_square("a7")))]
        ['a2']
        """
        bb = self.bitboards
        off = 0 if color else BLACK_OFFSET
        att = A.KHUN[sq] & bb[KHUN + off]
        att |= A.MET[sq] & (bb[MET + off] | bb[BIA_NGAI + off])
        att |= A.MA[sq] & bb[MA + off]
        # A Khon or Bia attacks sq from where the opposite colour's pattern would reach.
        att |= A.KHON[not color][sq] & bb[KHON + off]
        att |= A.BIA_CAPTURES[not color][sq] & bb[BIA + off]
        rua = bb[RUA + off]
        if rua:
            if occupied is None:
                occupied = self.occupied_co[0] | self.occupied_co[1]
            att |= A.rua_attacks(sq, occupied) & rua
        return att

    # --- making and taking back moves --------------------------------------------------

    def push(self, move: Move) -> None:
        """Makes a move without checking it (use ``play`` for moves from people)."""
        frm, to = move.from_square, move.to_square
        squares, bb, occ = self.piece_codes, self.bitboards, self.occupied_co
        us = self.turn
        code = squares[frm]
        captured = squares[to] if to != frm else 0  # Sittuyin's Bia may promote where it stands
        self._stack.append(
            (captured, self.halfmove_clock, self.count, self._key, self.checkers_mask, self._window)
        )
        self.move_stack.append(move)
        from_bit, to_bit = 1 << frm, 1 << to
        key = self._key ^ ZOBRIST_BLACK ^ ZOBRIST[code][frm]
        if captured:
            bb[captured] ^= to_bit
            occ[not us] ^= to_bit
            key ^= ZOBRIST[captured][to]
        new_code = code
        if move.promotion:
            new_code = self.promotion_kinds[move.promotion] + (code - BIA)
        bb[code] ^= from_bit
        bb[new_code] |= to_bit
        occ[us] ^= from_bit ^ to_bit
        squares[frm] = 0
        squares[to] = new_code
        key ^= ZOBRIST[new_code][to]
        self._key = key

        if captured or code - (0 if us else BLACK_OFFSET) == BIA:
            self.halfmove_clock = 0
            self._window = len(self._history)
        else:
            self.halfmove_clock += 1
        if not us:
            self.fullmove_number += 1
        self.turn = not us
        if self.count is not None:
            self.count = self._count_after_move(self.count, us)
        self.checkers_mask = self._checks_after(new_code, frm, to)
        self._history.append((self.transposition_key(), bool(self.checkers_mask)))
        self._legal = None

    def _checks_after(self, code: int, frm: Square, to: Square) -> int:
        """Checkers of the Khun to move after ``code`` went from ``frm`` to ``to``: only the moved
        piece checks directly, and only a Rua (the one slider) can be uncovered."""
        us = code < BLACK_OFFSET
        bb = self.bitboards
        ksq = bb[KHUN + (BLACK_OFFSET if us else 0)].bit_length() - 1
        kind = code & 7
        if kind == MA:
            checkers = A.MA[to] >> ksq & 1
        elif kind in (MET, BIA_NGAI):
            checkers = A.MET[to] >> ksq & 1
        elif kind == KHON:
            checkers = A.KHON[us][to] >> ksq & 1
        elif kind == BIA:
            checkers = A.BIA_CAPTURES[us][to] >> ksq & 1
        else:
            checkers = 0  # a Khun never checks; a Rua is found with the uncovered ones
        checkers <<= to
        rua = bb[RUA + (0 if us else BLACK_OFFSET)]
        if rua and (kind == RUA or A.RUA_RAYS[ksq] >> frm & 1):
            checkers |= A.rua_attacks(ksq, self.occupied_co[0] | self.occupied_co[1]) & rua
        return checkers

    def pop(self) -> Move:
        """Takes back the last move."""
        move = self.move_stack.pop()
        captured, self.halfmove_clock, self.count, self._key, self.checkers_mask, self._window = self._stack.pop()
        self._history.pop()
        self._legal = None
        self.turn = us = not self.turn
        if not us:
            self.fullmove_number -= 1
        frm, to = move.from_square, move.to_square
        squares, bb, occ = self.piece_codes, self.bitboards, self.occupied_co
        new_code = squares[to]
        code = BIA + (0 if us else BLACK_OFFSET) if move.promotion else new_code
        from_bit, to_bit = 1 << frm, 1 << to
        bb[new_code] ^= to_bit
        bb[code] |= from_bit
        occ[us] ^= from_bit ^ to_bit
        squares[to] = captured
        squares[frm] = code  # after: a Bia promoting in place (Sittuyin) left from and to the same square
        if captured:
            bb[captured] |= to_bit
            occ[not us] |= to_bit
        return move

    def transposition_key(self) -> TranspositionKey:
        """A key equal for the same position: placement (Bia and Bia Ngai told apart), side to
        move and counting state, as repetition compares them. A 64-bit Zobrist hash while no
        count runs; with the count when one does.

        >>> from makruk import Board
        >>> board = Board()
        >>> start = board.transposition_key()
        >>> for uci in ("b1d2", "b8d7", "d2b1", "d7b8"):
        ...     board.push(Move.from_uci(uci))
        >>> board.transposition_key() == start, isinstance(start, int)
        (True, True)
        """
        # Positions are the same when placement, side to move and counting state agree.
        return self._key if self.count is None else (self._key, self.count)

    def _count_after_move(self, count: Count, mover: Color) -> Count | None:
        if count.kind == "board" and (is_bare(self.piece_codes, WHITE) or is_bare(self.piece_codes, BLACK)):
            return None  # a bare Khun ends the board's honour count
        return count.after_move(mover)
