"""Board colour themes. Piece colours are not themed: players learn one set of pieces."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RenderError

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    """Colours of the board, frame, marks and captions."""

    name: str
    light: RGB  # squares; equal to ``dark`` for the traditional unchequered board
    dark: RGB
    grid: RGB | None  # lines between squares, as on a real Makruk board; None for none
    frame: RGB
    frame_edge: RGB  # thin line between the frame and the squares
    label: RGB  # coordinates on the frame
    last_move: RGBA  # tint over the two squares of the last move
    selected: RGBA  # tint over the square the player picked up
    target: RGBA  # dots on squares the picked piece may go to
    check: RGB  # glow under a Khun in check
    arrow: RGBA  # hint arrows
    caption_bg: RGB
    caption_text: RGB


THEMES: dict[str, Theme] = {
    theme.name: theme
    for theme in (
        # A teak board with carved lines and no chequering, like the sets sold in Thailand.
        Theme(
            name="wood",
            light=(222, 178, 112),
            dark=(222, 178, 112),
            grid=(92, 56, 24),
            frame=(84, 50, 24),
            frame_edge=(52, 30, 12),
            label=(246, 226, 186),
            last_move=(255, 236, 64, 120),
            selected=(40, 140, 255, 110),
            target=(40, 24, 8, 110),
            check=(230, 20, 20),
            arrow=(0, 120, 60, 190),
            caption_bg=(250, 243, 228),
            caption_text=(40, 26, 14),
        ),
        # Chequered green for players coming from chess sites.
        Theme(
            name="green",
            light=(238, 238, 210),
            dark=(118, 150, 86),
            grid=None,
            frame=(48, 46, 43),
            frame_edge=(30, 29, 27),
            label=(232, 232, 220),
            last_move=(255, 240, 30, 110),
            selected=(20, 110, 255, 100),
            target=(20, 30, 10, 100),
            check=(235, 25, 25),
            arrow=(230, 110, 0, 190),
            caption_bg=(248, 248, 244),
            caption_text=(30, 30, 30),
        ),
        # Cool blue-grey chequers: calm, and the warm highlights stand out for every eye.
        Theme(
            name="slate",
            light=(222, 227, 232),
            dark=(140, 162, 180),
            grid=None,
            frame=(44, 56, 68),
            frame_edge=(26, 34, 42),
            label=(226, 234, 240),
            last_move=(255, 200, 40, 130),
            selected=(255, 110, 0, 100),
            target=(10, 20, 30, 100),
            check=(225, 30, 30),
            arrow=(200, 60, 0, 190),
            caption_bg=(246, 248, 250),
            caption_text=(24, 32, 40),
        ),
    )
}

DEFAULT_THEME = "wood"


def get_theme(theme: str | Theme) -> Theme:
    """The theme of that name (or the Theme itself); raises RenderError for unknown names."""
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except (KeyError, TypeError):
        names = ", ".join(sorted(THEMES))
        raise RenderError(f"unknown theme {theme!r}; choose one of {names}") from None
