"""The Makruk board: position, legal moves, making moves, repetition, counting and outcome.

>>> board = Board()
>>> len(board.legal_moves())
23
>>> board.push(Move.from_uci("e3e4"))
>>> board.fen()
'rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1'
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Literal

from . import attacks as A
from . import notation
from .attacks import Bitboard
from .counting import (
    BOARD_HONOUR_LIMIT,
    Count,
    CountKind,
    has_unpromoted_bia,
    is_bare,
    is_dead_material,
    pieces_honour_limit,
)
from .errors import IllegalMoveError, InvalidFenError
from .fen import MAKRUK, STARTING_FEN, FenDialect, FenFields, parse_fen, write_fen
from .history import CountEvent
from .types import (
    BLACK,
    BLACK_OFFSET,
    DROP_KINDS,
    MOVES,
    SQUARE_NAMES,
    WHITE,
    Color,
    Move,
    Piece,
    PieceType,
    Square,
    piece_from_code,
)

Promotion = Literal["forced", "optional"]
Perpetual = Literal["forbid", "draw"]
TranspositionKey = int | tuple[int, Count]  # see ``Board.transposition_key``
# What pop needs back: the captured code, halfmove clock, count, key, checkers and window.
_Undo = tuple[int, int, Count | None, int, Bitboard, int]

BIA, BIA_NGAI, MET, KHON, MA, RUA, KHUN = (int(k) for k in PieceType)

# Zobrist keys for repetition: one per (piece code, square), one for Black to move.
_rng = random.Random(0x4D414B52554B)
ZOBRIST = [[_rng.getrandbits(64) for _ in range(64)] for _ in range(16)]
ZOBRIST_BLACK = _rng.getrandbits(64)


@dataclass(frozen=True, slots=True)
class Outcome:
    result: Literal["1-0", "0-1", "1/2-1/2"]
    reason: Literal["checkmate", "check", "stalemate", "repetition", "counting", "material", "fifty_moves"]

    @property
    def winner(self) -> Color | None:
        return {"1-0": WHITE, "0-1": BLACK}.get(self.result)

    def as_dict(self) -> dict[str, str]:
        return {"result": self.result, "reason": self.reason}


class Board:
    """A Makruk position with its history since the FEN it was set up from.

    Rule options: ``promotion`` is ``"forced"`` (default, as Fairy-Stockfish) or ``"optional"``;
    ``perpetual`` is ``"forbid"`` (default: perpetual check may not force a repetition draw)
    or ``"draw"`` (repetition always draws, as Fairy-Stockfish).

    ``Board(fen, variant="cambodian")`` makes a board of another member of the family: an
    instance of that variant's subclass (``makruk.variants``), which changes the class
    attributes and hooks below.

    The fast path, for engines: these attributes are the board's own state, kept up to date by
    ``push`` and ``pop``. Read them; never write them (change the board only through its methods).

    - ``piece_codes``: the piece code (``Piece.code``: 1-7 White, 9-15 Black, 0 empty) of each
      square, a1 first;
    - ``bitboards``: for each piece code, the squares holding such a piece (bit ``sq`` set);
    - ``occupied_co``: the squares of each colour, indexed by colour (``[BLACK, WHITE]``);
    - ``checkers_mask``: the squares of the pieces giving check to the side to move.

    With them go ``occupied``, ``pieces_mask``, ``attackers_mask``, ``promotion_zone``,
    ``generate_moves``, ``generate_tactical_moves``, ``transposition_key`` and
    ``is_repetition``; ``makruk.attacks`` holds the attack tables.

    >>> board = Board("4k3/8/8/8/8/8/R7/3K4 w - - 0 1")
    >>> board.piece_codes[8], board.bitboards[Piece.from_symbol("R").code] == 1 << 8
    (6, True)
    >>> board.push(Move.from_uci("a2a8"))
    >>> board.checkers_mask == 1 << 56, board.occupied_co[WHITE] == 1 << 3 | 1 << 56
    (True, True)
    """

    variant = "makruk"
    starting_fen = STARTING_FEN
    dialect: FenDialect = MAKRUK
    promotion_rank = 5  # rank index (from the mover's side) where a Bia promotes: rank 6
    promotion_kinds: ClassVar[dict[str, PieceType]] = {"m": PieceType.BIA_NGAI}  # UCI letter -> what a Bia becomes
    board_honour_limit = BOARD_HONOUR_LIMIT
    move_rule = 0  # the n-move rule (ASEAN and Sittuyin: 50); 0: none
    declared_counting = True  # the players declare counts (Makruk); False: a count starts by itself (ASEAN)
    san_letters: ClassVar[dict[PieceType, str]] = notation.SAN_LETTERS  # the variant's SAN letters (ASEAN's Khon is B)

    def __new__(cls, fen: str | None = None, *, variant: str | None = None, **options: str) -> Board:
        if variant is not None and variant != cls.variant:
            if cls is not Board:
                raise ValueError(f"a {cls.__name__} plays {cls.variant!r}, not {variant!r}")
            from .variants import board_class  # the variants build on this module

            cls = board_class(variant)
        return object.__new__(cls)

    def __init__(
        self,
        fen: str | None = None,
        *,
        variant: str | None = None,
        promotion: Promotion = "forced",
        perpetual: Perpetual = "forbid",
    ) -> None:
        if promotion not in ("forced", "optional"):
            raise ValueError(f"promotion must be 'forced' or 'optional', got {promotion!r}")
        if perpetual not in ("forbid", "draw"):
            raise ValueError(f"perpetual must be 'forbid' or 'draw', got {perpetual!r}")
        self.promotion: Promotion = promotion
        self.perpetual: Perpetual = perpetual
        self._set_fen(self.starting_fen if fen is None else fen)

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
        self._legal: list[Move] | None = None

    def _set_up(self, fields: FenFields) -> int:
        """A variant's own state from the FEN (flags, pocket); returns what it adds to the key."""
        return 0

    def copy(self) -> Board:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.piece_codes = self.piece_codes[:]
        other.bitboards = self.bitboards[:]
        other.occupied_co = self.occupied_co[:]
        other.move_stack = self.move_stack[:]
        other._stack = self._stack[:]
        other._history = self._history[:]
        return other

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

        >>> Board().occupied == A.RANK_1 | 0xFF << 16 | 0xFF << 40 | A.RANK_8
        True
        """
        return self.occupied_co[0] | self.occupied_co[1]

    def pieces_mask(self, kind: PieceType, color: Color) -> Bitboard:
        """The squares of ``color``'s pieces of ``kind``.

        >>> from makruk.types import square_name
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

        >>> from makruk.types import parse_square, square_name
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

    # --- moves ------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, the perpetual-check rule included (RULES.md, Repetition)."""
        # Callers ask several times per position (parse, notation, outcome): compute once.
        if self._legal is None:
            self._legal = self._compute_legal_moves()
        return list(self._legal)

    def _compute_legal_moves(self) -> list[Move]:
        moves = self.generate_moves()
        if self.perpetual == "forbid" and self._may_repeat_thrice():
            allowed = [m for m in moves if not self._is_forbidden_perpetual(m)]
            if allowed:  # rule 3: if every move is forbidden, the ban lifts
                return allowed
        return moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is in ``legal_moves()``, decided for this move alone (far cheaper)."""
        if self._legal is not None:
            return move in self._legal
        if not self._obeys_movement_and_check(move):
            return False
        if self.perpetual == "forbid" and self._may_repeat_thrice() and self._is_forbidden_perpetual(move):
            return move in self.legal_moves()  # rule 3 may lift the ban: that needs every move
        return True

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

        >>> board = Board()
        >>> start = board.transposition_key()
        >>> for uci in ("b1d2", "b8d7", "d2b1", "d7b8"):
        ...     board.push(Move.from_uci(uci))
        >>> board.transposition_key() == start, isinstance(start, int)
        (True, True)
        """
        # Positions are the same when placement, side to move and counting state agree.
        return self._key if self.count is None else (self._key, self.count)

    # --- repetition and perpetual check ------------------------------------------------

    def _may_repeat_thrice(self) -> bool:
        """Cheap test: some position the next move could reach has occurred twice already."""
        history, start = self._history, self._window
        if len(history) - start < 8:
            return False
        seen: set[TranspositionKey] = set()
        for i in range(len(history) - 2, start - 1, -2):  # positions with the other side to move
            key = history[i][0]
            if key in seen:
                return True
            seen.add(key)
        return False

    def _first_occurrence(self, key: TranspositionKey, end: int) -> int | None:
        """Ply of the first occurrence of ``key`` in the history before ``end``, if it occurred twice."""
        history = self._history
        plies = [i for i in range(self._window, end) if history[i][0] == key]
        return plies[0] if len(plies) >= 2 else None

    def _checked_every_move(self, first: int, last: int) -> bool:
        """The positions first, first+2, ..., last were all check: that side checked on every move."""
        return all(self._history[i][1] for i in range(first, last + 1, 2))

    def _is_forbidden_perpetual(self, move: Move) -> bool:
        """Rule 2: a checking move may not make a position's third occurrence while its side
        has checked on every move since that position first occurred."""
        self.push(move)
        try:
            n = len(self._history) - 1
            key, check = self._history[n]
            if not check:
                return False
            first = self._first_occurrence(key, n)
            return first is not None and self._checked_every_move(first + 2, n)
        finally:
            self.pop()

    def is_repetition(self, times: int = 3) -> bool:
        """The current position has occurred at least ``times`` times (in the same counting
        state) since the last capture or Bia move. A search asks ``is_repetition(2)``.

        >>> board = Board()
        >>> for uci in ("b1d2", "b8d7", "d2b1", "d7b8"):
        ...     board.push(Move.from_uci(uci))
        >>> board.is_repetition(2), board.is_repetition()
        (True, False)
        """
        history = self._history
        n = len(history) - 1
        key = history[n][0]
        seen = 1
        # Two plies back the same side is to move, but both sides' pieces have moved since.
        for i in range(n - 4, self._window - 1, -2):
            if history[i][0] == key:
                seen += 1
                if seen >= times:
                    return True
        return seen >= times

    def _repetition_draws(self) -> bool:
        n = len(self._history) - 1
        if n - self._window < 8:
            return False  # a third occurrence needs two earlier ones, four plies apart at least
        first = self._first_occurrence(self._history[n][0], n)
        if first is None:
            return False
        if self.perpetual == "draw":
            return True
        mover_checked = self._checked_every_move(first + 2, n)
        if mover_checked:
            return True  # only reachable when rule 3 lifted the ban
        # Rule 1: the checked side's reply completed the repetition: no draw.
        return not self._checked_every_move(first + 1, n - 1)

    # --- counting ---------------------------------------------------------------------

    def can_declare_count(self) -> CountKind | None:
        """The count the side to move may declare now, if any."""
        if self.count is not None or has_unpromoted_bia(self.piece_codes):
            return None
        us_bare = is_bare(self.piece_codes, self.turn)
        them_bare = is_bare(self.piece_codes, not self.turn)
        if us_bare and not them_bare:
            return "pieces"
        if not us_bare and not them_bare:
            return "board"
        return None

    def declare_count(self) -> Count:
        """The side to move declares the count it is entitled to (RULES.md, Counting)."""
        kind = self.can_declare_count()
        if kind is None:
            reason = "a count is already running" if self.count else "the count may not be declared now"
            raise IllegalMoveError(reason, code="count_not_allowed")
        limit = self._pieces_honour_limit(not self.turn) if kind == "pieces" else self.board_honour_limit
        self.count = Count(kind, self.turn, limit)
        self._history[-1] = (self.transposition_key(), self._history[-1][1])
        self._legal = None
        return self.count

    def count_limit(self, strong: Color) -> int | None:
        """The moves ``strong`` would get to mate a bare Khun if its count began now (declared,
        in Makruk: the pieces' honour limit); None when there would be no count."""
        return self._pieces_honour_limit(strong)

    def _pieces_honour_limit(self, strong: Color) -> int:
        return pieces_honour_limit(self.piece_codes, strong)

    def can_stop_count(self) -> bool:
        return self.count is not None and self.count.side == self.turn

    def stop_count(self) -> None:
        """The declaring side stops its count on its turn; a later count starts from zero."""
        if not self.can_stop_count():
            raise IllegalMoveError("only the side that declared the count may stop it, on its turn", code="no_count")
        self.count = None
        self._history[-1] = (self.transposition_key(), self._history[-1][1])
        self._legal = None

    def _count_after_move(self, count: Count, mover: Color) -> Count | None:
        if count.kind == "board" and (is_bare(self.piece_codes, WHITE) or is_bare(self.piece_codes, BLACK)):
            return None  # a bare Khun ends the board's honour count
        return count.after_move(mover)

    # --- the end of the game ----------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on. A checkmate always wins."""
        if not self.legal_moves():
            if self.checkers_mask:
                return Outcome("0-1" if self.turn else "1-0", "checkmate")
            return Outcome("1/2-1/2", "stalemate")
        return self._draw()

    def _draw(self) -> Outcome | None:
        """The draws that need no move generation: counting, material, repetition."""
        if self.count is not None and self.count.expired:
            return Outcome("1/2-1/2", "counting")
        if self._is_dead_material():
            return Outcome("1/2-1/2", "material")
        if self._repetition_draws():
            return Outcome("1/2-1/2", "repetition")
        if self.move_rule and self.halfmove_clock >= 2 * self.move_rule:
            return Outcome("1/2-1/2", "fifty_moves")
        return None

    def _is_dead_material(self) -> bool:
        no_bia = not (self.bitboards[BIA] | self.bitboards[BIA + BLACK_OFFSET])  # a Bia keeps the material alive
        return no_bia and is_dead_material(self.piece_codes)

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def is_checkmate(self) -> bool:
        return bool(self.checkers_mask) and not self.legal_moves()

    def is_stalemate(self) -> bool:
        return not self.checkers_mask and not self.legal_moves()

    # --- moves from people --------------------------------------------------------------

    def play(self, move: Move) -> Move:
        """Checks that the game goes on and the move is legal, then makes it.

        Raises IllegalMoveError with a code saying why not.
        """
        # The move is checked on its own: a legal move proves there is no mate or stalemate,
        # so every legal move is generated only when the move is refused.
        legal = self.is_legal(move)
        if self._draw() is not None or (not legal and not self.legal_moves()):
            raise IllegalMoveError(f"the game is over; no move is allowed in {self.fen()}", code="game_over")
        if not legal:
            raise self.why_illegal(move)
        self.push(move)
        return move

    def replay(
        self, moves: Iterable[Move | str], events: Iterable[CountEvent] = (), *, trusted: bool = False
    ) -> None:
        """Plays a stored game's moves (Move or UCI) and its count declarations and stops.

        An event of ply ``p`` is applied before the move of index ``p`` (after the last move
        when ``p`` is the number of moves); plies count the moves given here, which are the
        game's plies for a board fresh from its FEN. Each move is checked as ``play`` checks
        it, unless ``trusted``: moves that were checked when they were stored are pushed.

        >>> board = Board("8/8/8/4k3/8/8/8/R2K4 b - - 0 1")
        >>> board.replay(["e5e4", "a1a2"], [CountEvent(0, "count")], trusted=True)
        >>> board.count
        Count(kind='pieces', side=False, limit=13, done=1)
        """
        by_ply: dict[int, list[CountEvent]] = {}
        for event in events:
            by_ply.setdefault(event.ply, []).append(event)
        make = self.push if trusted else self.play
        played = 0
        for move in moves:
            if by_ply and played in by_ply:
                self._apply_count_events(by_ply[played])
            make(Move.from_uci(move) if isinstance(move, str) else move)
            played += 1
        if played in by_ply:
            self._apply_count_events(by_ply[played])

    def _apply_count_events(self, events: list[CountEvent]) -> None:
        for event in events:
            if event.kind == "count":
                self.declare_count()
            else:
                self.stop_count()

    # --- notation (makruk/notation.py) ---------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """The legal move ``text`` denotes, in UCI, SAN or Thai notation (``notation.parse_move``).

        >>> Board().parse_move("จ๔")
        Move.from_uci('e3e4')
        """
        return notation.parse_move(self, text)

    def san(self, move: Move) -> str:
        """The move in standard algebraic notation, as Fairy-Stockfish writes it (``notation.san``).

        >>> Board().san(Move.from_uci("b1d2"))
        'Nd2'
        """
        return notation.san(self, move)

    def playok_san(self, move: Move) -> str:
        """The move as PlayOK writes it (``notation.playok_san``): ``Bf2``, ``Qc7``, ``axb3=P``."""
        return notation.playok_san(self, move)

    def thai_san(self, move: Move) -> str:
        """The move in Thai algebraic notation (``notation.thai_san``).

        >>> Board().thai_san(Move.from_uci("b1d2"))
        'ม-ง๒'
        """
        return notation.thai_san(self, move)

    def why_illegal(self, move: Move) -> IllegalMoveError:
        """The error explaining why ``move`` is not legal here."""
        uci = move.uci()
        if move.drop:
            return IllegalMoveError(f"{uci}: no such piece in hand, or it may not be placed there", code="bad_drop")
        piece = self.piece_at(move.from_square)
        where = SQUARE_NAMES[move.from_square]
        if piece is None:
            return IllegalMoveError(f"{uci}: no piece on {where}", code="no_piece")
        if piece.color != self.turn:
            return IllegalMoveError(f"{uci}: the piece on {where} is not yours", code="not_your_piece")
        target = self.piece_at(move.to_square)
        if target is not None and target.color == self.turn:
            return IllegalMoveError(f"{uci}: you cannot capture your own piece", code="own_piece")
        candidates = [
            m for m in self._pseudo_legal_all() if (m.from_square, m.to_square) == (move.from_square, move.to_square)
        ]
        if not candidates:
            occupied = self.occupied_co[0] | self.occupied_co[1]
            if (
                piece.kind == PieceType.RUA
                and A.RUA_RAYS[move.from_square] >> move.to_square & 1
                and A.BETWEEN[move.from_square][move.to_square] & occupied
            ):
                return IllegalMoveError(f"{uci}: the way is blocked", code="blocked")
            name = piece.kind.name.replace("_", " ").title()
            return IllegalMoveError(f"{uci}: a {name} cannot move like that", code="cannot_move_there")
        if move not in candidates:
            if move.promotion:
                return IllegalMoveError(f"{uci}: this move cannot promote", code="promotion_not_allowed")
            return IllegalMoveError(f"{uci}: the Bia must promote here (write {uci}m)", code="promotion_required")
        if move not in self.generate_moves():
            return IllegalMoveError(f"{uci} would leave your Khun in check", code="leaves_khun_in_check")
        return IllegalMoveError(
            f"{uci} repeats a position a third time by perpetual check; you must vary", code="perpetual_check"
        )

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
