"""The endgame drawing rules: the two counts and the dead-draw material table (RULES.md).

Functions here take a board's placement as a list of 64 piece codes (0 = empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .types import BLACK, WHITE, Color, Piece, PieceType

CountKind = Literal["pieces", "board"]
BOARD_HONOUR_LIMIT = 64


@dataclass(frozen=True, slots=True)
class Count:
    """A declared count: ``side`` declared it; the other side has ``limit`` moves to mate."""

    kind: CountKind
    side: Color
    limit: int
    done: int = 0

    def after_move(self, mover: Color) -> Count:
        return replace(self, done=self.done + 1) if mover != self.side else self

    @property
    def expired(self) -> bool:
        return self.done >= self.limit

    def as_dict(self) -> dict[str, str | int]:
        return {"kind": self.kind, "side": "w" if self.side else "b", "limit": self.limit, "done": self.done}


_B = {color: {kind: Piece(kind, color).code for kind in PieceType} for color in (WHITE, BLACK)}


def has_unpromoted_bia(placement: Sequence[int]) -> bool:
    return _B[WHITE][PieceType.BIA] in placement or _B[BLACK][PieceType.BIA] in placement


def is_bare(placement: Sequence[int], color: Color) -> bool:
    """True when ``color`` has nothing but its Khun."""
    khun = _B[color][PieceType.KHUN]
    low, high = (1, 7) if color else (9, 15)
    return not any(low <= code <= high and code != khun for code in placement)


def pieces_honour_limit(placement: Sequence[int], strong: Color) -> int:
    """Moves the stronger side gets against a bare Khun: base from its pieces, minus all pieces.

    >>> from makruk.fen import parse_fen
    >>> pieces_honour_limit(parse_fen("8/8/3k4/8/8/2M~M~4/3SNN2/3K4 w - - 0 1").placement, WHITE)
    37
    """
    mine = _material(placement, strong)
    if mine[PieceType.RUA] >= 2:
        base = 8
    elif mine[PieceType.RUA] == 1:
        base = 16
    elif mine[PieceType.KHON] >= 2:
        base = 22
    elif mine[PieceType.KHON] == 1:
        base = 44
    elif mine[PieceType.MA] >= 2:
        base = 32
    elif mine[PieceType.MA] == 1:
        base = 64
    else:
        base = 64  # only Met and Bia Ngai
    on_board = sum(1 for code in placement if code)
    return base - on_board


def _material(placement: Sequence[int], color: Color) -> dict[PieceType, int]:
    counts = dict.fromkeys(PieceType, 0)
    for code in placement:
        if code and (code < 8) == color:
            counts[PieceType(code & 7)] += 1
    return counts


# --- dead draws -------------------------------------------------------------------------

def is_dead_material(placement: Sequence[int]) -> bool:
    """The material table of RULES.md: true when the position is a draw at once.

    Applies only when no unpromoted Bia is on the board; "Bia" in the table is Bia Ngai.
    """
    if has_unpromoted_bia(placement):
        return False
    sides = {color: _side_material(placement, color) for color in (WHITE, BLACK)}
    if not sides[WHITE].kinds and not sides[BLACK].kinds:
        return True
    return any(
        _matches(sides[strong], sides[not strong]) for strong in (WHITE, BLACK)
    )


@dataclass(frozen=True)
class _Side:
    kinds: tuple[str, ...]  # sorted letters: 'n' Ma, 'r' Rua, 's' Khon, 'm' Met, 'g' Bia Ngai
    ngai_squares: tuple[int, ...]


def _side_material(placement: Sequence[int], color: Color) -> _Side:
    letters = {PieceType.MA: "n", PieceType.RUA: "r", PieceType.KHON: "s", PieceType.MET: "m", PieceType.BIA_NGAI: "g"}
    kinds, ngai = [], []
    for sq, code in enumerate(placement):
        if code and (code < 8) == color and (code & 7) != PieceType.KHUN:
            kind = PieceType(code & 7)
            kinds.append(letters[kind])
            if kind == PieceType.BIA_NGAI:
                ngai.append(sq)
    return _Side(tuple(sorted(kinds)), tuple(ngai))


def _is(side: _Side, *letters: str) -> bool:
    return side.kinds == tuple(sorted(letters))


def _one_of(side: _Side, options: list[tuple[str, ...]]) -> bool:
    return any(_is(side, *option) for option in options)


def _matches(strong: _Side, weak: _Side) -> bool:
    khon_or_ma = ["s", "n"]
    rows: list[tuple[bool, list[tuple[str, ...]]]] = [
        (_is(strong, "g", "g", "g") and _two_connected_one_separate(strong.ngai_squares), [("g",)]),
        (_is(strong, "n", "s", "g"), [("g", "g")]),
        (_is(strong, "r"), [("g", "g", "g"), ("n", "g"), ("s", "g")]),
        (_is(strong, "s", "n"), [("s",), ("n",)]),
        (_is(strong, "r", "g"), [("r",)]),
        (_one_of(strong, [(p, "g", "g") for p in khon_or_ma]), [("r",)]),
        (_one_of(strong, [(p, "g", "g", "g") for p in khon_or_ma]), [("r", "g")]),
        (_one_of(strong, [("r", p) for p in khon_or_ma]), [("r",)]),
        (_is(strong, "g", "g", "g", "g") and _connected(strong.ngai_squares), [("r", "g")]),
        (_is(strong, "r", "r"), [("r", p) for p in khon_or_ma]),
    ]
    return any(stronger and _one_of(weak, weaker) for stronger, weaker in rows)


def _touch(a: int, b: int) -> bool:
    return a != b and abs((a & 7) - (b & 7)) <= 1 and abs((a >> 3) - (b >> 3)) <= 1


def _connected(squares: tuple[int, ...]) -> bool:
    """The squares form one group under king-move adjacency."""
    if not squares:
        return False
    seen, todo = {squares[0]}, [squares[0]]
    while todo:
        sq = todo.pop()
        for other in squares:
            if other not in seen and _touch(sq, other):
                seen.add(other)
                todo.append(other)
    return len(seen) == len(squares)


def _two_connected_one_separate(squares: tuple[int, ...]) -> bool:
    for lone in squares:
        pair = [sq for sq in squares if sq != lone]
        if _touch(pair[0], pair[1]) and not any(_touch(lone, sq) for sq in pair):
            return True
    return False


# --- a count written in a FEN, as Fairy-Stockfish writes it -----------------------------------
#
# Fairy-Stockfish counts on its own and writes the count in place of the en-passant field and
# the half-move clock: the limit and the count so far, both in plies. A position whose count has
# passed the limit is drawn, checkmate first; so the side to move still has
# (limit - ply) // 2 + 1 moves to give mate (tests/puzzles/test_counting.py shows the engine
# reading it so). This project's own counts are declared by the players and kept with the game,
# not in the FEN; a puzzle uses this form to carry the count it is set under.


def fen_count(fen: str) -> tuple[int, int] | None:
    """The (limit, ply) a FEN's count fields hold, or None when it holds no count.

    >>> fen_count("7k/8/5K2/8/8/8/8/R7 w - 32 30 1"), fen_count("7k/8/5K2/8/8/8/8/R7 w - - 0 1")
    ((32, 30), None)
    """
    fields = fen.split()
    if len(fields) < 5 or not (fields[3].isdigit() and fields[4].isdigit()):
        return None
    return int(fields[3]), int(fields[4])


def count_moves_left(limit: int, ply: int) -> int:
    """The moves the side to move has left to mate under a count at ``ply`` of ``limit`` plies."""
    return (limit - ply) // 2 + 1


def with_count(fen: str, limit: int, moves_left: int) -> str:
    """``fen`` carrying a count of ``limit`` plies that leaves the side to move ``moves_left``
    moves to mate (the other fields kept).

    >>> with_count("7k/8/5K2/8/8/8/8/R7 w - - 0 1", 32, 2)
    '7k/8/5K2/8/8/8/8/R7 w - 32 30 1'
    """
    ply = limit - 2 * (moves_left - 1)
    if moves_left < 1 or ply < 0:
        raise ValueError(f"a count of {limit} plies cannot leave {moves_left} moves")
    fields = fen.split()
    turn, flags, number = (fields[i] if len(fields) > i else default for i, default in ((1, "w"), (2, "-"), (5, "1")))
    return f"{fields[0]} {turn} {flags} {limit} {ply} {number}"
