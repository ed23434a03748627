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
from ...services.claims import new_holder
from ...web.links import liff_link
from ...web.server import WebBoard
from .api import MessagingCalls
from .exports import TrfLinks
from .handler import LineHandler
from .images import ImageStore
from .inbox import LEFT_BEHIND, Inbox
from .profiles import Profiles
from .push import REQUEST_TIMEOUT as PUSH_TIMEOUT
from .push import Pusher
from .quota import read_quota
from .replies import Composer
from .standings import StandingsPictures
from .webhook import Webhook, create_app

log = logging.getLogger(__name__)

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8080
KEEP_EVENT_IDS = timedelta(days=7)  # LINE redelivers for far less than this
KEEP_SENT_NOTICES = timedelta(days=7)  # delivered notices, kept a while for the record
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
    configure_logging(settings.log_level, settings)
    async with open_app(settings) as app:
        return await run(app, settings, args)


async def run(app: App, settings: Settings, args: argparse.Namespace) -> int:
    """Serves the webhook for an open ``app`` (which ``makruk-bot`` may share with the Discord
    door) until SIGTERM or Ctrl-C. Any number of these processes, on one database, can serve
    one LINE channel behind a load balancer."""
    if not line_access(settings).public_base_url.startswith("https://"):
        log.warning("PUBLIC_BASE_URL is not https://: LINE will not show the board pictures")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    except (NotImplementedError, RuntimeError):
        pass  # no signal handlers here (Windows, or not the main thread): Ctrl-C still works
    try:
        async with LineDoor(settings, app) as door:
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
    """Every LINE part wired to a running ``App``: API client, webhook app, outbox, scheduler.

        async with open_app(settings) as app, LineDoor(settings, app) as door:
            await door.listen(port=8080)
    """

    def __init__(self, settings: Settings, app: App, *, scheduler_interval: float = 20.0,
                 housekeeping_interval: float = HOUSEKEEPING_SECONDS, push_timeout: float = PUSH_TIMEOUT) -> None:
        self.settings = settings
        self.access = line_access(settings)
        self.app = app
        self._interval = scheduler_interval
        self._housekeeping_interval = housekeeping_interval
        self._push_timeout = push_timeout
        self._runner: web.AppRunner | None = None
        self._next_housekeeping = 0.0
        self._next_quota = 0.0
        self._pushing: asyncio.Task[None] | None = None
        self._push_again = False
        # Set when the scheduler's first round since the start is over: what came due while
        # the bot was down has been dealt with.
        self.caught_up = asyncio.Event()

    async def __aenter__(self) -> LineDoor:
        settings, access = self.settings, self.access
        configuration = Configuration(access_token=access.access_token,
                                      host=(settings.line_api_base_url or "").rstrip("/") or None)
        self.api_client = AsyncApiClient(configuration)
        self.api = AsyncMessagingApi(self.api_client)
        self.images = ImageStore(_image_dir(settings), access.public_base_url, access.channel_secret)
        catalog = self.app.games.catalog
        self.profiles = Profiles(self.api)
        tournaments = self.app.tournaments
        self.standings = StandingsPictures(access.public_base_url, access.channel_secret,
                                           tournaments.standings_png if tournaments is not None else None)
        self.trf_links = TrfLinks(access.public_base_url, access.channel_secret,
                                  tournaments.trf if tournaments is not None else None)
        self.composer = Composer(self.app.games, self.images, catalog,
                                 board_link=lambda game_id: liff_link(settings, game_id), standings=self.standings,
                                 trf_links=self.trf_links)
        self.calls = MessagingCalls(self.api)
        self.pusher = Pusher(self.calls, self.composer, timeout=self._push_timeout)
        self.outbox = self.app.outbox("line", self.pusher.send, pictures=False)  # LINE fetches pictures by URL
        self.handler = LineHandler(self.app.games, self.app.storage, self.calls, self.profiles, self.composer,
                                   self.pusher, self.outbox, catalog, language=settings.line_language,
                                   owed=self.push_soon)
        self.inbox = Inbox(self.app.storage, self.handler.handle, holder=new_holder(), clock=self.app.games.clock)
        self.webhook = Webhook(access.channel_secret, self.inbox, self.handler.chat_of, metrics=self.app.metrics)
        self.web_app = create_app(self.webhook, self.images, self.app)
        self.standings.add_routes(self.web_app)
        self.trf_links.add_routes(self.web_app)
        # The web board (/g/GAME) on the same server; a move made there is pushed to LINE now.
        WebBoard(self.app.games, settings, self.app.games.clock, base=access.public_base_url.rstrip("/"),
                 owed=lambda platform: self.push_soon() if platform == "line" else None).add_routes(self.web_app)
        # The games' clock, the daily puzzles and the outbox, LINE's only; then our own chores.
        self.scheduler = Scheduler([self._wake_inbox, *self.app.jobs("line", self.outbox), self._housekeeping],
                                   interval=self._interval, wake=self.app.games.wake("line", self.outbox))
        return self

    async def listen(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                     sock: socket.socket | None = None) -> None:
        """Serves the webhook on ``host:port`` (or an open socket), reads the message quota
        and starts the scheduler."""
        self._runner = web.AppRunner(self.web_app, access_log=None)
        await self._runner.setup()
        site = web.SockSite(self._runner, sock) if sock is not None else web.TCPSite(self._runner, host, port)
        await site.start()
        await read_quota(self.api)
        self._next_quota = asyncio.get_running_loop().time() + self._housekeeping_interval
        self.scheduler.start()

    def push_soon(self) -> None:
        """Lets the outbox push now, in the background, rather than at the scheduler's next
        tick: a reply LINE did not take owes the chat its answer."""
        self._push_again = True
        if self._pushing is None or self._pushing.done():
            self._pushing = asyncio.create_task(self._push_owed(), name="line-push-owed")

    async def settle(self) -> None:
        """Waits until the accepted events are handled and what they owed is pushed."""
        await self.webhook.drain()
        while self._pushing is not None and not self._pushing.done():
            await self._pushing

    async def __aexit__(self, *exc) -> None:
        await self.scheduler.stop()
        try:
            if self._runner is not None:
                await self._runner.cleanup()  # stops listening, then lets accepted events finish
            await self.webhook.drain(0)
            if self._pushing is not None:
                # What it had not pushed stays in the outbox, for the next start.
                self._pushing.cancel()
                await asyncio.gather(self._pushing, return_exceptions=True)
        finally:
            await self.api_client.close()

    async def _push_owed(self) -> None:
        while self._push_again:
            self._push_again = False
            try:
                await self.outbox.drain()
            except Exception:
                log.exception("pushing what LINE replies could not show failed; the scheduler tries again")

    async def _wake_inbox(self) -> None:
        """Handles the events other processes (or this one, before a restart) accepted and did
        not get to: at the start every waiting one, then those left for a while."""
        left_behind = LEFT_BEHIND if self.caught_up.is_set() else timedelta(0)
        await self.inbox.release_the_dead()
        woken = await self.inbox.wake_waiting(left_behind=left_behind)
        if woken:
            log.info("handling the waiting LINE events of %d chats", woken)

    async def _housekeeping(self) -> None:
        """Once an hour: forgets old event ids, sent notices and pictures, reads the message
        quota, and says how many notices wait or could not be delivered. (It runs last in the
        scheduler's round.)"""
        try:
            await self._chores()
        finally:
            self.caught_up.set()

    async def _chores(self) -> None:
        loop = asyncio.get_running_loop()
        if loop.time() >= self._next_quota:
            self._next_quota = loop.time() + self._housekeeping_interval
            await read_quota(self.api)
        if loop.time() < self._next_housekeeping:
            return
        self._next_housekeeping = loop.time() + self._housekeeping_interval
        storage, now = self.app.storage, self.app.games.clock.now()
        await storage.prune_events(now - KEEP_EVENT_IDS)
        await storage.prune_notices(now - KEEP_SENT_NOTICES)
        await asyncio.to_thread(self.images.prune)
        counts = await storage.notice_counts("line")
        if counts.dead:
            log.warning("LINE notices: %d waiting, %d undeliverable (kept in the outbox)", counts.pending, counts.dead)
        elif counts.pending:
            log.info("LINE notices: %d waiting", counts.pending)


def _image_dir(settings: Settings) -> Path:
    """Pictures are a cache of what the URLs name, kept beside the bot's data."""
    return settings.data_dir / "line-images"
