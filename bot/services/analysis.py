"""Hints and reviews: the engine's view of a game, told with an arrow, a graph and words.

``hint`` suggests a move for the person to play (an arrow on the board, the move named in
the channel's notation). ``review`` analyses a finished game: a graph of the evaluation per
ply (White's advantage up) and the biggest mistakes with the move that was better.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from makruk import Board, CountEvent, Move
from storage.records import Game

from ..engines.base import MATE_VALUE, Analysis, Engine, EngineError, EnginePosition
from ..messages import BoardView, Reply
from .notation import move_text
from .presenter import Presenter

log = logging.getLogger(__name__)

HINT_SECONDS = 1.0
REVIEW_SECONDS = 4.0  # the whole game's analysis
MISTAKES_SHOWN = 3
LINE_SHOWN = 6  # moves of the best line named in an analysis...
ARROWS_SHOWN = 3  # ...and drawn as arrows
MISTAKE_THRESHOLD = 0.08  # a move that loses at least this much winning chance
GRAPH_CLAMP = 1000  # centipawns; mates are drawn at the edge


async def hint(engine: Engine, present: Presenter, language: str, board: Board, position: EnginePosition,
               shown: Reply) -> Reply:
    """The suggested move for the side to move as an arrow over ``shown`` (the board reply);
    the returned reply has no image yet: its board view now carries the arrow."""
    try:
        analysis = await engine.analyse(position, seconds=HINT_SECONDS)
    except EngineError as error:
        log.warning("no hint: %s", error)
        return present.error(language, "engine_failed", private=False)
    if analysis.best is None:
        return present.error(language, "engine_failed", private=False)
    move = Move.from_uci(analysis.best)
    text = present.t(language, "hint.move", move=move_text(language, board, move),
                     score=_judgement(present, language, analysis))
    if shown.board is None:
        return replace(shown, kind="hint", text=text + "\n" + shown.text)
    view = replace(shown.board, arrows=(analysis.best,))
    # The service draws the image again, now with the arrow.
    return replace(shown, kind="hint", text=text + "\n" + shown.text, image=None, board=view)


async def review(engine: Engine, present: Presenter, language: str, game: Game, names: dict[str, str], *,
                 notation: str | None = None) -> Reply:
    """The finished ``game`` analysed: an evaluation graph and its biggest mistakes."""
    position = EnginePosition(game.start_fen, tuple(m.uci for m in game.moves),
                              tuple(CountEvent.load_all(game.counting)), game.promotion, game.perpetual,
                              variant=game.variant)
    return await review_position(engine, present, language, position, names, game.result or "*",
                                 notation=notation)


async def review_position(engine: Engine, present: Presenter, language: str, position: EnginePosition,
                          names: dict[str, str], result: str, *, notation: str | None = None) -> Reply:
    """A game's moves analysed (a finished game of the chat's, or one pasted): the same review."""
    try:
        analyses = await engine.analyse_game(position, seconds=REVIEW_SECONDS)
    except EngineError as error:
        log.warning("no review: %s", error)
        return present.error(language, "engine_failed", private=False)
    plies = review_plies(position, analyses)
    mistakes = biggest_mistakes(plies)
    lines = [present.t(language, "review.title", white=names["w"], black=names["b"], result=result)]
    if mistakes:
        lines.append(present.t(language, "review.mistakes"))
        for m in mistakes:
            assert m.best is not None  # a mistake is a move where the engine knew a better one
            lines.append(present.t(
                language, "review.mistake", number=m.number,
                move=move_text(language, m.board, Move.from_uci(m.played), notation),
                before=format_score(m.before_white), after=format_score(m.after_white),
                best=move_text(language, m.board, Move.from_uci(m.best), notation),
            ))
    else:
        lines.append(present.t(language, "review.no_mistakes"))
    values = [*(p.before_white for p in plies), plies[-1].after_white] if plies else [0]
    image = await asyncio.to_thread(draw_graph, values, [p.index for p in mistakes])
    return Reply(kind="review", text="\n".join(lines), language=language, image=image)


async def analyse(engine: Engine, present: Presenter, language: str, board: Board, position: EnginePosition,
                  view: BoardView, *, notation: str | None = None) -> Reply:
    """Any position (``analyse FEN``, or where a pasted game ended): the engine's evaluation and
    its best line, the line's first moves drawn as arrows on ``view``."""
    try:
        analysis = await engine.analyse(position, seconds=HINT_SECONDS)
    except EngineError as error:
        log.warning("no analysis: %s", error)
        return present.error(language, "engine_failed", private=False)
    line, shown = [], board.copy()
    for uci in analysis.pv[:LINE_SHOWN]:
        move = Move.from_uci(uci)
        if move not in shown.legal_moves():
            break
        line.append(move_text(language, shown, move, notation))
        shown.push(move)
    score = format_score(analysis.white_cp(board.turn))
    text = present.t(language, "analyse.result", score=score, line=" ".join(line) or "-")
    arrows = tuple(uci for uci in analysis.pv[:ARROWS_SHOWN] if "@" not in uci)[:len(line)]
    return Reply(kind="analysis", text=text, language=language, board=replace(view, arrows=arrows))


