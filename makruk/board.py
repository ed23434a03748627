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
from typing import Literal

from . import attacks as A
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
from .fen import STARTING_FEN, FenFields, parse_fen, write_fen
from .types import (
    BLACK,
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

BIA, BIA_NGAI, MET, KHON, MA, RUA, KHUN = (int(k) for k in PieceType)
BLACK_OFFSET = 8

# Zobrist keys for repetition: one per (piece code, square), one for Black to move.
_rng = random.Random(0x4D414B52554B)
ZOBRIST = [[_rng.getrandbits(64) for _ in range(64)] for _ in range(16)]
ZOBRIST_BLACK = _rng.getrandbits(64)


@dataclass(frozen=True, slots=True)
class Outcome:
    result: Literal["1-0", "0-1", "1/2-1/2"]
    reason: Literal["checkmate", "stalemate", "repetition", "counting", "material"]

    @property
    def winner(self) -> Color | None:
        return {"1-0": WHITE, "0-1": BLACK}.get(self.result)

    def as_dict(self) -> dict:
        return {"result": self.result, "reason": self.reason}


class Board:
    """A Makruk position with its history since the FEN it was set up from.

    Rule options: ``promotion`` is ``"forced"`` (default, as Fairy-Stockfish) or ``"optional"``;
    ``perpetual`` is ``"forbid"`` (default: perpetual check may not force a repetition draw)
    or ``"draw"`` (repetition always draws, as Fairy-Stockfish).

    Variants of the family subclass this and change the class attributes and hooks below.
    """

    variant = "makruk"
    starting_fen = STARTING_FEN
    promotion_rank = 5  # rank index (from the mover's side) where a Bia promotes: rank 6

    def __init__(
        self,
        fen: str | None = None,
        *,
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
        fields = parse_fen(fen)
        self._squares = list(fields.placement)
        self._bb = [0] * 16
        self._occ = [0, 0]  # indexed by colour: [Black, White]
        key = 0
        for sq, code in enumerate(self._squares):
            if code:
                self._bb[code] |= 1 << sq
                self._occ[code < 8] |= 1 << sq
                key ^= ZOBRIST[code][sq]
        self.turn: Color = fields.turn
        if not self.turn:
            key ^= ZOBRIST_BLACK
        self.halfmove_clock = fields.halfmove_clock
        self.fullmove_number = fields.fullmove_number
        self.starting_position = write_fen(fields)
        self.count: Count | None = None
        self.move_stack: list[Move] = []
        self._key = key
        if self._attackers(self.turn, self.king(not self.turn)):
            raise InvalidFenError(f"the side to move could capture the enemy Khun: {fen!r}")
        self._checkers = self._attackers(not self.turn, self.king(self.turn))
        self._window = 0  # ply of the last irreversible move: no repetition reaches before it
        self._stack: list[tuple] = []
        self._history = [(self._repetition_key(), bool(self._checkers))]
        self._legal: list[Move] | None = None

    def copy(self) -> Board:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._squares = self._squares[:]
        other._bb = self._bb[:]
        other._occ = self._occ[:]
        other.move_stack = self.move_stack[:]
        other._stack = self._stack[:]
        other._history = self._history[:]
        return other

    # --- looking at the position -------------------------------------------------------

    def piece_at(self, sq: Square) -> Piece | None:
        code = self._squares[sq]
        return piece_from_code(code) if code else None

    def piece_map(self) -> dict[Square, Piece]:
        return {sq: piece_from_code(code) for sq, code in enumerate(self._squares) if code}

    def king(self, color: Color) -> Square:
        return self._bb[KHUN + (0 if color else BLACK_OFFSET)].bit_length() - 1

    def is_check(self) -> bool:
        return bool(self._checkers)

    def checkers(self) -> list[Square]:
        return list(A.squares(self._checkers))

    def is_attacked_by(self, color: Color, sq: Square) -> bool:
        return bool(self._attackers(color, sq))

    @property
    def ply(self) -> int:
        return len(self.move_stack)

    def fen(self) -> str:
        return write_fen(FenFields(tuple(self._squares), self.turn, self.halfmove_clock, self.fullmove_number))

    def placement(self) -> tuple[int, ...]:
        """The 64 piece codes, a1 first (0 = empty); see ``Piece.code``."""
        return tuple(self._squares)

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

    def _attackers(self, color: Color, sq: Square, occupied: int | None = None) -> int:
        """Squares of ``color``'s pieces that attack ``sq``."""
        bb = self._bb
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
                occupied = self._occ[0] | self._occ[1]
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
        moves = self._pseudo_legal_filtered()
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
        kind = self._squares[frm] - off
        if not BIA <= kind <= KHUN:
            return False  # no piece of the side to move on that square
        bb = self._bb
        ours, theirs = self._occ[us], self._occ[not us]
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
        if kind == BIA and to_bit & self._promotion_zone(us):
            last = A.RANK_8 if us else A.RANK_1
            if not move.promotion and (self.promotion == "forced" or to_bit & last):
                return False
        elif move.promotion:
            return False

        if kind == KHUN:  # a Rua sees through the square the Khun leaves
            return not self._attackers(not us, to, occupied ^ (1 << frm))
        # A check by anything but a Rua is answered only by taking the checker...
        their_rua = bb[RUA + (BLACK_OFFSET - off)]
        checkers = self._checkers & ~their_rua
        if checkers and checkers != to_bit:
            return False
        # ...and no Rua (the only piece that pins) may see the Khun afterwards; one can only if
        # it checks now or the piece leaves the Khun's rank or file.
        ksq = bb[KHUN + off].bit_length() - 1
        if not (self._checkers & their_rua or A.RUA_RAYS[ksq] >> frm & 1):
            return True
        return not A.rua_attacks(ksq, (occupied ^ (1 << frm)) | to_bit) & their_rua & ~to_bit

    def _pseudo_legal_filtered(self) -> list[Move]:
        """Moves by movement and check, without the perpetual-check rule."""
        us = self.turn
        off = 0 if us else BLACK_OFFSET
        bb, squares = self._bb, self._squares
        ours, theirs = self._occ[us], self._occ[not us]
        occupied = ours | theirs
        not_ours = ~ours
        ksq = bb[KHUN + off].bit_length() - 1
        moves: list[Move] = []

        # The Khun: never onto an attacked square (a Rua sees through the square it leaves).
        without_khun = occupied ^ (1 << ksq)
        row = MOVES[ksq]
        for to in A.squares(A.KHUN[ksq] & not_ours):
            if not self._attackers(not us, to, without_khun):
                moves.append(row[to][0])

        checkers = self._checkers
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
        zone = self._promotion_zone(us)
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

    def _promotion_zone(self, color: Color) -> int:
        """Squares where a Bia of ``color`` arriving is promoted (or may be)."""
        if color:
            return A.ALL & ~((1 << (self.promotion_rank * 8)) - 1)
        return (1 << ((8 - self.promotion_rank) * 8)) - 1

    def _promotion_from_mask(self, color: Color) -> int:
        """Squares from which a Bia's move can land in the promotion zone."""
        if color:
            return A.ALL & ~((1 << ((self.promotion_rank - 1) * 8)) - 1)
        return (1 << ((9 - self.promotion_rank) * 8)) - 1

    # --- making and taking back moves --------------------------------------------------

    def push(self, move: Move) -> None:
        """Makes a move without checking it (use ``play`` for moves from people)."""
        frm, to = move.from_square, move.to_square
        squares, bb, occ = self._squares, self._bb, self._occ
        us = self.turn
        code = squares[frm]
        captured = squares[to]
        self._stack.append(
            (captured, self.halfmove_clock, self.count, self._key, self._checkers, self._window)
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
            new_code = BIA_NGAI + (code - BIA)
        bb[code] ^= from_bit
        bb[new_code] |= to_bit
        occ[us] ^= from_bit | to_bit
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
        self._checkers = self._checks_after(new_code, frm, to)
        self._history.append((self._repetition_key(), bool(self._checkers)))
        self._legal = None

    def _checks_after(self, code: int, frm: Square, to: Square) -> int:
        """Checkers of the Khun to move after ``code`` went from ``frm`` to ``to``: only the moved
        piece checks directly, and only a Rua (the one slider) can be uncovered."""
        us = code < BLACK_OFFSET
        bb = self._bb
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
            checkers |= A.rua_attacks(ksq, self._occ[0] | self._occ[1]) & rua
        return checkers

    def pop(self) -> Move:
        """Takes back the last move."""
        move = self.move_stack.pop()
        captured, self.halfmove_clock, self.count, self._key, self._checkers, self._window = self._stack.pop()
        self._history.pop()
        self._legal = None
        self.turn = us = not self.turn
        if not us:
            self.fullmove_number -= 1
        frm, to = move.from_square, move.to_square
        squares, bb, occ = self._squares, self._bb, self._occ
        new_code = squares[to]
        code = BIA + (new_code - BIA_NGAI) if move.promotion else new_code
        from_bit, to_bit = 1 << frm, 1 << to
        bb[new_code] ^= to_bit
        bb[code] |= from_bit
        occ[us] ^= from_bit | to_bit
        squares[frm] = code
        squares[to] = captured
        if captured:
            bb[captured] |= to_bit
            occ[not us] |= to_bit
        return move

    def _repetition_key(self):
        # Positions are the same when placement, side to move and counting state agree.
        return self._key if self.count is None else (self._key, self.count)

    # --- repetition and perpetual check ------------------------------------------------

    def _may_repeat_thrice(self) -> bool:
        """Cheap test: some position the next move could reach has occurred twice already."""
        history, start = self._history, self._window
        if len(history) - start < 8:
            return False
        seen: set = set()
        for i in range(len(history) - 2, start - 1, -2):  # positions with the other side to move
            key = history[i][0]
            if key in seen:
                return True
            seen.add(key)
        return False

    def _first_occurrence(self, key, end: int) -> int | None:
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

    def is_repetition(self) -> bool:
        """The current position has occurred at least three times (in the same counting state)."""
        n = len(self._history) - 1
        return self._first_occurrence(self._history[n][0], n) is not None

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
        if self.count is not None or has_unpromoted_bia(self._squares):
            return None
        us_bare = is_bare(self._squares, self.turn)
        them_bare = is_bare(self._squares, not self.turn)
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
        if kind == "pieces":
            limit = pieces_honour_limit(self._squares, not self.turn)
        else:
            limit = BOARD_HONOUR_LIMIT
        self.count = Count(kind, self.turn, limit)
        self._history[-1] = (self._repetition_key(), self._history[-1][1])
        self._legal = None
        return self.count

    def can_stop_count(self) -> bool:
        return self.count is not None and self.count.side == self.turn

    def stop_count(self) -> None:
        """The declaring side stops its count on its turn; a later count starts from zero."""
        if not self.can_stop_count():
            raise IllegalMoveError("only the side that declared the count may stop it, on its turn", code="no_count")
        self.count = None
        self._history[-1] = (self._repetition_key(), self._history[-1][1])
        self._legal = None

    def _count_after_move(self, count: Count, mover: Color) -> Count | None:
        if count.kind == "board" and (is_bare(self._squares, WHITE) or is_bare(self._squares, BLACK)):
            return None  # a bare Khun ends the board's honour count
        return count.after_move(mover)

    # --- the end of the game ----------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on. A checkmate always wins."""
        if not self.legal_moves():
            if self._checkers:
                return Outcome("0-1" if self.turn else "1-0", "checkmate")
            return Outcome("1/2-1/2", "stalemate")
        return self._draw()

    def _draw(self) -> Outcome | None:
        """The draws that need no move generation: counting, material, repetition."""
        if self.count is not None and self.count.expired:
            return Outcome("1/2-1/2", "counting")
        no_bia = not (self._bb[BIA] | self._bb[BIA + BLACK_OFFSET])  # a Bia keeps the material alive
        if no_bia and is_dead_material(self._squares):
            return Outcome("1/2-1/2", "material")
        if self._repetition_draws():
            return Outcome("1/2-1/2", "repetition")
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def is_checkmate(self) -> bool:
        return bool(self._checkers) and not self.legal_moves()

    def is_stalemate(self) -> bool:
        return not self._checkers and not self.legal_moves()

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

    def replay(self, moves: Iterable[Move | str]) -> None:
        """Plays a stored game's moves (Move or UCI), each checked as ``play`` checks it."""
        for move in moves:
            self.play(Move.from_uci(move) if isinstance(move, str) else move)

    def why_illegal(self, move: Move) -> IllegalMoveError:
        """The error explaining why ``move`` is not legal here."""
        uci = move.uci()
        piece = self.piece_at(move.from_square)
        where = SQUARE_NAMES[move.from_square]
        if piece is None:
            return IllegalMoveError(f"{uci}: no piece on {where}", code="no_piece")
        if piece.color != self.turn:
            return IllegalMoveError(f"{uci}: the piece on {where} is not yours", code="not_your_piece")
        target = self.piece_at(move.to_square)
        if target is not None and target.color == self.turn:
            return IllegalMoveError(f"{uci}: you cannot capture your own piece", code="own_piece")
        candidates = [m for m in self._pseudo_legal_all() if (m.from_square, m.to_square) == (move.from_square, move.to_square)]
        if not candidates:
            occupied = self._occ[0] | self._occ[1]
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
        if move not in self._pseudo_legal_filtered():
            return IllegalMoveError(f"{uci} would leave your Khun in check", code="leaves_khun_in_check")
        return IllegalMoveError(
            f"{uci} repeats a position a third time by perpetual check; you must vary", code="perpetual_check"
        )

    def _pseudo_legal_all(self) -> list[Move]:
        """Moves by movement alone, ignoring check (for explaining errors, not for play)."""
        us = self.turn
        ksq = self.king(us)
        khun_moves = [MOVES[ksq][to][0] for to in A.squares(A.KHUN[ksq] & ~self._occ[us])]
        # Without checkers and without enemy Rua (the only pinners) the generator filters nothing.
        enemy_rua = RUA + (BLACK_OFFSET if us else 0)
        saved = self._checkers, self._bb[enemy_rua]
        self._checkers, self._bb[enemy_rua] = 0, 0
        try:
            others = [m for m in self._pseudo_legal_filtered() if m.from_square != ksq]
        finally:
            self._checkers, self._bb[enemy_rua] = saved
        return khun_moves + others
