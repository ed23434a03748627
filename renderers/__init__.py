"""Makruk board images drawn with Pillow: PNG boards, previews, puzzle cards and GIF replays,
for every variant of ``makruk.VARIANTS``.

>>> png = render_board("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", size=240)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> square_at(*square_box(0, 800)[:2], 800)  # a1's top-left pixel belongs to a1
0
"""

from .animation import render_gif
from .board import render_board, render_preview
from .caption import render_puzzle_card
from .errors import RenderError
from .geometry import hand_at, hand_box, hand_width, layout, size_for_width, square_at, square_box, square_center
from .theme import THEMES, Theme

__all__ = [
    "THEMES",
    "RenderError",
    "Theme",
    "hand_at",
    "hand_box",
    "hand_width",
    "layout",
    "render_board",
    "render_gif",
    "render_preview",
    "render_puzzle_card",
    "size_for_width",
    "square_at",
    "square_box",
    "square_center",
]
