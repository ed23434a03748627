"""The engine the bot plays with: each level to the engine that plays it, with fallbacks.

Levels 1-4 go to the built-in engine, 5-8 to Fairy-Stockfish. The bot always answers a position
that has a legal move: Fairy-Stockfish is asked twice (restarted if it died; the second time
among our legal moves only if it broke our rules), then the built-in engine answers (its worker
pool rebuilt if its process died, else a quick search here), and as a last resort the rules core
chooses. Each fallback is logged as a warning with its reason. Whether to count or to accept a
draw: a failure means no. Hints may fail (EngineError) after a second try.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from makruk import Board, Move

from ..config import Settings
from ..observability.metrics import METRICS, Metrics
from .base import Analysis, EngineError, EnginePosition, final_analysis, game_positions, rules_move
from .builtin import DRAW_THRESHOLD, BuiltinEngine, wants_count
from .levels import level as level_spec
from .uci import UciEngine, UciResult, find_fairy_stockfish

log = logging.getLogger(__name__)

T = TypeVar("T")

REVIEW_NODES_PER_SECOND = 200_000  # Fairy-Stockfish nodes a review may spend per second
REVIEW_NODES = (500, 15_000)  # per position, at least and at most


def make_engine(settings: Settings, *, workers: int = 2, metrics: Metrics = METRICS) -> LevelledEngine:
    """The bot's engine from its settings; says once in the log when Fairy-Stockfish is missing."""
    path = find_fairy_stockfish(settings.fairy_stockfish)
    if path is None:
        log.warning("Fairy-Stockfish not found (set FAIRY_STOCKFISH or install the fairy-stockfish "
                    "package): levels 5-8 play as the built-in engine's level 4")
    return LevelledEngine(BuiltinEngine(workers=workers), UciEngine(path) if path else None, metrics=metrics)


class LevelledEngine:
    def __init__(self, builtin: BuiltinEngine, fairy: UciEngine | None = None, *,
                 metrics: Metrics = METRICS) -> None:
        self.builtin = builtin
        self.fairy = fairy
        self.metrics = metrics
        self.name = "fairy-stockfish+builtin" if fairy is not None else "builtin"

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        """The move at ``level``, whatever fails; raises EngineError only when the game is over."""
        started = time.perf_counter()
        move = await self._best_move(position, level)
        self.metrics.engine_moved(level, time.perf_counter() - started)
        return move

    async def _best_move(self, position: EnginePosition, level: int) -> str:
        board = position.board()
        if not board.legal_moves():
            raise EngineError(f"no legal move in {board.fen()}: the game is over")
        spec = level_spec(level)
        if spec.engine == "fairy-stockfish" and self.fairy is not None:
            movetime = None if spec.nodes is not None else int(spec.seconds * 1000)
            if position.seconds is not None:  # a live game: never longer than its clock allows
                movetime = min(movetime or int(spec.seconds * 1000), max(1, int(position.seconds * 1000)))
            move = await self._ask_fairy(
                self.fairy, position, board, lambda result: _legal_bestmove(board, result),
                "the built-in engine answers", skill=spec.skill, nodes=spec.nodes, movetime=movetime)
            if move is not None:
                return move
            self.metrics.engine_fell_back("builtin")
        try:
            return await self.builtin.best_move(position, level=level)
        except Exception as error:  # it answers by itself whatever its pool does: this is the last net
            log.warning("the built-in engine failed (%s); a move chosen by the rules alone", error)
            self.metrics.engine_fell_back("rules")
            return rules_move(board)

    async def analyse(self, position: EnginePosition, *, depth: int | None = None,
                      seconds: float | None = None) -> Analysis:
        """Fairy-Stockfish's analysis if it gives one by our rules in two tries, else the built-in
        engine's (tried twice); EngineError when that fails too."""
        board = position.board()
        if self.fairy is not None:
            movetime = int((seconds if seconds is not None else 1.0) * 1000) if depth is None else None
            checked = await self._ask_fairy(
                self.fairy, position, board, lambda result: _checked(board, result.analysis),
                "the built-in engine analyses", depth=depth, movetime=movetime)
            if checked is not None:
                return checked
        try:
            return await self.builtin.analyse(position, depth=depth, seconds=seconds)
        except EngineError as error:
            log.warning("the built-in engine's analysis failed (%s); asking it once more", error)
        return await self.builtin.analyse(position, depth=depth, seconds=seconds)

    async def _ask_fairy(self, fairy: UciEngine, position: EnginePosition, board: Board,
                         accept: Callable[[UciResult], T | None], fallback: str, *, skill: int = 20,
                         nodes: int | None = None, movetime: int | None = None, depth: int | None = None,
                         ) -> T | None:
        """What ``accept`` takes from Fairy-Stockfish's answer, in two tries (a dead engine is
        restarted by the client; after an answer our rules forbid, the second try searches only
        our legal moves); None when both fail, each failure logged with its reason."""
        searchmoves: tuple[str, ...] = ()
        for attempt in (1, 2):
            try:
                result = await fairy.go(position, skill=skill, nodes=nodes, movetime=movetime, depth=depth,
                                        searchmoves=searchmoves)
            except Exception as error:  # EngineError; anything else is as much a failure to answer
                reason = f"failed ({error})"
            else:
                answer = accept(result)
                if answer is not None:
                    return answer
                reason = f"answered {result.bestmove}, not legal under our rules in {board.fen()}"
                searchmoves = tuple(sorted(move.uci() for move in board.legal_moves()))
            log.warning("Fairy-Stockfish %s; %s", reason, "asking it once more" if attempt == 1 else fallback)
        return None

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
        try:
            return wants_count(position.board())
        except Exception as error:
            log.warning("deciding on the count failed (%s); the bot does not count", error)
            return False

    async def accepts_draw(self, position: EnginePosition, *, level: int) -> bool:
        try:
            analysis = await self.analyse(position, seconds=0.3)
        except Exception as error:  # the game goes on; the person may offer again
            log.warning("judging a draw offer failed (%s); the bot declines", error)
            return False
        return analysis.value() <= DRAW_THRESHOLD

    def warm_up(self) -> None:
        self.builtin.warm_up()

    async def aclose(self) -> None:
        await self.builtin.aclose()
        if self.fairy is not None:
            await self.fairy.aclose()


def _legal_bestmove(board: Board, result: UciResult) -> str | None:
    return result.bestmove if result.bestmove is not None and _is_legal(board, result.bestmove) else None


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
