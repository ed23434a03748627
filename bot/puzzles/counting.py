"""Counting puzzles: a mate to give before the count runs out.

Without an unpromoted Bia on the board the defender declares a count (RULES.md): the pieces'
honour against a bare Khun, the board's honour otherwise, and the attacker must mate within its
moves. A counting puzzle sets the position under the count that leaves exactly the moves of its
mate, so a slower mate, which would win without the count, draws: only the fastest way wins, as
in the endgames Makruk players learn. The count travels in the FEN as Fairy-Stockfish writes it
(``makruk.counting.with_count``), so the engine searches under it and the bank's acceptance
holds as for any puzzle.

Only Makruk and Makpong, whose counts RULES.md and Fairy-Stockfish share; Ouk Chatrang's,
ASEAN's and Sittuyin's differ and are not set.

>>> from makruk import Board
>>> fen = counted(Board("7k/8/5K2/8/8/8/8/R7 w - - 0 1"), 2)
>>> fen, puzzle_count(fen)
('7k/8/5K2/8/8/8/8/R7 w - 32 30 1', PuzzleCount(kind='pieces', moves_left=2))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from makruk import Board
from makruk.counting import (
    CountKind,
    count_moves_left,
    fen_count,
    fsf_count_limit,
    has_unpromoted_bia,
    is_bare,
    with_count,
)

COUNT_VARIANTS: Final = frozenset({"makruk", "makpong"})
COUNT_THEMES: Final = {"pieces": "piecesHonour", "board": "boardHonour"}


@dataclass(frozen=True)
class PuzzleCount:
    """The count a puzzle is set under: which one, and the moves the solver has left to mate."""

    kind: CountKind
    moves_left: int


def puzzle_count(fen: str, variant: str = "makruk") -> PuzzleCount | None:
    """The count a puzzle's FEN sets, or None for a puzzle without one."""
    found = fen_count(fen)
    if found is None or variant not in COUNT_VARIANTS:
        return None
    board = Board(fen, variant=variant)
    kind: CountKind = "pieces" if is_bare(board.placement(), not board.turn) else "board"
    return PuzzleCount(kind, count_moves_left(*found))


def counted(board: Board, moves_left: int) -> str | None:
    """The position under the count its defender would declare, leaving the side to move
    ``moves_left`` moves to mate; None where no count applies (an unpromoted Bia on the board,
    the side to move with a bare Khun, a variant whose count is not Makruk's)."""
    placement = board.placement()
    if board.variant not in COUNT_VARIANTS or has_unpromoted_bia(placement) or is_bare(placement, board.turn):
        return None
    fields = board.fen().split()
    fields[4] = "0"  # the position alone: no half-move clock
    return with_count(" ".join(fields), fsf_count_limit(placement, board.turn), moves_left)


def count_themes(fen: str, variant: str = "makruk") -> tuple[str, ...]:
    """``countingRace`` and which count, for a puzzle set under one."""
    count = puzzle_count(fen, variant)
    return () if count is None else ("countingRace", COUNT_THEMES[count.kind])
