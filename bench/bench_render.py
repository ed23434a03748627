"""Render time of an 800 px board with the last move highlighted: renderers vs python-chess.

The peer is what chess bots use today: ``chess.svg.board(...)`` rasterised by
``cairosvg.svg2png(...)`` (Western pieces). Ours is timed as a chat meets it: the picture after
each move of 20 games played side by side (seeded random moves), so the rows of squares a move
did not change come from the band cache and the others are compressed anew. The same table
times the same pictures drawn cold (the band cache emptied before each) and encoded whole by
Pillow (as before the bands). A last table shows why the PNG is a palette image.
Run: ``.venv/bin/python bench/bench_render.py``.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from makruk import Board as MakrukBoard
from renderers.bands import _band, board_png
from renderers.compose import Style, compose
from renderers.palette import png_bytes, to_palette
from renderers.scene import Scene, scene_of
from renderers.theme import get_theme
from renderers.tiles import compose_palette

MAKRUK_FEN = "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1"  # after e3e4 (encoding table)
MAKRUK_LAST = "e3e4"
CHESS_FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"  # after e2e4
CHESS_LAST = "e2e4"
SIZE = 800
PNG_LIMIT = 150_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="timed runs per renderer (median is shown)")
    args = parser.parse_args()

    moves = game_table()
    ours_ms, ours_bytes = moves["banded, rows a move left alone from the cache (as in a chat)"]
    peer = _peer()
    print(f"Board {SIZE} px with last-move highlight; ours per move of a game, the peer median of {args.runs} "
          "warm runs\n")
    print("| renderer | median ms | PNG bytes |")
    print("|---|---:|---:|")
    print(f"| renderers.render_board (Makruk), a move in a game | {ours_ms:.2f} | {ours_bytes:,.0f} |")
    if peer is None:
        print("| python-chess svg + cairosvg | not installed | |")
    else:
        peer_ms, peer_png = measure(peer, args.runs)
        print(f"| python-chess svg + cairosvg (chess) | {peer_ms:.2f} | {len(peer_png):,} |")
        print(f"\nspeed-up: {peer_ms / ours_ms:.1f}x (goal: at least 5x)")
    verdict = "ok" if ours_bytes <= PNG_LIMIT else "TOO BIG"
    print(f"PNG size: {ours_bytes:,.0f} bytes (limit {PNG_LIMIT:,}): {verdict}")
    print()
    encoding_table(args.runs)


def measure(render: Callable[[], bytes], runs: int) -> tuple[float, bytes]:
    """Median milliseconds of ``runs`` calls after three warm-up calls, and the last output."""
    for _ in range(3):
        output = render()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        output = render()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), output


def game_table(games: int = 20, plies: int = 40) -> dict[str, tuple[float, float]]:
    """The picture after every move of ``games`` seeded random games played side by side, drawn
    three ways; prints and returns each way's median ms and mean bytes per picture."""
    style = Style(SIZE, get_theme("wood"))
    rng = random.Random(2026)
    positions = []
    boards = [MakrukBoard() for _ in range(games)]
    for _ in range(plies):
        for board in boards:
            if board.is_game_over():
                continue
            move = rng.choice(board.legal_moves())
            board.push(move)
            positions.append((board.fen(), move.uci()))
    ways: dict[str, Callable[[Scene], bytes]] = {
        "banded, rows a move left alone from the cache (as in a chat)": lambda scene: board_png(scene, style),
        "banded, cold (the band cache emptied first)": lambda scene: _cold(scene, style),
        "the whole image encoded by Pillow (before the bands)": lambda scene: png_bytes(compose_palette(scene, style)),
    }
    result = {}
    print(f"Per move of {games} games played side by side ({len(positions)} pictures, {SIZE} px; the FEN read "
          "and the scene built included)\n")
    print("| drawn | median ms | mean bytes |")
    print("|---|---:|---:|")
    for name, draw in ways.items():
        _band.cache_clear()
        times, sizes = [], []
        for fen, last in positions:
            start = time.perf_counter()
            sizes.append(len(draw(scene_of(fen, last_move=last)[0])))
            times.append((time.perf_counter() - start) * 1000)
        result[name] = (statistics.median(times), statistics.mean(sizes))
        print(f"| {name} | {result[name][0]:.2f} | {result[name][1]:,.0f} |")
    print()
    return result


def _cold(scene: Scene, style: Style) -> bytes:
    _band.cache_clear()
    return board_png(scene, style)


def _peer() -> Callable[[], bytes] | None:
    try:
        import cairosvg
        import chess
        import chess.svg
    except ImportError:
        return None
    board = chess.Board(CHESS_FEN)
    last = chess.Move.from_uci(CHESS_LAST)

    def render() -> bytes:
        svg = chess.svg.board(board, size=SIZE, lastmove=last)
        return cairosvg.svg2png(bytestring=svg.encode(), output_width=SIZE, output_height=SIZE)

    return render


def encoding_table(runs: int) -> None:
    """PNG encoding alone, RGB against the theme's palette, at several zlib levels."""
    theme = get_theme("wood")
    scene, _ = scene_of(MakrukBoard(MAKRUK_FEN), last_move=MAKRUK_LAST)
    rgb = compose(scene, Style(SIZE, theme))
    palette = to_palette(rgb, theme)
    print("PNG encoding of the composed board (compose itself not included)\n")
    print("| image | compress_level | median ms | bytes |")
    print("|---|---:|---:|---:|")
    for name, image in (("RGB", rgb), ("palette (P)", palette)):
        for level in (1, 3, 6, 9):
            ms, data = measure(partial(_png, image, level), max(5, runs // 5))
            print(f"| {name} | {level} | {ms:.2f} | {len(data):,} |")
    ms, _ = measure(lambda: to_palette(rgb, theme).tobytes(), max(5, runs // 5))
    print(f"\nmapping RGB to the palette: {ms:.2f} ms")


def _png(image, level: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=level)
    return buffer.getvalue()


if __name__ == "__main__":
    main()
