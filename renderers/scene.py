"""What one picture shows: pieces, the Khun in check and the marks, read from the caller's input.

Everything the renderers accept from outside (FEN, UCI moves, square names) is checked here,
so bad input fails with a ValueError before any drawing starts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from makruk import Board, Move, Piece

from .errors import RenderError
from .geometry import Square, parse_square

COORDS = ("latin", "thai", "none")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Scene:
    """A position and its marks; hashable, so equal scenes can share a drawn frame."""

    pieces: tuple[Piece | None, ...]  # 64 entries, a1 first
    check: Square | None = None  # the Khun in check
    last_move: tuple[Square, Square] | None = None
    selected: Square | None = None
    targets: frozenset[Square] = frozenset()
    arrows: tuple[tuple[Square, Square], ...] = ()


def scene_of(
    position: str | Board,
    *,
    last_move: str | Move | None = None,
    selected: str | Square | None = None,
    targets: Iterable[str | Square] = (),
    arrows: Iterable[str | Move] = (),
) -> tuple[Scene, Board]:
    """The scene of a FEN (or Board) with its marks, and the board it was read from.

    Raises ``makruk.InvalidFenError`` / ``makruk.InvalidMoveError`` or RenderError (all ValueError).
    """
    board = Board(position) if isinstance(position, str) else position
    if not isinstance(board, Board):
        raise RenderError(f"expected a FEN or a makruk.Board, got {type(position).__name__}")
    return (
        Scene(
            pieces=pieces_of(board),
            check=check_square(board),
            last_move=_move_squares(last_move) if last_move else None,
            selected=None if selected is None else _square(selected),
            targets=frozenset(_square(t) for t in _listed(targets, "targets")),
            arrows=tuple(_move_squares(a) for a in _listed(arrows, "arrows")),
        ),
        board,
    )


def pieces_of(board: Board) -> tuple[Piece | None, ...]:
    return tuple(board.piece_at(sq) for sq in range(64))


def check_square(board: Board) -> Square | None:
    """The square of the side to move's Khun when it is in check."""
    return board.king(board.turn) if board.is_check() else None


def check_coords(coords: str) -> str:
    if coords not in COORDS:
        raise RenderError(f"coords must be one of {', '.join(COORDS)}; got {coords!r}")
    return coords


def _move_squares(move: str | Move) -> tuple[Square, Square]:
    if isinstance(move, str):
        move = Move.from_uci(move.strip())
    if not isinstance(move, Move):
        raise RenderError(f"expected a UCI move such as 'e3e4', got {move!r}")
    return move.from_square, move.to_square


def _square(value: str | Square) -> Square:
    if isinstance(value, str):
        return parse_square(value)
    if isinstance(value, bool) or not 0 <= value < 64:
        raise RenderError(f"square must be a name such as 'e3' or 0..63, got {value!r}")
    return value


def _listed(values: Iterable[T], name: str) -> list[T]:
    # A lone string is a common slip for a one-item list: "e3e4" would iterate as letters.
    if isinstance(values, str):
        raise RenderError(f"{name} must be a list, e.g. [{values!r}], not a string")
    return list(values)
