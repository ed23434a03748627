"""Counting puzzles: a mate to give before the count runs out.

Without an unpromoted Bia on the board a count runs (RULES.md): the pieces' honour against a
bare Khun, and, where the players declare counts (Makruk, Makpong, Ouk Chatrang), the board's
honour otherwise; the attacker must mate within its moves. A counting puzzle sets the position
under the count that leaves exactly the moves of its mate, so a slower mate, which would win
without the count, draws: only the fastest way wins, as in the endgames players learn. Which
count can run, and how long it is at most, is the variant's own rule, asked of the rules core;
the count travels in the FEN as Fairy-Stockfish writes it (``makruk.counting.with_count``),
which every member of the family reads alike, so the engine searches under it and the bank's
acceptance holds as for any puzzle.

>>> from makruk import Board
>>> fen = counted(Board("7k/8/5K2/8/8/8/8/R7 w - - 0 1"), 2)
>>> fen, puzzle_count(fen)
('7k/8/5K2/8/8/8/8/R7 w - 26 24 1', PuzzleCount(kind='pieces', moves_left=2))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from makruk import Board
from makruk.counting import (
    CountKind,
    count_moves_left,
    fen_count,
    has_unpromoted_bia,
    is_bare,
    with_count,
)

COUNT_THEMES: Final = {"pieces": "piecesHonour", "board": "boardHonour"}


@dataclass(frozen=True)
class PuzzleCount:
    """The count a puzzle is set under: which one, and the moves the solver has left to mate."""

    kind: CountKind
    moves_left: int


def puzzle_count(fen: str, variant: str = "makruk") -> PuzzleCount | None:
    """The count a puzzle's FEN sets, or None for a puzzle without one."""
    found = fen_count(fen)
    if found is None:
        return None
    board = Board(fen, variant=variant)
    kind: CountKind = "pieces" if is_bare(board.placement(), not board.turn) else "board"
    return PuzzleCount(kind, count_moves_left(*found))


def counted(board: Board, moves_left: int) -> str | None:
    """The position under the count its defender (the side not to move) may have running,
    leaving the side to move ``moves_left`` moves to mate; None where no count of at least
    that many moves can run (an unpromoted Bia on the board, the side to move with a bare Khun,
    no count in the variant's rules, or a shorter one). The count's limit is written as its
    whole length, in plies."""
    found = _defender_count(board)
    if found is None or found[1] < moves_left:
        return None
    return with_count(board.fen(), 2 * found[1], moves_left)


def is_rules_count(fen: str, variant: str = "makruk") -> bool:
    """Whether the count a puzzle's FEN carries is one its defender may have running there by
    the variant's rules, as ``counted`` sets it (not a limit or a kind the rules never give)."""
    found = puzzle_count(fen, variant)
    if found is None:
        return False
    fields = fen.split()
    fields[3:5] = ["-", "0"]
    return counted(Board(" ".join(fields), variant=variant), found.moves_left) == fen


def _defender_count(board: Board) -> tuple[CountKind, int] | None:
    """The count the side not to move may have running here, and its length in moves, as the
    variant's rules give it."""
    placement, strong = board.placement(), board.turn
    if has_unpromoted_bia(placement) or is_bare(placement, strong):
        return None
    if is_bare(placement, not strong):
        limit = board.count_limit(strong)
        return None if limit is None or limit < 1 else ("pieces", limit)
    return ("board", board.board_honour_limit) if board.count_open_to(not strong) == "board" else None


def count_themes(fen: str, variant: str = "makruk") -> tuple[str, ...]:
    """``countingRace`` and which count, for a puzzle set under one."""
    count = puzzle_count(fen, variant)
    return () if count is None else ("countingRace", COUNT_THEMES[count.kind])
