"""Perft: the number of leaf positions at a depth, the standard check of a move generator.

>>> from makruk.board import Board
>>> perft(Board(), 2)
529
"""

from __future__ import annotations

from .board import Board


def perft(board: Board, depth: int) -> int:
    if depth < 1:
        return 1
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total
