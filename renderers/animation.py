"""Animated GIF replay of a game: one frame per ply, the last move tinted on each."""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image

from makruk import Board, IllegalMoveError, Move

from .compose import Style, compose
from .palette import to_palette
from .scene import Scene, check_coords, check_square, pieces_of
from .theme import DEFAULT_THEME, Theme, get_theme


def render_gif(
    start_fen: str | Board,
    uci_moves: Iterable[str | Move],
    *,
    size: int = 480,
    flip: bool = False,
    coords: str = "latin",
    theme: str | Theme = DEFAULT_THEME,
    frame_ms: int = 800,
    last_frame_ms: int = 3000,
) -> bytes:
    """A looping GIF: the start position, then one frame after each move.

    Every move is checked against the legal moves first; raises ``makruk.InvalidMoveError``
    for unreadable text and ``makruk.IllegalMoveError`` for an illegal move (both ValueError).
    """
    style = Style(size, get_theme(theme), check_coords(coords), bool(flip))
    board = Board(start_fen) if isinstance(start_fen, str) else start_fen.copy()
    scenes = [Scene(pieces_of(board), check_square(board))]
    for text in uci_moves:
        move = Move.from_uci(text.strip()) if isinstance(text, str) else text
        if move not in board.legal_moves():
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {board.fen()}")
        board.push(move)
        scenes.append(Scene(pieces_of(board), check_square(board), (move.from_square, move.to_square)))
    frames = _frames(scenes, style)
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,  # every frame already shares the theme palette: nothing to gain
    )
    return buffer.getvalue()


def _frames(scenes: list[Scene], style: Style) -> list[Image.Image]:
    """Palette frames; a position seen twice (repetitions) is drawn once."""
    drawn: dict[Scene, Image.Image] = {}
    frames = []
    for scene in scenes:
        if scene not in drawn:
            drawn[scene] = to_palette(compose(scene, style), style.theme)
        frames.append(drawn[scene])
    return frames
