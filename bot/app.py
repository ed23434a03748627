"""Wiring: settings -> storage -> engine -> game and puzzle services, shared by every adapter."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from storage import Storage, wait_for_storage

from .clock import Clock, SystemClock
from .config import Settings
from .engines import Engine, make_engine
from .messages import Platform
from .observability import logs
from .observability.metrics import METRICS, Metrics
from .puzzles.bank import BANK_PATH, load_family
from .scheduler import Job
from .services.claims import Claims
from .services.games import GameService
from .services.outbox import Outbox, Send
from .services.presenter import Render
from .services.puzzles import PuzzleService, weekday_bands
from .services.tournaments.service import TournamentService

log = logging.getLogger(__name__)


@dataclass
class App:
    settings: Settings
    storage: Storage
    games: GameService
    puzzles: PuzzleService | None = None
    metrics: Metrics = METRICS
    tournaments: TournamentService | None = None  # what /metrics serves (docs/operations.md)

    def outbox(self, platform: Platform, send: Send, *, pictures: bool = True) -> Outbox:
        """The deliverer of ``platform``'s notices through its door's ``send`` (see GameService.outbox)."""
        return self.games.outbox(platform, send, pictures=pictures)

    def jobs(self, platform: Platform, outbox: Outbox) -> list[Job]:
        """What a door's scheduler runs (see GameService.jobs)."""
        return self.games.jobs(platform, outbox)


@asynccontextmanager
async def open_app(settings: Settings, *, clock: Clock | None = None, engine: Engine | None = None,
                   render: Render | None = None, card_render: Render | None = None,
                   metrics: Metrics = METRICS,
                   sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> AsyncIterator[App]:
    """The running parts of the bot; closes the database (and the engine it made) on exit.

    A database that is away (PostgreSQL down or starting, a SQLite file locked) is tried again,
    with pauses taken by ``sleep``, for up to ``settings.database_wait_seconds``; then the
    StorageUnavailable (or StorageBusy) says why it gave up.

    Without ``engine`` it makes the real one: the built-in engine and Fairy-Stockfish when
    installed (their processes start at the first bot move). The puzzle bank is loaded into
    the database; ``card_render`` draws puzzle cards (default: renderers.render_puzzle_card).
    Everything counts on ``metrics`` (the process's unless given: a test gives its own).
    """
    clock = clock or SystemClock()
    storage = await wait_for_storage(settings.database, limit=settings.database_wait_seconds, clock=clock.now,
                                     log=log, sleep=sleep)
    own_engine = make_engine(settings, metrics=metrics) if engine is None else None
    # Scheduled work, shared with the other processes of the database, each piece claimed by one.
    claims = Claims(storage, clock, counter=metrics.claimed)
    try:
        await claims.release_the_dead()
        puzzles = await open_puzzles(storage, settings, clock=clock, render=card_render, claims=claims)
        games = GameService(storage, settings, clock=clock, engine=engine or own_engine, render=render,
                            puzzles=puzzles, metrics=metrics, claims=claims)
        tournaments = open_tournaments(games)
        yield App(settings, storage, games, puzzles, metrics, tournaments)
    finally:
        try:
            if own_engine is not None:
                await own_engine.aclose()
        finally:
            await storage.close()


def open_tournaments(games: GameService) -> TournamentService:
    """The tournament service, playing its games at ``games``' table, which calls it back
    (the games package cannot import it: games/tournament_routes.py)."""
    tournaments = TournamentService(games.table)
    games.attach(tournaments)
    return tournaments


async def open_puzzles(storage: Storage, settings: Settings, *, clock: Clock, render: Render | None = None,
                       bank: Path = BANK_PATH, claims: Claims | None = None) -> PuzzleService:
    """The puzzle service, after loading the shipped bank into the database (by id, so a
    corrected puzzle replaces its old version; a stored puzzle the bank no longer holds is
    retired); Monday to Sunday get rising rating bands."""
    puzzles = await asyncio.to_thread(load_family, bank.parent)
    # The daily post is Makruk's (storage.pick_puzzle): its bands come from Makruk's puzzles.
    records = [p.to_record() for p in puzzles]
    bands = weekday_bands([r.rating for r in records if r.variant == "makruk" and r.rating is not None])
    if not records:
        # A bank not found (a wrong path, a package built without its data) retires nothing.
        log.error("no puzzle bank in %s: the stored puzzles are served as they are", bank.parent)
    elif retired := await storage.ship_puzzles(records):
        log.info("retired %d stored puzzles the bank no longer holds", retired)
    return PuzzleService(storage, settings, clock=clock, render=render, bands=bands, claims=claims)


# Collections of the youngest generation after this many new objects (Python's default: 700).
GC_YOUNG_THRESHOLD: Final = 10_000


def settle_memory() -> None:
    """For a bot that runs for days: what start-up made (the modules of discord.py, the LINE
    SDK and Pillow, the catalogues) is moved out of the collector's sight, and the youngest
    generation is collected less often. A full collection then looks only at what the bot made
    since, so it no longer stalls every chat's answer for tens of milliseconds under load."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, oldest)


def configure_logging(level: str, settings: Settings | None = None) -> None:
    """Logs at ``level`` to standard error; with ``settings``, in their LOG_FORMAT (text or one
    JSON object per line) and with their secrets (tokens, the database password) redacted."""
    settings = settings or Settings()
    logging.basicConfig(level=level, handlers=[logs.handler(settings.log_format, settings.secrets())])
    logging.getLogger("asyncpg.pool").addFilter(cause_not_traceback)


def cause_not_traceback(record: logging.LogRecord) -> bool:
    """asyncpg's pool logs each failed try to reconnect, while the database is away, with a
    traceback; what failed is an expected condition, so the line says its cause instead."""
    error = record.exc_info[1] if record.exc_info else None
    if error is not None:
        record.msg, record.args = f"{record.getMessage()} ({type(error).__name__}: {error})", None
        record.exc_info = record.exc_text = None
    return True
