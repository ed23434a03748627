"""Animated GIF replay of a game: one frame per ply, the last move tinted on each."""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import replace

from PIL import Image

from makruk import Board, IllegalMoveError, Move

from .compose import Style, compose
from .palette import to_palette
from .scene import Scene, check_coords, position_scene, read_board
from .theme import DEFAULT_THEME, Theme, get_theme


def render_gif(
    start_fen: str | Board,
    uci_moves: Iterable[str | Move],
    *,
    variant: str | None = None,
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
    A FEN is read as ``variant`` (None: Makruk), a Board as its own.
    """
    style = Style(size, get_theme(theme), check_coords(coords), bool(flip))
    board = read_board(start_fen, variant).copy()
    scenes = [position_scene(board)]
    for text in uci_moves:
        move = Move.from_uci(text.strip()) if isinstance(text, str) else text
        if move not in board.legal_moves():
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {board.fen()}")
        board.push(move)
        scenes.append(replace(position_scene(board), last_move=(move.from_square, move.to_square)))
    if any(scene.hands is not None for scene in scenes):  # every frame of a GIF has one size
        scenes = [scene if scene.hands is not None else replace(scene, hands=((), ())) for scene in scenes]
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
