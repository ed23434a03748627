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
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

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
