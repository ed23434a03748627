"""The engine the bot plays with: each level to the engine that plays it, with fallbacks.

Levels 1-4 go to the built-in engine, 5-8 to Fairy-Stockfish. Without Fairy-Stockfish (not
installed, failed, or it answered a move our rules forbid) the built-in engine answers instead.
"""

from __future__ import annotations

import logging
import time

from makruk import Board, Move

from ..config import Settings
from .base import Analysis, EngineError, EnginePosition, final_analysis, game_positions
from .builtin import DRAW_THRESHOLD, BuiltinEngine, wants_count
from .levels import Level
from .levels import level as level_spec
from .uci import UciEngine, find_fairy_stockfish

log = logging.getLogger(__name__)

REVIEW_NODES_PER_SECOND = 200_000  # Fairy-Stockfish nodes a review may spend per second
REVIEW_NODES = (500, 15_000)  # per position, at least and at most


def make_engine(settings: Settings, *, workers: int = 2) -> LevelledEngine:
    """The bot's engine from its settings; says once in the log when Fairy-Stockfish is missing."""
    path = find_fairy_stockfish(settings.fairy_stockfish)
    if path is None:
        log.warning("Fairy-Stockfish not found (set FAIRY_STOCKFISH or install the fairy-stockfish "
                    "package): levels 5-8 play as the built-in engine's level 4")
    return LevelledEngine(BuiltinEngine(workers=workers), UciEngine(path) if path else None)


class LevelledEngine:
    def __init__(self, builtin: BuiltinEngine, fairy: UciEngine | None = None) -> None:
        self.builtin = builtin
        self.fairy = fairy
        self.name = "fairy-stockfish+builtin" if fairy is not None else "builtin"

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        spec = level_spec(level)
        if spec.engine == "fairy-stockfish" and self.fairy is not None:
            move = await self._fairy_move(self.fairy, position, spec)
            if move is not None:
                return move
        return await self.builtin.best_move(position, level=level)

    async def _fairy_move(self, fairy: UciEngine, position: EnginePosition, spec: Level) -> str | None:
        movetime = None if spec.nodes is not None else int(spec.seconds * 1000)
        try:
            result = await fairy.go(position, skill=spec.skill, nodes=spec.nodes, movetime=movetime)
        except EngineError as error:
            log.warning("Fairy-Stockfish failed (%s); the built-in engine answers", error)
            return None
        board = position.board()
        if result.bestmove is None or not _is_legal(board, result.bestmove):
            log.info("Fairy-Stockfish's move %s is not legal under our rules in %s; the built-in engine answers",
                     result.bestmove, board.fen())
            return None
        return result.bestmove

    async def analyse(self, position: EnginePosition, *, depth: int | None = None,
                      seconds: float | None = None) -> Analysis:
        if self.fairy is not None:
            try:
                movetime = int((seconds if seconds is not None else 1.0) * 1000) if depth is None else None
                result = await self.fairy.go(position, depth=depth, movetime=movetime)
            except EngineError as error:
                log.warning("Fairy-Stockfish failed (%s); the built-in engine analyses", error)
            else:
                checked = _checked(position.board(), result.analysis)
                if checked is not None:
                    return checked
        return await self.builtin.analyse(position, depth=depth, seconds=seconds)

    async def analyse_game(self, position: EnginePosition, *, seconds: float) -> list[Analysis]:
        fairy = self.fairy
        if fairy is None:
            return await self.builtin.analyse_game(position, seconds=seconds)
        steps = game_positions(position)
        nodes = int(seconds * REVIEW_NODES_PER_SECOND / len(steps))
        nodes = min(max(nodes, REVIEW_NODES[0]), REVIEW_NODES[1])
        started = time.monotonic()
        analyses = []
        for step in steps:
            board = step.board()
            analysis = final_analysis(board)
            if analysis is None:
                analysis = await self._review_step(fairy, step, board, nodes)
            analyses.append(analysis)
        log.debug("reviewed %d positions in %.2f s", len(steps), time.monotonic() - started)
        return analyses

    async def _review_step(self, fairy: UciEngine, step: EnginePosition, board: Board, nodes: int) -> Analysis:
        try:
            result = await fairy.go(step, nodes=nodes)
        except EngineError as error:
            log.warning("Fairy-Stockfish failed during a review (%s)", error)
        else:
            checked = _checked(board, result.analysis)
            if checked is not None:
                return checked
        return await self.builtin.analyse(step, depth=3, seconds=0.2)

    async def wants_count(self, position: EnginePosition) -> bool:
        return wants_count(position.board())

    async def accepts_draw(self, position: EnginePosition, *, level: int) -> bool:
        try:
            analysis = await self.analyse(position, seconds=0.3)
        except EngineError:
            return False  # the game goes on; the person may offer again
        return analysis.value() <= DRAW_THRESHOLD

    def warm_up(self) -> None:
        self.builtin.warm_up()

    async def aclose(self) -> None:
        await self.builtin.aclose()
        if self.fairy is not None:
            await self.fairy.aclose()


def _is_legal(board: Board, uci: str) -> bool:
    try:
        return Move.from_uci(uci) in board.legal_moves()
    except ValueError:
        return False


def _checked(board: Board, analysis: Analysis) -> Analysis | None:
    """The analysis with its line cut where our rules part from Fairy-Stockfish's; None if its
    first move is not legal here."""
    legal_line = []
    board = board.copy()
    for uci in analysis.pv:
        if board.outcome() is not None or not _is_legal(board, uci):
            break
        board.push(Move.from_uci(uci))
        legal_line.append(uci)
    if not legal_line:
        return None
    return Analysis(analysis.score_cp, analysis.mate, tuple(legal_line), analysis.depth, analysis.nodes)
