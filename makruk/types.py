"""Plain values of the game: colours, squares, pieces and moves.

>>> Move.from_uci("e3e4")
Move.from_uci('e3e4')
>>> Piece.from_symbol("M~")
Piece(kind=<PieceType.BIA_NGAI: 2>, color=True)
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .errors import InvalidMoveError

Color = bool
WHITE: Color = True
BLACK: Color = False
COLOR_NAMES = {WHITE: "w", BLACK: "b"}

Square = int  # a1 = 0, b1 = 1, ..., h8 = 63
FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]


def square(file_index: int, rank_index: int) -> Square:
    return rank_index * 8 + file_index


def square_file(sq: Square) -> int:
    return sq & 7


def square_rank(sq: Square) -> int:
    return sq >> 3


def square_name(sq: Square) -> str:
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """The square named like ``"e3"``; raises InvalidMoveError otherwise."""
    try:
        return SQUARE_NAMES.index(name.lower())
    except ValueError:
        raise InvalidMoveError(f"not a square: {name!r}") from None


BLACK_OFFSET = 8  # a Black piece's code is its kind plus this (see ``Piece.code``)


class PieceType(enum.IntEnum):
    """The six kinds of Makruk, plus the promoted Bia (Bia Ngai)."""

    BIA = 1
    BIA_NGAI = 2
    MET = 3
    KHON = 4
    MA = 5
    RUA = 6
    KHUN = 7

    @property
    def letter(self) -> str:
        """FEN letter in lower case (Bia Ngai is written ``m~``)."""
        return _LETTERS[self]


_LETTERS = {
    PieceType.BIA: "p",
    PieceType.BIA_NGAI: "m~",
    PieceType.MET: "m",
    PieceType.KHON: "s",
    PieceType.MA: "n",
    PieceType.RUA: "r",
    PieceType.KHUN: "k",
}
_BY_LETTER = {letter: kind for kind, letter in _LETTERS.items()}


@dataclass(frozen=True, slots=True)
class Piece:
    kind: PieceType
    color: Color

    def symbol(self) -> str:
        """FEN symbol: upper case for White, e.g. ``K``, ``m~``."""
        letter = self.kind.letter
        return letter.upper() if self.color else letter

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        kind = _BY_LETTER.get(symbol.lower())
        if kind is None:
            raise ValueError(f"not a piece symbol: {symbol!r}")
        return cls(kind, symbol[0].isupper())

    @property
    def code(self) -> int:
        """The number standing for this piece in the board's tables: the kind's value for White
        (1-7), plus ``BLACK_OFFSET`` for Black (9-15); 0 is an empty square.

        >>> Piece.from_symbol("R").code, Piece.from_symbol("r").code
        (6, 14)
        """
        return self.kind + (0 if self.color else BLACK_OFFSET)


def piece_from_code(code: int) -> Piece:
    """The piece a (non-zero) code stands for; see ``Piece.code``."""
    return _PIECES_BY_CODE[code]


_PIECES_BY_CODE = {
    kind + (0 if color else BLACK_OFFSET): Piece(kind, color) for kind in PieceType for color in (WHITE, BLACK)
}


# The letters of pieces dropped from the hand (Sittuyin's deployment, ``R@a1``): F is the
# Sit-ke (a Met), S the Elephant (a Khon).
DROP_KINDS = {"K": PieceType.KHUN, "F": PieceType.MET, "R": PieceType.RUA, "S": PieceType.KHON, "N": PieceType.MA}
DROP_LETTERS = {kind: letter for letter, kind in DROP_KINDS.items()}


@dataclass(frozen=True, slots=True)
class Move:
    """A move from one square to another, as Fairy-Stockfish writes it in UCI.

    ``promotion`` is the lower-case letter of what a Bia becomes (``"m"``: Makruk's Bia Ngai;
    ``"q" "r" "n" "b"`` in ASEAN; ``"f"``, Sittuyin's Sit-ke, which may promote in place, so
    ``from_square == to_square``). ``drop`` is the upper-case letter of a piece placed from the
    hand (Sittuyin's deployment), on ``to_square`` (``from_square`` is the same square). The
    letters are the variant's own (ASEAN's Met is ``q``); the board knows what they stand for.

    The null move ``Move(0, 0)`` is falsy.

    >>> Move.from_uci("a7a8q").promotion, Move.from_uci("R@a1").drop, Move.from_uci("f5f5f").uci()
    ('q', 'R', 'f5f5f')
    """

    from_square: Square
    to_square: Square
    promotion: str = ""
    drop: str = ""

    def uci(self) -> str:
        if self.drop:
            return f"{self.drop}@{SQUARE_NAMES[self.to_square]}"
        if not self:
            return "0000"
        return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square] + self.promotion

    def __bool__(self) -> bool:
        return self.from_square != self.to_square or bool(self.promotion or self.drop)

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Reads ``e3e4``, ``d5c6m``, ``a7a8q``, ``f5f5f`` or ``R@a1`` (strict; the notation module
        reads the looser forms)."""
        move = _MOVES_BY_UCI.get(text) if isinstance(text, str) else None
        if move is not None:
            return move
        if text == "0000":
            return cls(0, 0)
        found = _UCI.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise InvalidMoveError(f"not a UCI move: {text!r}")
        letter, drop_to, frm, to, promotion = found.groups()
        if letter:
            sq = SQUARE_NAMES.index(drop_to)
            return cls(sq, sq, drop=letter)
        move = cls(SQUARE_NAMES.index(frm), SQUARE_NAMES.index(to), promotion or "")
        if not move:
            raise InvalidMoveError(f"not a UCI move: {text!r}")
        return move


_UCI = re.compile(r"(?:([KFRSNMQBP])@([a-h][1-8]))|(?:([a-h][1-8])([a-h][1-8])([mqrnbfs]?))")

# Every Makruk move value exists once: move generation hands out these shared objects.
MOVES: list[list[tuple[Move, Move]]] = [
    [(Move(f, t), Move(f, t, "m")) for t in range(64)] for f in range(64)
]
# Every Makruk UCI move, so that reading one (stored games are read back move by move) is a lookup.
_MOVES_BY_UCI = {
    SQUARE_NAMES[frm] + SQUARE_NAMES[to] + suffix: MOVES[frm][to][promotion]
    for frm in range(64)
    for to in range(64)
    if frm != to
    for promotion, suffix in ((0, ""), (1, "m"))
}
