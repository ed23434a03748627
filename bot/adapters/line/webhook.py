"""The aiohttp app LINE talks to: ``POST /callback`` for events, ``GET /`` for health, and the pictures.

A webhook request is checked in this order: size (413), signature over the raw body (400),
then JSON (400). A good one is answered 200 at once and its events are handled in the
background, so LINE never waits for the engine or for our own calls to its API.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from aiohttp import web
from linebot.v3 import WebhookParser  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed
from linebot.v3.exceptions import InvalidSignatureError  # type: ignore[import-untyped]
from linebot.v3.webhooks import Event  # type: ignore[import-untyped]

from .images import ImageStore

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024  # LINE's webhooks are a few KB; anything near this is not LINE
SHUTDOWN_GRACE = 5.0  # seconds to finish events already accepted


class Webhook:
    def __init__(self, channel_secret: str, handle: Callable[[Sequence[Event]], Coroutine[Any, Any, None]]) -> None:
        self._parser = WebhookParser(channel_secret)
        self._handle = handle
        self._tasks: set[asyncio.Task[None]] = set()

    async def callback(self, request: web.Request) -> web.Response:
        if request.content_length is not None and request.content_length > MAX_BODY:
            return web.Response(status=413, text="too large")
        signature = request.headers.get("X-Line-Signature")
        if not signature:
            return web.Response(status=400, text="missing signature")
        try:
            body = await request.read()  # client_max_size caps bodies sent without a length
        except web.HTTPRequestEntityTooLarge:
            return web.Response(status=413, text="too large")
        try:
            events = self._parser.parse(body.decode("utf-8"), signature)  # checks the signature first
        except (InvalidSignatureError, UnicodeDecodeError):
            log.warning("refused a webhook request with a bad signature from %s", request.remote)
            return web.Response(status=400, text="bad signature")
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("refused a signed but malformed webhook request")
            return web.Response(status=400, text="malformed")
        if events:
            task = asyncio.create_task(self._handle(events), name="line-events")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return web.Response(text="OK")

    async def drain(self, timeout: float | None = None) -> None:
        """Waits for the events being handled; after ``timeout`` seconds the rest are cancelled."""
        while self._tasks:
            tasks = list(self._tasks)
            _, pending = await asyncio.wait(tasks, timeout=timeout)
            if pending:
                log.warning("cancelling %d LINE event task(s) at shutdown", len(pending))
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                return


def create_app(webhook: Webhook, images: ImageStore) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY)
    app.router.add_get("/", _health)
    app.router.add_post("/callback", webhook.callback)
    images.add_routes(app)

    async def finish_events(app: web.Application) -> None:
        await webhook.drain(SHUTDOWN_GRACE)

    app.on_shutdown.append(finish_events)
    return app


async def _health(request: web.Request) -> web.Response:
    return web.Response(text="ok")
