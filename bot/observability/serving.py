"""``--metrics-port``: /healthz and /metrics for the doors that have no web server of their own."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from .http import start_metrics_server

if TYPE_CHECKING:
    from ..app import App

log = logging.getLogger(__name__)


@asynccontextmanager
async def serving_metrics(app: App, port: int | None, host: str = "0.0.0.0") -> AsyncIterator[None]:
    """Serves ``app``'s /healthz and /metrics on ``port`` while the block runs (None: nothing)."""
    if port is None:
        yield
        return
    runner = await start_metrics_server(port, app, host)
    log.info("/healthz and /metrics on %s:%d", host, port)
    try:
        yield
    finally:
        await runner.cleanup()
