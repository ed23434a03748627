"""The built-in engine: pure Python on the rules core, searching in a worker process.

It plays levels 1-4 itself and stands in for Fairy-Stockfish when that is missing or fails.
Its ``best_move`` answers whatever fails: the worker's search (the pool is rebuilt once if its
process died), else a tiny search in the bot's own process, else a move chosen by the rules alone.
"""

from __future__ import annotations

import logging
import random

from makruk import Board, Move

from ..base import Analysis, EngineError, EnginePosition, rules_move
from ..levels import builtin_level
from .evaluation import static_eval
from .pool import SearchPool, analyse_positions, as_analysis, think
from .search import Limits, Searcher, SearchResult, pick_near_best

log = logging.getLogger(__name__)

OVERHEAD_SECONDS = 1.5  # beyond its budget, a search is abandoned (worker start, pickling, a slow machine)
BOARD_HONOUR_THRESHOLD = -100  # declares the board's honour count when at least this far behind
DRAW_THRESHOLD = -150  # accepts a draw when at least this far behind
EMERGENCY_NODES = 1_500  # when the worker fails: a search this small blocks the loop ~50 ms


class BuiltinEngine:
    """Levels 1-4 (5-8 play as 4). ``time_scale`` shortens every thinking time (tests, benchmarks)."""

    name = "builtin"

    def __init__(self, *, workers: int = 1, seed: int | None = None, time_scale: float = 1.0) -> None:
        self.pool = SearchPool(workers)
        self.time_scale = time_scale
        self._random = random.Random(seed)

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        """The move at ``level``; raises only when the game is over (no legal move)."""
        board = position.board()
        legal = board.legal_moves()
        if not legal:
            raise EngineError(f"no legal move in {board.fen()}: the game is over")
        spec = builtin_level(level)
        seconds = spec.seconds * self.time_scale
        if position.seconds is not None:  # a live game: never longer than its clock allows
            seconds = min(seconds, position.seconds)
        try:
            result = await self.think(position, depth=spec.depth, seconds=seconds,
                                      all_root_scores=spec.spread > 0)
        except Exception as error:  # EngineError, or the search's own bug raised in the worker
            log.warning("the search failed (%s); a quick move from this process instead", error)
            return quick_move(board)
        move = pick_near_best(result, spec.spread, self._random)
        if not _is_legal(move, legal):
            log.warning("the search answered %r, not legal in %s; a quick move from this process instead",
                        move, board.fen())
            return quick_move(board)
        return move

    async def think(self, position: EnginePosition, *, depth: int | None = None, seconds: float | None = None,
                    nodes: int | None = None, all_root_scores: bool = False) -> SearchResult:
        """A search in the pool; without any limit it stops after one second."""
        if depth is None and seconds is None and nodes is None:
            seconds = 1.0
        limits = Limits(depth=depth or Limits.depth, seconds=seconds, nodes=nodes)
        timeout = (seconds or 10.0) + OVERHEAD_SECONDS if nodes is None else 60.0
        return await self.pool.run(think, position, limits, all_root_scores, timeout=timeout)

    async def analyse(self, position: EnginePosition, *, depth: int | None = None,
                      seconds: float | None = None) -> Analysis:
        return as_analysis(await self.think(position, depth=depth, seconds=seconds))

    async def analyse_game(self, position: EnginePosition, *, seconds: float, depth: int = 4) -> list[Analysis]:
        per_position = seconds / (len(position.moves) + 1)
        return await self.pool.run(analyse_positions, position, per_position, depth,
                                   timeout=seconds * 1.5 + OVERHEAD_SECONDS)

    async def wants_count(self, position: EnginePosition) -> bool:
        return wants_count(position.board())

    async def accepts_draw(self, position: EnginePosition, *, level: int) -> bool:
        try:
            analysis = await self.analyse(position, seconds=0.3 * self.time_scale)
        except EngineError:
            return False
        return analysis.value() <= DRAW_THRESHOLD

    def warm_up(self) -> None:
        self.pool.warm_up()

    async def aclose(self) -> None:
        await self.pool.aclose()


def quick_move(board: Board) -> str:
    """A move found without the worker: a tiny search here, else one chosen by the rules alone."""
    try:
        move = Searcher().search(board.copy(), Limits(depth=2, nodes=EMERGENCY_NODES)).move
    except Exception as error:
        log.warning("the quick search failed (%s); a move chosen by the rules alone", error)
        return rules_move(board)
    if not _is_legal(move, board.legal_moves()):
        log.warning("the quick search answered %r, not legal in %s; a move chosen by the rules alone",
                    move, board.fen())
        return rules_move(board)
    return move


def _is_legal(uci: str | None, legal: list[Move]) -> bool:
    try:
        return uci is not None and Move.from_uci(uci) in legal
    except ValueError:
        return False


def wants_count(board: Board) -> bool:
    """Declares when bare (the pieces' honour), or when clearly behind (the board's honour); never
    in ASEAN and Sittuyin, whose count starts by itself (``can_declare_count`` is None there)."""
    kind = board.can_declare_count()
    if kind == "pieces":
        return True
    return kind == "board" and static_eval(board) <= BOARD_HONOUR_THRESHOLD


__all__ = ["BuiltinEngine", "quick_move", "wants_count"]
