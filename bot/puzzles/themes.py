"""Theme tags and a difficulty rating for a puzzle, read off its line with the rules core.

>>> tags("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", ["a1a8"], "mate", 1)
('mate', 'mateIn1', 'check', 'rua', 'oneMove', 'endgame')
"""

from __future__ import annotations

from collections.abc import Sequence

from makruk import Board, Move, PieceType

from .counting import count_themes
from .motifs import length_tag
from .motifs import motifs as line_motifs
from .verify import VALUES, material, settle

PIECE_THEMES = {
    PieceType.KHUN: "khun",
    PieceType.MET: "met",
    PieceType.KHON: "khon",
    PieceType.MA: "ma",
    PieceType.RUA: "rua",
    PieceType.BIA: "bia",
    PieceType.BIA_NGAI: "biaNgai",
}
BASE_RATING = {1: 650, 2: 1000, 3: 1350, 4: 1650}
MATERIAL_BASE = 950
SOLVER_MOVE_STEP = 250


def tags(fen: str, moves: Sequence[str], kind: str, mate_in: int | None, *,
         variant: str = "makruk") -> tuple[str, ...]:
    """The puzzle's themes, in a fixed order: kind, motifs, pieces, phase."""
    board = Board(fen, variant=variant)
    found: list[str] = ["mate", f"mateIn{mate_in}"] if kind == "mate" else ["material"]
    first = Move.from_uci(moves[0])
    motifs = []
    if _gives_check(board.copy(), first):
        motifs.append("check")
    elif board.piece_at(first.to_square) is None and not first.promotion:
        motifs.append("quietMove")
    if board.piece_at(first.to_square) is not None:
        motifs.append("capture")
    if any(Move.from_uci(u).promotion for u in moves[0::2]):
        motifs.append("promotion")
    if is_sacrifice(fen, moves, variant=variant):
        motifs.append("sacrifice")
    found += motifs
    found += line_motifs(fen, moves, variant=variant)
    found += count_themes(fen, variant)
    kinds = []
    for ply, uci in enumerate(moves):
        move = Move.from_uci(uci)
        if ply % 2 == 0:
            piece = board.piece_at(move.from_square)
            if piece is not None and PIECE_THEMES[piece.kind] not in kinds:
                kinds.append(PIECE_THEMES[piece.kind])
        board.push(move)
    order = list(PIECE_THEMES.values())
    found += sorted(kinds, key=order.index)
    found.append(length_tag((len(moves) + 1) // 2))
    found.append(phase(Board(fen, variant=variant)))
    return tuple(found)


def rating(fen: str, moves: Sequence[str], kind: str, mate_in: int | None, *, found_depth: int | None = None,
           variant: str = "makruk") -> int:
    """A difficulty estimate: longer lines, quiet first moves, sacrifices, many choices and
    moves an engine finds only when searching deeper are harder."""
    board = Board(fen, variant=variant)
    solver_moves = (len(moves) + 1) // 2
    if kind == "mate":
        value = BASE_RATING.get(mate_in or 1, 1650 + 300 * ((mate_in or 4) - 4))
    else:
        value = MATERIAL_BASE + SOLVER_MOVE_STEP * (solver_moves - 1)
    first = Move.from_uci(moves[0])
    captured = board.piece_at(first.to_square)
    if not _gives_check(board.copy(), first) and captured is None:
        value += 120
    if captured is not None and VALUES[captured.kind] >= 250:
        value -= 60
    if is_sacrifice(fen, moves, variant=variant):
        value += 120
    value += max(-60, min(60, 3 * (len(board.legal_moves()) - 25)))
    if found_depth is not None:
        value += min(350, 35 * max(0, found_depth - 2))
    return int(round(max(500, min(2600, value)) / 10) * 10)


def phase(board: Board) -> str:
    pieces = sum(1 for code in board.placement() if code and code & 7 != PieceType.KHUN)
    if pieces <= 12:
        return "endgame"
    if board.fullmove_number <= 10 and pieces >= 26:
        return "opening"
    return "middlegame"


def is_sacrifice(fen: str, moves: Sequence[str], *, variant: str = "makruk") -> bool:
    """The solver's first move gives up material: the defender could win some by captures,
    or the line itself leaves the solver behind after the defender's reply."""
    board = Board(fen, variant=variant)
    solver = board.turn
    before = material(board, solver)
    board.push(Move.from_uci(moves[0]))
    after_move = material(board, solver)
    if -settle(board) <= after_move - 100 and -settle(board) < before:
        return True
    if len(moves) > 1:
        board.push(Move.from_uci(moves[1]))
        return material(board, solver) <= before - 100
    return False


def _gives_check(board: Board, move: Move) -> bool:
    board.push(move)
    try:
        return board.is_check()
    finally:
        board.pop()
