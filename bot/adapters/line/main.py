"""``makruk-bot line [--host H] [--port P]``: the LINE webhook server.

Settings come from the environment or ``.env``: ``LINE_CHANNEL_SECRET``,
``LINE_CHANNEL_ACCESS_TOKEN``, ``PUBLIC_BASE_URL`` (the https address LINE reaches, used for
picture URLs), optionally ``LINE_API_BASE_URL`` and ``DATABASE_PATH``. See docs/line.md.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import socket
import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from aiohttp import web
from linebot.v3.messaging import (  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed
    AsyncApiClient,
    AsyncMessagingApi,
    Configuration,
)

from ...app import App, configure_logging, open_app
from ...config import Settings
from ...scheduler import Scheduler
from .handler import LineHandler
from .images import ImageStore
from .profiles import Profiles
from .replies import Composer
from .webhook import Webhook, create_app

log = logging.getLogger(__name__)

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8080
KEEP_EVENT_IDS = timedelta(days=7)  # LINE redelivers for far less than this
HOUSEKEEPING_SECONDS = 3600.0


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("line", help="serve the LINE webhook (see docs/line.md)")
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})")


async def main(settings: Settings, args: argparse.Namespace) -> int:
    missing = missing_settings(settings)
    if missing:
        print(f"makruk-bot line: missing setting {', '.join(missing)} (set it in the environment or .env)",
              file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if not line_access(settings).public_base_url.startswith("https://"):
        log.warning("PUBLIC_BASE_URL is not https://: LINE will not show the board pictures")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    except (NotImplementedError, RuntimeError):
        pass  # no signal handlers here (Windows, or not the main thread): Ctrl-C still works
    try:
        async with open_app(settings) as app, LineDoor(settings, app) as door:
            await door.listen(host=args.host, port=args.port)
            log.info("LINE webhook listening on %s:%s", args.host, args.port)
            await stop.wait()
    finally:
        try:
            loop.remove_signal_handler(signal.SIGTERM)  # a second SIGTERM ends the process at once
        except (NotImplementedError, RuntimeError):
            pass
    return 0


def missing_settings(settings: Settings) -> list[str]:
    """The names of the settings the LINE door cannot run without that are not set."""
    required = {
        "LINE_CHANNEL_SECRET": settings.line_channel_secret,
        "LINE_CHANNEL_ACCESS_TOKEN": settings.line_channel_access_token,
        "PUBLIC_BASE_URL": settings.public_base_url,
    }
    return [name for name, value in required.items() if not value]


@dataclass(frozen=True)
class LineAccess:
    """The settings the LINE door cannot run without, known to be set."""

    channel_secret: str
    access_token: str
    public_base_url: str


def line_access(settings: Settings) -> LineAccess:
    """The LINE settings; ValueError naming those that are not set."""
    secret, token, url = settings.line_channel_secret, settings.line_channel_access_token, settings.public_base_url
    if not (secret and token and url):
        raise ValueError(f"missing setting {', '.join(missing_settings(settings))}")
    return LineAccess(secret, token, url)


class LineDoor:
    """Every LINE part wired to a running ``App``: API client, webhook app, scheduler.

        async with open_app(settings) as app, LineDoor(settings, app) as door:
            await door.listen(port=8080)
    """

    def __init__(self, settings: Settings, app: App, *, scheduler_interval: float = 20.0,
                 push_retry_delays: tuple[float, ...] | None = None) -> None:
        self.settings = settings
        self.access = line_access(settings)
        self.app = app
        self._interval = scheduler_interval
        self._retry_delays = push_retry_delays
        self._runner: web.AppRunner | None = None
        self._next_housekeeping = 0.0

    async def __aenter__(self) -> LineDoor:
        settings, access = self.settings, self.access
        configuration = Configuration(access_token=access.access_token,
                                      host=(settings.line_api_base_url or "").rstrip("/") or None)
        self.api_client = AsyncApiClient(configuration)
        self.api = AsyncMessagingApi(self.api_client)
        self.images = ImageStore(_image_dir(settings), access.public_base_url)
        catalog = self.app.games.catalog
        self.profiles = Profiles(self.api)
        self.composer = Composer(self.app.games, self.images, catalog)
        options = {"push_retry_delays": self._retry_delays} if self._retry_delays is not None else {}
        self.handler = LineHandler(self.app.games, self.app.storage, self.api, self.profiles, self.composer, catalog,
                                   language=settings.line_language, **options)
        self.webhook = Webhook(access.channel_secret, self.handler.handle)
        self.web_app = create_app(self.webhook, self.images)
        jobs = self.app.jobs("line")  # the games' clock and the daily puzzles, LINE's only
        self.scheduler = Scheduler([*jobs, self._housekeeping], self.handler.deliver, interval=self._interval)
        return self

    async def listen(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                     sock: socket.socket | None = None) -> None:
        """Serves the webhook on ``host:port`` (or an open socket) and starts the scheduler."""
        self._runner = web.AppRunner(self.web_app, access_log=None)
        await self._runner.setup()
        site = web.SockSite(self._runner, sock) if sock is not None else web.TCPSite(self._runner, host, port)
        await site.start()
        self.scheduler.start()

    async def __aexit__(self, *exc) -> None:
        await self.scheduler.stop()
        try:
            if self._runner is not None:
                await self._runner.cleanup()  # stops listening, then lets accepted events finish
            await self.webhook.drain(0)
        finally:
            await self.api_client.close()

    async def _housekeeping(self) -> list:
        """Forgets old event ids and pictures, once an hour."""
        loop = asyncio.get_running_loop()
        if loop.time() >= self._next_housekeeping:
            self._next_housekeeping = loop.time() + HOUSEKEEPING_SECONDS
            await self.app.storage.prune_events(self.app.games.clock.now() - KEEP_EVENT_IDS)
            await asyncio.to_thread(self.images.prune)
        return []


def _image_dir(settings: Settings) -> Path:
    """Pictures live next to the database: both are the bot's data."""
    return settings.database_path.resolve().parent / "line-images"
