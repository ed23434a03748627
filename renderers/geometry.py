"""Where each square is on a board image, and which square a pixel belongs to.

The board image is ``size`` x ``size`` pixels: a frame of the same width on every side
(it holds the coordinates) around 8 x 8 equal squares. The layout depends only on
``size``, not on the coordinates style or theme, so a tap map built for one image fits
every image of that size.

>>> square_box(0, 800)          # a1, White at the bottom
(36, 673, 127, 764)
>>> square_at(40, 700, 800)      # a pixel inside a1
0
>>> square_at(40, 700, 800, flip=True)  # the same pixel from Black's side is h8
63
>>> square_at(5, 5, 800) is None  # the frame is no square
True

Sittuyin's pictures during the deployment are wider: a column to the right of the board holds
each side's pieces in hand, the far side's beside the upper half of the board and the near
side's beside the lower half. The board keeps its place, so ``square_box`` still holds there.

>>> hand_width(800)
127
>>> hand_box(True, PieceType.RUA, 800)   # White's Rua in hand: the lowest slot, beside rank 1
(810, 693, 881, 764)
>>> hand_at(850, 730, 800)
(True, <PieceType.RUA: 6>)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from makruk import PieceType

from .errors import RenderError

Square = int  # a1 = 0, b1 = 1, ..., h8 = 63, as in makruk

MIN_SIZE = 96
MAX_SIZE = 4096
FRAME_RATIO = 0.045  # frame width as a share of the image: room for readable coordinates

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel measures of a board image of ``size`` pixels."""

    size: int
    frame: int  # frame width on the left and top; right and bottom take the rounding rest
    square: int  # side of one square

    @property
    def board(self) -> int:
        """Side of the 8 x 8 playing area."""
        return self.square * 8


@lru_cache(maxsize=64)
def layout(size: int) -> Layout:
    """The layout of a board image ``size`` pixels wide; raises RenderError when out of range."""
    if not isinstance(size, int) or isinstance(size, bool):
        raise RenderError(f"size must be an integer, got {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RenderError(f"size must be between {MIN_SIZE} and {MAX_SIZE} pixels, got {size}")
    square = (size - 2 * round(size * FRAME_RATIO)) // 8
    frame = (size - 8 * square) // 2
    return Layout(size, frame, square)


def square_box(square: Square, size: int, flip: bool = False) -> tuple[int, int, int, int]:
    """The square's pixel box ``(left, top, right, bottom)``, right and bottom exclusive."""
    if not 0 <= square < 64:
        raise RenderError(f"square must be 0..63, got {square!r}")
    lay = layout(size)
    col, row = _cell(square, flip)
    left = lay.frame + col * lay.square
    top = lay.frame + row * lay.square
    return left, top, left + lay.square, top + lay.square


def square_at(x: float, y: float, size: int, flip: bool = False) -> Square | None:
    """The square under pixel ``(x, y)``, or None on the frame or outside the image."""
    lay = layout(size)
    col = int((x - lay.frame) // lay.square)
    row = int((y - lay.frame) // lay.square)
    if not (0 <= col < 8 and 0 <= row < 8):
        return None
    return _square_of(col, row, flip)


def square_center(square: Square, size: int, flip: bool = False) -> tuple[float, float]:
    """The centre of the square in pixels (used for arrows)."""
    left, top, right, bottom = square_box(square, size, flip)
    return (left + right) / 2, (top + bottom) / 2


def parse_square(name: str) -> Square:
    """The square named like ``"e3"`` (any case); raises RenderError otherwise.

    >>> parse_square("h8")
    63
    """
    text = name.strip().lower() if isinstance(name, str) else ""
    if len(text) != 2 or text[0] not in FILE_NAMES or text[1] not in RANK_NAMES:
        raise RenderError(f"not a square: {name!r}")
    return RANK_NAMES.index(text[1]) * 8 + FILE_NAMES.index(text[0])


def square_name(square: Square) -> str:
    return FILE_NAMES[square & 7] + RANK_NAMES[square >> 3]


def _cell(square: Square, flip: bool) -> tuple[int, int]:
    """Column and row on the image (0, 0 = top left) of a square."""
    file, rank = square & 7, square >> 3
    if flip:
        return 7 - file, rank
    return file, 7 - rank


def _square_of(col: int, row: int, flip: bool) -> Square:
    if flip:
        return row * 8 + (7 - col)
    return (7 - row) * 8 + col


# --- Sittuyin's pieces in hand -----------------------------------------------------------------

# The kinds a hand holds, from the tray's outer end (beside the side's back rank) inwards:
# the Rua nearest the rank it is dropped on, the Khun nearest the middle.
HAND_KINDS = (PieceType.RUA, PieceType.MA, PieceType.KHON, PieceType.MET, PieceType.KHUN)


def hand_width(size: int) -> int:
    """How much wider a picture with pieces in hand is: a tray one square wide right of the
    board's frame, and a frame's width beyond it."""
    lay = layout(size)
    return lay.square + lay.frame


def size_for_width(width: int) -> int:
    """The board ``size`` whose picture with hands is ``width`` wide, or the widest narrower one
    (a LINE imagemap during Sittuyin's deployment must be 1040, 700, ... pixels wide).

    >>> size_for_width(1040), size_for_width(1040) + hand_width(size_for_width(1040))
    (897, 1039)
    """
    size = max(MIN_SIZE, min(width, MAX_SIZE))
    while size > MIN_SIZE and size + hand_width(size) > width:
        size -= 1
    return size


def hand_tray(color: bool, size: int, flip: bool = False) -> tuple[int, int, int, int]:
    """The tray of ``color``'s hand, beside its own half of the board: ``(left, top, right, bottom)``."""
    lay = layout(size)
    gap = max(1, lay.frame // 4)
    middle = lay.frame + 4 * lay.square
    left, right = size, size + lay.square
    if _is_far(color, flip):
        return left, lay.frame, right, middle - gap
    return left, middle + gap, right, lay.frame + lay.board


def hand_box(color: bool, kind: PieceType, size: int, flip: bool = False) -> tuple[int, int, int, int]:
    """The square box of ``color``'s ``kind`` in its tray, right and bottom exclusive.

    Every kind keeps its place, held or not, so a tap map of the hands never changes.
    """
    if kind not in HAND_KINDS:
        raise RenderError(f"a {kind.name.title()} is never in hand")
    left, top, right, bottom = hand_tray(color, size, flip)
    slot = (bottom - top) / len(HAND_KINDS)
    side = int(min(slot, right - left))
    index = HAND_KINDS.index(kind)
    centre = top + (index + 0.5) * slot if _is_far(color, flip) else bottom - (index + 0.5) * slot
    x = left + (right - left - side) // 2
    y = round(centre - side / 2)
    return x, y, x + side, y + side


def hand_at(x: float, y: float, size: int, flip: bool = False) -> tuple[bool, PieceType] | None:
    """The colour and kind of the hand slot under pixel ``(x, y)``, or None."""
    for color in (False, True):
        for kind in HAND_KINDS:
            left, top, right, bottom = hand_box(color, kind, size, flip)
            if left <= x < right and top <= y < bottom:
                return color, kind
    return None


def _is_far(color: bool, flip: bool) -> bool:
    """Whether ``color``'s side is the upper half of the picture (Black's, unless flipped)."""
    return color == flip
