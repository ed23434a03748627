"""``makruk-bot puzzles generate``: new puzzles for the family from self-play, accepted and
proved before kept.

1. Candidates from Fairy-Stockfish's self-play at mixed levels (``selfplay.candidates``).
2. The acceptance (``engine_check.EngineCheck.build``): only moves at every solver move at two
   node budgets, the defender's best replies, a mate or a settled gain of two Bia.
3. The project's own rules replay the line and prove it (``verify.verify_puzzle``).

Steps 2 and 3, and keeping what passes, are the shelf's (``shelf.Shelf``), shared with mining
real games (``mine``). Resumable and incremental: after every game the state file keeps the
run's seed, each variant's game counter, its CPU time and what was kept and refused. A run
stopped at any time continues where it stopped; a game cut short is played again from its own
seed and its puzzles already kept are skipped.

``workers`` runs (processes) fill the same banks at once, one a core, each with its own state
file and seed (``worker_state``); the shelf keeps their targets and shares together.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..engines import SyncUciEngine
from .bank import BANK_PATH
from .selfplay import PlaySettings, candidates
from .shelf import DEFAULT_ENGINE, TARGETS, Shelf, load_state

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GenerateSettings:
    """What shapes a run; kept in the state file and each run's header line."""

    targets: dict = field(default_factory=lambda: dict(TARGETS))
    seed: int = 0
    threads: int = 1
    hash_mb: int = 16
    play: PlaySettings = field(default_factory=PlaySettings)


def generate(settings: GenerateSettings, *, directory: Path = BANK_PATH.parent, state_path: Path | None = None,
             engine_path: str = DEFAULT_ENGINE, max_seconds: float | None = None,
             max_games: int | None = None, stop: Callable[[], bool] = lambda: False) -> dict:
    """Plays games of the variants still short of their target, in turn, until every target
    is met, a limit is reached or ``stop()`` says so; returns the state (also kept in
    ``state_path``)."""
    state_path = state_path or directory / "generate-state.json"
    state = load_state(state_path, seed=settings.seed)
    started = time.monotonic()
    games = 0
    with SyncUciEngine(engine_path, options={"Threads": settings.threads, "Hash": settings.hash_mb}) as engine:
        engine.start()
        shelf = Shelf(directory, settings.targets, state, engine, {"seed": state["seed"]})
        while True:
            short = shelf.short()
            if not short or (max_games is not None and games >= max_games) or stop():
                break
            if max_seconds is not None and time.monotonic() - started > max_seconds:
                break
            # Games go to the variants in proportion to the puzzles each still needs.
            variant = min(short, key=lambda v: (state["games"].get(v, 0) + 1) / (settings.targets[v] - shelf.have[v]))
            counter = state["games"].get(variant, 0)
            rng = random.Random(_game_seed(state["seed"], variant, counter))
            shelf.play(variant, candidates(engine, variant, rng, settings.play, races=shelf.racing(variant)),
                       state_path)
            games += 1
            log.info("%s game %d done: bank %s of %s", variant, counter + 1, shelf.have, settings.targets)
    return state


def _game_seed(seed: int, variant: str, counter: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/{variant}/{counter}".encode()).digest()[:8], "big")


def generate_in_parallel(settings: GenerateSettings, workers: int, *, directory: Path = BANK_PATH.parent,
                         state_path: Path | None = None, **limits: Any) -> list[dict]:
    """``generate`` in ``workers`` processes sharing the banks; returns their states, worker 0's
    (in ``state_path``) first. Each worker's limits are ``limits``' (``max_seconds``,
    ``max_games``, ``engine_path``); a worker whose parent is gone stops after its game."""
    state_path = state_path or directory / "generate-state.json"
    jobs = [(replace(settings, seed=worker_seed(settings.seed, k)), directory, worker_state(state_path, k), limits,
             os.getpid()) for k in range(workers)]
    # Spawned, not forked: the caller may hold threads (the CLI runs under asyncio). A worker
    # that dies raises BrokenProcessPool here rather than leaving the others waited for.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(_work, jobs))


def worker_state(state_path: Path, worker: int) -> Path:
    """Worker 0's state file is ``state_path``; worker k's has ``-{k+1}`` before its suffix."""
    return state_path if worker == 0 else state_path.with_name(f"{state_path.stem}-{worker + 1}{state_path.suffix}")


def worker_seed(seed: int, worker: int) -> int:
    """Worker 0 plays ``seed``'s games, the others seeds drawn from it (not ``seed + k``, which
    another run's ``--seed`` could be)."""
    return seed if worker == 0 else _game_seed(seed, "worker", worker) % 2**31


def _work(job: tuple[GenerateSettings, Path, Path, dict[str, Any], int]) -> dict:
    settings, directory, state_path, limits, parent = job
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(processName)s %(levelname)s %(message)s")
    state = generate(settings, directory=directory, state_path=state_path, stop=lambda: os.getppid() != parent,
                     **limits)
    if os.getppid() != parent:
        # Nobody to report to, and the pool's queues would keep this process waiting for work
        # forever: its state is saved and its engine closed, so it simply ends.
        os._exit(0)
    return state