# --- what the analyses say -------------------------------------------------------------------

@dataclass(frozen=True)
class PlyReview:
    """One move of a game with the engine's values before and after it (White's side)."""

    index: int  # 0 for the first move
    number: str  # "12." or "12..."
    board: Board  # the position before the move
    played: str
    best: str | None
    before_white: int
    after_white: int
    loss: float  # winning chance the mover gave away (0 to 1)


def review_plies(position: EnginePosition, analyses: list[Analysis]) -> list[PlyReview]:
    """Each move with the values around it; ``analyses[i]`` is the position after ``i`` moves."""
    board = Board(position.start_fen, variant=position.variant, promotion=position.promotion,
                  perpetual=position.perpetual)
    events: dict[int, list[str]] = {}
    for event in position.events:
        events.setdefault(event.ply, []).append(event.kind)
    plies = []
    for i, uci in enumerate(position.moves):
        _apply(board, events.get(i, ()))
        white = board.turn
        before = analyses[i].white_cp(white)
        after = analyses[i + 1].white_cp(not white)
        mover_before = before if white else -before
        mover_after = after if white else -after
        number = f"{board.fullmove_number}." if white else f"{board.fullmove_number}..."
        plies.append(PlyReview(i, number, board.copy(), uci, analyses[i].best, before, after,
                               max(0.0, win_chance(mover_before) - win_chance(mover_after))))
        board.push(Move.from_uci(uci))
    return plies


def biggest_mistakes(plies: list[PlyReview], count: int = MISTAKES_SHOWN) -> list[PlyReview]:
    """The moves that gave away the most, biggest first, where the engine knew a better one."""
    candidates = [p for p in plies if p.loss >= MISTAKE_THRESHOLD and p.best and p.best != p.played]
    return sorted(candidates, key=lambda p: p.loss, reverse=True)[:count]


def win_chance(cp: int) -> float:
    """The usual logistic link between an advantage and the chance to win."""
    return 1 / (1 + 10 ** (-max(-GRAPH_CLAMP * 4, min(GRAPH_CLAMP * 4, cp)) / 400))


def format_score(cp: int) -> str:
    """White's advantage in Bia (``+1.25``) or a mate (``#3``, ``#-3``).

    >>> format_score(125), format_score(-40), format_score(99997), format_score(-99998)
    ('+1.25', '-0.40', '#3', '#-2')
    """
    if abs(cp) > MATE_VALUE - 1000:
        moves = MATE_VALUE - abs(cp)
        return f"#{moves}" if cp > 0 else f"#-{moves}"
    return f"{cp / 100:+.2f}"


