"""The Makruk board: legal moves, repetition and perpetual check, counting, outcome, and moves
from people in every notation.

A ``Board`` is built in layers, each a module: its state (``makruk/position.py``: set-up,
attacks, ``push`` and ``pop``), its move generation (``makruk/movegen.py``), and here the rules
that need the game's history. The variants of the family are its subclasses (``makruk.variants``).

>>> board = Board()
>>> len(board.legal_moves())
23
>>> board.push(Move.from_uci("e3e4"))
>>> board.fen()
'rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from . import attacks as A
from . import notation
from .counting import (
    BOARD_HONOUR_LIMIT,
    Count,
    CountKind,
    has_unpromoted_bia,
    is_bare,
    is_dead_material,
    pieces_honour_limit,
)
from .errors import IllegalMoveError, UnknownVariantError
from .history import CountEvent
from .movegen import MoveGenerator, Promotion
from .position import BIA, TranspositionKey
from .types import BLACK, BLACK_OFFSET, SQUARE_NAMES, WHITE, Color, Move, PieceType

__all__ = ["Board", "Outcome", "Perpetual", "Promotion", "board_class"]

Perpetual = Literal["forbid", "draw"]


@dataclass(frozen=True, slots=True)
class Outcome:
    result: Literal["1-0", "0-1", "1/2-1/2"]
    reason: Literal["checkmate", "check", "stalemate", "repetition", "counting", "material", "fifty_moves"]

    @property
    def winner(self) -> Color | None:
        return {"1-0": WHITE, "0-1": BLACK}.get(self.result)

    def as_dict(self) -> dict[str, str]:
        return {"result": self.result, "reason": self.reason}


class Board(MoveGenerator):
    """A Makruk position with its history since the FEN it was set up from.

    Rule options: ``promotion`` is ``"forced"`` (default, as Fairy-Stockfish) or ``"optional"``;
    ``perpetual`` is ``"forbid"`` (default: perpetual check may not force a repetition draw)
    or ``"draw"`` (repetition always draws, as Fairy-Stockfish).

    ``Board(fen, variant="cambodian")`` makes a board of another member of the family: an
    instance of that variant's subclass (``makruk.variants``), which changes the class
    attributes and hooks of these layers.

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

    >>> from makruk import Piece
    >>> board = Board("4k3/8/8/8/8/8/R7/3K4 w - - 0 1")
    >>> board.piece_codes[8], board.bitboards[Piece.from_symbol("R").code] == 1 << 8
    (6, True)
    >>> board.push(Move.from_uci("a2a8"))
    >>> board.checkers_mask == 1 << 56, board.occupied_co[WHITE] == 1 << 3 | 1 << 56
    (True, True)
    """

    variant = "makruk"
    board_honour_limit = BOARD_HONOUR_LIMIT
    move_rule = 0  # the n-move rule (ASEAN and Sittuyin: 50); 0: none
    declared_counting = True  # the players declare counts (Makruk); False: a count starts by itself (ASEAN)
    san_letters: ClassVar[dict[PieceType, str]] = notation.SAN_LETTERS  # the variant's SAN letters (ASEAN's Khon is B)

    def __new__(cls, fen: str | None = None, *, variant: str | None = None, **options: str) -> Board:
        if variant is not None and variant != cls.variant:
            if cls is not Board:
                raise ValueError(f"a {cls.__name__} plays {cls.variant!r}, not {variant!r}")
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
        self.promotion = promotion
        self.perpetual: Perpetual = perpetual
        self._set_fen(self.starting_fen if fen is None else fen)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that names its variant is that member of the family (``board_class``)."""
        super().__init_subclass__(**kwargs)
        if "variant" in vars(cls):
            _FAMILY[cls.variant] = cls

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
        return None if self.count is not None else self.count_open_to(self.turn)

    def count_open_to(self, side: Color) -> CountKind | None:
        """The count ``side`` may declare with these pieces on the board, whoever is to move
        and whatever count runs."""
        if has_unpromoted_bia(self.piece_codes):
            return None
        us_bare = is_bare(self.piece_codes, side)
        them_bare = is_bare(self.piece_codes, not side)
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


# Each member of the family by its name, entered as its class is made: the variants build on
# this module, which never imports them (the package's __init__ does, before anything is asked).
_FAMILY: dict[str, type[Board]] = {Board.variant: Board}


def board_class(variant: str) -> type[Board]:
    """The board class of ``variant`` (a Fairy-Stockfish name); UnknownVariantError otherwise.

    >>> board_class("cambodian").__name__
    'CambodianBoard'
    """
    found = _FAMILY.get(variant) if isinstance(variant, str) else None
    if found is None:
        raise UnknownVariantError(f"unknown variant {variant!r}; one of {', '.join(_FAMILY)}")
    return found
