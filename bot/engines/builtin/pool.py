"""Runs the built-in engine's searches in worker processes, so the bot's event loop never waits.

The pool is created on first use (1-2 workers, started with ``spawn`` so no thread or open
database of the bot is copied into them). A worker that dies (killed, or out of memory) breaks
the pool: it is rebuilt and the search asked again, once; a search that overruns its time is
abandoned and its worker killed.

Positions cross into the workers as ``EnginePosition`` values, which carry their variant. Each
worker keeps one search (and its transposition table) per variant, since one variant's entries
would mislead another's search; together they hold at most ``TT_LIMIT`` entries.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import SpawnContext, SpawnProcess

from ..base import Analysis, EngineError, EnginePosition, final_analysis, game_positions
from .search import TT_LIMIT, Limits, Searcher, SearchResult, mate_in

log = logging.getLogger(__name__)

WORKER_NICENESS = 5  # searches yield the CPU to the bot's own process when both want it
START_SECONDS = 30.0  # a new worker imports the engine; a busy machine may take a while


class SearchPool:
    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._contexts: dict[ProcessPoolExecutor, _WorkerContext] = {}  # an executor's, which knows its processes

    async def run(self, function, *args, timeout: float):
        """``function(*args)`` in a worker process; raises EngineError if it cannot finish."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                executor = await self._started()
            except BrokenProcessPool:  # a worker died while starting; _started discarded the pool
                log.warning("a search process died while starting (attempt %d)", attempt)
                continue
            try:
                return await asyncio.wait_for(loop.run_in_executor(executor, function, *args), timeout)
            except BrokenProcessPool:
                log.warning("a search process died; the pool is rebuilt (attempt %d)", attempt)
                self._discard(executor)
            except TimeoutError:
                log.warning("a search overran %.1f s; its process is stopped", timeout)
                self._discard(executor)
                raise EngineError(f"the search took longer than {timeout:.1f} s") from None
        raise EngineError("the search processes keep dying")

    def warm_up(self) -> None:
        """Starts the workers now, so the first move does not wait for them."""
        executor = self._ensure()
        for _ in range(self.workers):
            executor.submit(_ready)

    def pids(self) -> list[int]:
        """The process ids of the pool's live workers."""
        executor = self._executor
        if executor is None:
            return []
        return [p.pid for p in self._contexts[executor].processes if p.pid is not None and p.is_alive()]

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        """Stops the workers (after the search they are running, if any)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            del self._contexts[executor]
            executor.shutdown(wait=True, cancel_futures=True)

    async def _started(self) -> ProcessPoolExecutor:
        """The pool, its workers up: their start-up does not count against a search's time."""
        if self._executor is not None:
            return self._executor
        executor = self._ensure()
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(asyncio.gather(*(loop.run_in_executor(executor, _ready)
                                                    for _ in range(self.workers))), START_SECONDS)
        except TimeoutError:
            self._discard(executor)
            raise EngineError(f"the search process did not start in {START_SECONDS:.0f} s") from None
        except BrokenProcessPool:
            self._discard(executor)
            raise
        return executor

    def _ensure(self) -> ProcessPoolExecutor:
        if self._executor is None:
            context = _WorkerContext()
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=context,
                                                 initializer=_init_worker, initargs=(os.getpid(),))
            self._contexts[self._executor] = context
        return self._executor

    def _discard(self, executor: ProcessPoolExecutor) -> None:
        if self._executor is executor:
            self._executor = None
        context = self._contexts.pop(executor, None)  # None: discarded already, by a search beside this one
        # The executor has no public way to stop a running job: end its processes directly.
        for process in context.processes if context is not None else ():
            if process.is_alive():
                process.kill()
        # Queued searches are not cancelled: they fail as BrokenProcessPool, and their callers retry.
        executor.shutdown(wait=False)


class _WorkerContext(SpawnContext):
    """Starts processes with ``spawn``, as ``multiprocessing.get_context("spawn")`` does, and
    remembers them: the executor's own list of its workers is private."""

    def __init__(self) -> None:
        super().__init__()
        self.processes: list[SpawnProcess] = []

    def Process(self, *args, **kwargs) -> SpawnProcess:  # type: ignore[override]  # a factory, as the executor calls it
        process = SpawnProcess(*args, **kwargs)
        self.processes.append(process)
        return process


# --- inside the worker processes ------------------------------------------------------------

_searchers: dict[str, Searcher] = {}  # by variant


def _init_worker(parent: int) -> None:
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    # The bot's pid comes from the bot: a worker whose bot was killed while it started has
    # been handed to init already, and its own getppid() would watch init forever.
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="parent-watch").start()


def _exit_with(parent: int) -> None:
    """Ends the worker when the bot is gone (killed bots leave no searching orphans)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _ready() -> bool:
    return True


def _shared_searcher(variant: str) -> Searcher:
    """The worker's search for ``variant``: its table is kept from move to move, as a game goes on."""
    searcher = _searchers.get(variant)
    if searcher is None:
        searcher = _searchers[variant] = Searcher()
    if sum(len(other.tt) for other in _searchers.values()) > TT_LIMIT:
        for name, other in _searchers.items():
            if name != variant:
                other.tt.clear()  # the variant played now keeps its table
    return searcher


def think(position: EnginePosition, limits: Limits, all_root_scores: bool = False) -> SearchResult:
    """The search behind ``best_move`` and ``analyse``."""
    board = position.board()
    return _shared_searcher(board.variant).search(board, limits, all_root_scores=all_root_scores)


def analyse_positions(position: EnginePosition, seconds_per_position: float, depth: int) -> list[Analysis]:
    """An analysis of every position of the game (the review), one short search each."""
    searcher = _shared_searcher(position.variant)
    analyses = []
    for step in game_positions(position):
        board = step.board()
        final = final_analysis(board)
        if final is None:
            final = as_analysis(searcher.search(board, Limits(depth=depth, seconds=seconds_per_position)))
        analyses.append(final)
    return analyses


def as_analysis(result: SearchResult) -> Analysis:
    mate = mate_in(result.score)
    return Analysis(None if mate is not None else result.score, mate, result.pv, result.depth, result.nodes)
