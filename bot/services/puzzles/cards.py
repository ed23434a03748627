"""What a puzzle looks like in a chat: its board in the right variant, its card, its caption's
facts, its solution in the chat's notation, and the data the console's ``--json`` shows."""

from __future__ import annotations

from typing import Any

from makruk import Board, Move, board_class
from storage.records import Puzzle

from ...messages import BoardView
from ..notation import move_text

CARD_SIZE = 800


def board_of(puzzle: Puzzle) -> Board:
    """The puzzle's starting position, on the board of its variant."""
    return board_class(puzzle.variant)(puzzle.fen)


def board_after(puzzle: Puzzle, plies: int) -> Board:
    """The position after the first ``plies`` moves of the solution."""
    board = board_of(puzzle)
    for uci in puzzle.solution[:plies]:
        board.push(Move.from_uci(uci))
    return board


def draw_card(view: BoardView) -> bytes:
    """The puzzle card: caption above the board (renderers.render_puzzle_card)."""
    from renderers import render_puzzle_card

    return render_puzzle_card(view.fen, view.caption or "", variant=view.variant, size=CARD_SIZE, flip=view.flip,
                              coords=view.coords, last_move=view.last_move)


def is_mate_puzzle(puzzle: Puzzle) -> bool:
    return "mate" in puzzle.themes


def solution_text(language: str, puzzle: Puzzle) -> str:
    """The whole line with move numbers, in Thai notation for Thai chats: ``1. Ra8+ Kf7 2. Ra7#``."""
    board = board_of(puzzle)
    parts = []
    for i, uci in enumerate(puzzle.solution):
        move = Move.from_uci(uci)
        if board.turn or i == 0:
            parts.append(f"{board.fullmove_number}." if board.turn else f"{board.fullmove_number}...")
        parts.append(move_text(language, board, move))
        board.push(move)
    return " ".join(parts)


def refutation(language: str, puzzle: Puzzle, ply: int, wrong: Move) -> str | None:
    """The opponent's answer to a wrong move, as the bank's line has it: its reply at that point,
    when that reply is still legal after the wrong move; None when it is not (or the wrong move
    ends the game)."""
    if ply + 1 >= len(puzzle.solution):
        return None
    board = board_after(puzzle, ply)
    board.push(wrong)
    reply = Move.from_uci(puzzle.solution[ply + 1])
    if board.is_game_over() or not board.is_legal(reply):
        return None
    return move_text(language, board, reply)


def puzzle_data(puzzle: Puzzle, rating: float | None) -> dict[str, Any]:
    """What the reply that poses a puzzle tells a program (the console's ``--json``)."""
    shown = rating if rating is not None else puzzle.rating
    return {"puzzle": {"id": puzzle.id, "rating": None if shown is None else round(shown), "variant": puzzle.variant}}


def rating_data(before: float, after: float) -> dict[str, Any]:
    """The player's puzzle rating before and after a rated try (the console's ``--json``)."""
    return {"puzzle_rating": {"before": round(before), "after": round(after)}}
