"""The health check: can the bot answer a message? (docs/operations.md)

Healthy means the database answers a cheap read in time. The engine is reported, never a
reason to be unhealthy: the built-in engine always plays, and without Fairy-Stockfish levels
5-8 play as the built-in engine's level 4 (a degraded bot, but one that answers).
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any, get_args

from storage import Storage
from storage.records import NoticeCounts

from ..engines import Engine, LevelledEngine
from ..messages import Platform

if TYPE_CHECKING:
    from ..app import App

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 2.0  # seconds; a database slower than this to count the outbox is not answering


async def check_health(app: App, *, timeout: float = DATABASE_TIMEOUT) -> tuple[int, dict[str, Any]]:
    """The HTTP status (200 healthy, 503 not) and a JSON-able report of the parts, e.g.
    ``{"status": "ok", "database": "ok", "engine": {"name": "builtin", "fairy_stockfish": "missing"}}``."""
    database = await check_database(app, timeout=timeout)
    healthy = database == "ok"
    report = {"status": "ok" if healthy else "unavailable", "database": database,
              "engine": engine_status(app.games.table.engine)}
    return (200 if healthy else 503), report


async def check_database(app: App, *, timeout: float = DATABASE_TIMEOUT) -> str:
    """``ok``, ``timeout`` or ``error`` (the reason goes to the log, not to whoever asked);
    while at it, the outbox's backlog and whether the database answered go to the metrics."""
    try:
        counts = await asyncio.wait_for(_outbox_counts(app.storage), timeout)
    except TimeoutError:
        log.warning("health: the database did not answer in %.1f s", timeout)
        app.metrics.database_answered(False)
        return "timeout"
    except Exception as error:  # whatever the driver raises, a closed connection included
        log.warning("health: the database failed: %r", error)
        app.metrics.database_answered(False)
        return "error"
    app.metrics.database_answered(True)
    for platform, count in counts.items():
        app.metrics.outbox_backlog(platform, pending=count.pending, dead=count.dead)
    return "ok"


async def _outbox_counts(storage: Storage) -> dict[Platform, NoticeCounts]:
    return {platform: await storage.notice_counts(platform) for platform in get_args(Platform)}


def engine_status(engine: Engine) -> dict[str, str]:
    """The engine's name, and whether Fairy-Stockfish is there to play levels 5-8: ``ready``
    (an executable file; its process starts at the first move that needs it), ``missing``
    (never found: the built-in engine plays those levels) or ``gone`` (removed since the start)."""
    if not isinstance(engine, LevelledEngine):
        return {"name": engine.name}
    if engine.fairy is None:
        return {"name": engine.name, "fairy_stockfish": "missing"}
    return {"name": engine.name, "fairy_stockfish": "ready" if os.access(engine.fairy.path, os.X_OK) else "gone"}
