"""``GET /healthz`` and ``GET /metrics`` over HTTP: on the LINE webhook server
(``add_routes``), or on a port of their own for the doors that have no web server
(``start_metrics_server``: Discord, the console).

    runner = await start_metrics_server(9090, app)
    ...
    await runner.cleanup()
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from .health import check_database, check_health

if TYPE_CHECKING:
    from ..app import App


async def start_metrics_server(port: int, app: App, host: str = "0.0.0.0") -> web.AppRunner:
    """Serves ``/healthz`` and ``/metrics`` of ``app`` on ``host:port`` (port 0: any free port,
    see ``runner.addresses``) until ``await runner.cleanup()``."""
    web_app = web.Application()
    add_routes(web_app, app)
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:  # the port is taken, or the start was cancelled
        await runner.cleanup()
        raise
    return runner


def add_routes(web_app: web.Application, app: App) -> None:
    """Adds ``GET /healthz`` and ``GET /metrics`` (HEAD too) for ``app`` to ``web_app``."""
    endpoints = Endpoints(app)
    web_app.router.add_get("/healthz", endpoints.healthz)
    web_app.router.add_get("/metrics", endpoints.metrics)


class Endpoints:
    def __init__(self, app: App) -> None:
        self.app = app

    async def healthz(self, request: web.Request) -> web.Response:
        """200 and ``{"status": "ok", ...}`` when the bot can answer, else 503 (see health.py)."""
        status, report = await check_health(self.app)
        return web.json_response(report, status=status, headers={"Cache-Control": "no-store"})

    async def metrics(self, request: web.Request) -> web.Response:
        """The metrics in Prometheus' text format; the outbox's backlog is counted now."""
        await check_database(self.app)
        body, content_type = self.app.metrics.exposition(request.headers.get("Accept"))
        return web.Response(body=body, headers={"Content-Type": content_type})
