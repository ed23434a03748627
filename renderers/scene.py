"""What one picture shows: pieces, the Khun in check and the marks, read from the caller's input.

Besides the pieces on the board, a scene carries what a variant's players must see: Sittuyin's
pieces still in hand, Ouk Chatrang's Khun and Neang that may still leap, and Sittuyin's Bia
that may promote now.

Everything the renderers accept from outside (FEN, UCI moves, square names) is checked here,
so bad input fails with a ValueError before any drawing starts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TypeVar

from makruk import BLACK, WHITE, Board, Move, Piece, PieceType

from .errors import RenderError
from .geometry import Square, parse_square

COORDS = ("latin", "thai", "none")

T = TypeVar("T")

Hand = tuple[tuple[PieceType, int], ...]  # the kinds one side holds and how many, in kind order
LEAPERS = (PieceType.KHUN, PieceType.MET, PieceType.BIA_NGAI)  # what leaps from a flagged square (Ouk)


@dataclass(frozen=True, slots=True)
class Scene:
    """A position and its marks; hashable, so equal scenes can share a drawn frame."""

    pieces: tuple[Piece | None, ...]  # 64 entries, a1 first
    check: Square | None = None  # the Khun in check
    last_move: tuple[Square, Square] | None = None
    selected: Square | None = None
    targets: frozenset[Square] = frozenset()
    arrows: tuple[tuple[Square, Square], ...] = ()
    # Sittuyin's deployment: (Black's hand, White's hand), so ``hands[color]``; None: no hands to show.
    hands: tuple[Hand, Hand] | None = None
    leaps: frozenset[Square] = frozenset()  # Ouk Chatrang: a Khun or Neang that may still leap
    promotions: frozenset[Square] = frozenset()  # Sittuyin: a Bia that may promote now


def scene_of(
    position: str | Board,
    *,
    variant: str | None = None,
    last_move: str | Move | None = None,
    selected: str | Square | None = None,
    targets: Iterable[str | Square] = (),
    arrows: Iterable[str | Move] = (),
) -> tuple[Scene, Board]:
    """The scene of a FEN (or Board) with its marks, and the board it was read from.

    A FEN is read as ``variant`` (a name of ``makruk.VARIANTS``; None: Makruk); a Board plays its
    own variant, and naming another one is an error. Raises ``makruk.InvalidFenError``,
    ``makruk.InvalidMoveError``, ``makruk.UnknownVariantError`` or RenderError (all ValueError).
    """
    board = read_board(position, variant)
    return (
        replace(
            position_scene(board),
            last_move=_move_squares(last_move) if last_move else None,
            selected=None if selected is None else _square(selected),
            targets=frozenset(_square(t) for t in _listed(targets, "targets")),
            arrows=tuple(_move_squares(a) for a in _listed(arrows, "arrows")),
        ),
        board,
    )


def read_board(position: str | Board, variant: str | None = None) -> Board:
    """The board of a FEN read as ``variant``, or the Board itself (which must play ``variant``)."""
    if isinstance(position, str):
        return Board(position, variant=variant)
    if not isinstance(position, Board):
        raise RenderError(f"expected a FEN or a makruk.Board, got {type(position).__name__}")
    if variant is not None and variant != position.variant:
        raise RenderError(f"the board plays {position.variant!r}, not {variant!r}")
    return position


def position_scene(board: Board) -> Scene:
    """What the position itself shows, without the caller's marks."""
    return Scene(
        pieces=pieces_of(board),
        check=check_square(board),
        hands=hands_of(board),
        leaps=leap_squares(board),
        promotions=promotion_squares(board),
    )


def pieces_of(board: Board) -> tuple[Piece | None, ...]:
    return tuple(board.piece_at(sq) for sq in range(64))


def hands_of(board: Board) -> tuple[Hand, Hand] | None:
    """Both sides' pieces in hand while any are left to place (Sittuyin's deployment), else None."""
    if not board.in_deployment():
        return None
    return _hand(board.pocket(BLACK)), _hand(board.pocket(WHITE))


def _hand(pocket: dict[PieceType, int]) -> Hand:
    return tuple((kind, pocket[kind]) for kind in sorted(pocket) if pocket[kind] > 0)


def leap_squares(board: Board) -> frozenset[Square]:
    """Squares of a Khun or Neang (Met) whose first-move leap still stands (Ouk Chatrang).

    Only a flag whose own side's leaper stands on its square counts (White's flags are on the
    first rank, Black's on the last); a flag goes when its piece moves or is taken, and the
    Khun's when an enemy Rua comes onto its rank or file.

    >>> board = Board(variant="cambodian")
    >>> sorted(leap_squares(board))  # d1, e1, d8, e8
    [3, 4, 59, 60]
    >>> board.push(board.parse_move("d1b2")); sorted(leap_squares(board))
    [4, 59, 60]
    """
    gates = board.gates
    return frozenset(
        sq for sq in range(64)
        if gates >> sq & 1 and (piece := board.piece_at(sq)) is not None
        and piece.kind in LEAPERS and piece.color == (WHITE if sq < 32 else BLACK)
    )


def promotion_squares(board: Board) -> frozenset[Square]:
    """Squares of the side to move's Bia that may promote now (Sittuyin: ``d5d5f``, ``d5c6f``)."""
    if board.variant != "sittuyin":  # elsewhere a Bia promotes by reaching its rank: nothing to show
        return frozenset()
    return frozenset(m.from_square for m in board.legal_moves() if m.promotion == "f")


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
