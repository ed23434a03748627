"""Helpers the rules tests share."""

from __future__ import annotations

from makruk import Board, Count, Outcome


def ended(board: Board) -> Outcome:
    """The outcome of a game that has ended."""
    outcome = board.outcome()
    assert outcome is not None, board.fen()
    return outcome


def running_count(board: Board) -> Count:
    """The count that runs."""
    assert board.count is not None, board.fen()
    return board.count