def _judgement(present: Presenter, language: str, analysis: Analysis) -> str:
    if analysis.mate is not None and analysis.mate > 0:
        return present.t(language, "engine.score.mate", moves=analysis.mate)
    if analysis.mate is not None:
        return present.t(language, "engine.score.mated", moves=-analysis.mate)
    return present.t(language, "engine.score.cp", score=f"{(analysis.score_cp or 0) / 100:+.2f}")


def _apply(board: Board, kinds: Iterable[str]) -> None:
    for kind in kinds:
        if kind == "count":
            board.declare_count()
        else:
            board.stop_count()


# --- the graph -------------------------------------------------------------------------------

GRAPH_SIZE = (800, 300)
_SCALE = 2  # drawn at twice the size, then reduced: smooth lines
_COLOURS = {
    "black_side": (52, 56, 64),
    "white_side": (243, 239, 230),
    "frame": (250, 250, 248),
    "zero": (150, 150, 150),
    "line": (201, 162, 39),
    "mistake": (214, 69, 69),
    "text": (90, 90, 90),
}


def draw_graph(values: list[int], marks: Sequence[int] = (), *, size: tuple[int, int] = GRAPH_SIZE) -> bytes:
    """A PNG area chart of White's advantage per position (``values[i]`` after ``i`` plies).

    The light area below the curve is White's share of the winning chances; ``marks`` are the
    indexes of moves to circle (the position after the move is marked).
    """
    from PIL import Image, ImageDraw, ImageFont

    width, height = size[0] * _SCALE, size[1] * _SCALE
    left, right, top, bottom = 16 * _SCALE, 16 * _SCALE, 12 * _SCALE, 28 * _SCALE
    image = Image.new("RGB", (width, height), _COLOURS["frame"])
    draw = ImageDraw.Draw(image)
    plot_w, plot_h = width - left - right, height - top - bottom
    draw.rectangle([left, top, left + plot_w, top + plot_h], fill=_COLOURS["black_side"])
    n = max(len(values) - 1, 1)

    def point(i: int, cp: int) -> tuple[float, float]:
        share = 2 * win_chance(max(-GRAPH_CLAMP, min(GRAPH_CLAMP, cp))) - 1  # -1 .. 1, gentle near 0
        share = max(-1.0, min(1.0, share / (2 * win_chance(GRAPH_CLAMP) - 1)))
        return left + plot_w * i / n, top + plot_h * (1 - share) / 2

    points = [point(i, v) for i, v in enumerate(values)]
    if len(points) == 1:
        points.append((left + plot_w, points[0][1]))
    draw.polygon([(left, top + plot_h), *points, (points[-1][0], top + plot_h)], fill=_COLOURS["white_side"])
    zero = top + plot_h / 2
    for x in range(left, left + plot_w, 12 * _SCALE):
        draw.line([(x, zero), (min(x + 6 * _SCALE, left + plot_w), zero)], fill=_COLOURS["zero"], width=_SCALE)
    draw.line(points, fill=_COLOURS["line"], width=3 * _SCALE, joint="curve")
    radius = 5 * _SCALE
    for index in marks:
        if 0 <= index + 1 < len(values):
            cx, cy = point(index + 1, values[index + 1])
            draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], outline=_COLOURS["mistake"],
                         width=2 * _SCALE, fill=_COLOURS["mistake"])
    try:
        font = ImageFont.load_default(size=11 * _SCALE)
    except TypeError:  # Pillow without FreeType sizes
        font = ImageFont.load_default()
    moves = math.ceil(n / 2)
    step = max(5, math.ceil(moves / 10 / 5) * 5)
    for move in range(0, moves + 1, step):
        tick = left + plot_w * min(2 * move, n) / n
        draw.line([(tick, top + plot_h), (tick, top + plot_h + 4 * _SCALE)], fill=_COLOURS["text"], width=_SCALE)
        if move:
            draw.text((tick, top + plot_h + 6 * _SCALE), str(move), fill=_COLOURS["text"], font=font, anchor="mt")
    image = image.resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
