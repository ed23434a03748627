"""The aiohttp app LINE talks to: ``POST /callback`` for events, the pictures, and for the
operators ``GET /healthz``, ``GET /metrics`` (docs/operations.md) and ``GET /`` (a plain "ok").

A webhook request is checked in this order: size (413), signature over the raw body (400),
then the body's shape (400, whatever it holds). A good one is answered 200 as soon as its
events are stored in the inbox (``inbox.py``), so LINE never waits for the engine, an
acknowledged event is never lost, and a chat's messages are handled in the order they came,
by whichever process of the channel (503 if the database did not take them: LINE sends them
again).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web
from linebot.v3 import SignatureValidator  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed
from linebot.v3.webhooks import Event  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

from storage import StorageError

from ...observability.http import add_routes
from ...observability.metrics import METRICS, Metrics, Rejection
from .images import ImageStore
from .inbox import Inbox

if TYPE_CHECKING:
    from ...app import App

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024  # LINE's webhooks are a few KB; anything near this is not LINE
SHUTDOWN_GRACE = 5.0  # seconds to finish events already accepted


class Malformed(ValueError):
    """A signed webhook body that is not what LINE sends."""


class Webhook:
    """Checks LINE's requests and stores their events in ``inbox`` by chat (``chat_of``; None:
    nothing to do)."""

    def __init__(self, channel_secret: str, inbox: Inbox, chat_of: Callable[[Event], str | None], *,
                 metrics: Metrics = METRICS) -> None:
        self._validator = SignatureValidator(channel_secret)
        self._chat_of = chat_of
        self._metrics = metrics
        self.inbox = inbox
        self.queues = inbox.queues

    async def callback(self, request: web.Request) -> web.Response:
        if request.content_length is not None and request.content_length > MAX_BODY:
            return self._refuse(413, "too_large")
        signature = request.headers.get("X-Line-Signature")
        if not signature:
            return self._refuse(400, "missing_signature")
        try:
            body = await request.read()  # client_max_size caps bodies sent without a length
        except web.HTTPRequestEntityTooLarge:
            return self._refuse(413, "too_large")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = None  # LINE signs UTF-8 text: this cannot be LINE's
        if text is None or not self._validator.validate(text, signature):  # constant-time comparison
            log.warning("refused a webhook request with a bad signature from %s", request.remote)
            return self._refuse(400, "bad_signature")
        try:
            events = parse_events(text)
        except Malformed as error:
            log.warning("refused a signed but malformed webhook request: %s", error)
            return self._refuse(400, "bad_body")
        chats = [(chat, item, event) for item, event in events if (chat := self._chat_of(event)) is not None]
        if len(chats) > self.queues.room():
            log.error("%d LINE events wait already; asking LINE to send these again later", self.queues.waiting)
            return self._refuse(503, "busy")
        try:
            await self.inbox.receive(chats)
        except StorageError as error:
            log.error("could not store %d LINE events (%r); asking LINE to send them again later", len(chats), error)
            return self._refuse(503, "busy")
        return web.Response(text="OK")

    def _refuse(self, status: int, reason: Rejection) -> web.Response:
        self._metrics.webhook_rejected(reason)
        return web.Response(status=status, text=reason.replace("_", " "))

    async def drain(self, timeout: float | None = None) -> None:
        """Waits for the queued events; after ``timeout`` seconds the rest are left unhandled
        (and unmarked: they were never taken up)."""
        await self.queues.drain(timeout)


def parse_events(text: str) -> list[tuple[dict[str, Any], Event]]:
    """The events of a webhook body, each as LINE wrote it and as the SDK reads it; Malformed
    unless it is an object whose ``events`` is a list of objects with a ``type``. Events of
    types this SDK does not know, or that it cannot read (or without a ``webhookEventId``), are
    logged and skipped: LINE adds new kinds now and then."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError) as error:  # RecursionError: nested too deeply
        raise Malformed(f"not JSON ({type(error).__name__})") from None
    if not isinstance(data, dict):
        raise Malformed(f"a JSON {type(data).__name__}, not an object")
    items = data.get("events")
    if not isinstance(items, list):
        raise Malformed("no list of events")
    if not all(isinstance(item, dict) and isinstance(item.get("type"), str) for item in items):
        raise Malformed("an event that is not an object with a type")
    events = []
    for item in items:
        if Event.get_discriminator_value(item) is None:
            log.info("skipped a LINE event of unknown type %r", item["type"][:40])
            continue
        if not isinstance(item.get("webhookEventId"), str):
            log.warning("skipped a LINE %r event without a webhookEventId", item["type"][:40])
            continue
        try:
            events.append((item, Event.from_dict(item)))
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
            log.warning("skipped a LINE %r event that could not be read: %s", item["type"][:40],
                        type(error).__name__)
    return events


def create_app(webhook: Webhook, images: ImageStore, bot: App) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY)
    app.router.add_get("/", _health)
    app.router.add_post("/callback", webhook.callback)
    add_routes(app, bot)  # /healthz and /metrics
    images.add_routes(app)

    async def finish_events(app: web.Application) -> None:
        await webhook.drain(SHUTDOWN_GRACE)

    app.on_shutdown.append(finish_events)
    return app


async def _health(request: web.Request) -> web.Response:
    return web.Response(text="ok")
