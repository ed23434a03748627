"""Pushes: the outbox's way into a LINE chat, once each, and what LINE's refusals mean.

A push counts against the channel's monthly quota (once per member of a group), so the door
pushes only what no reply token can carry. Each notice is pushed with an ``X-Line-Retry-Key``
derived from the notice's key, so a retry, or a push again after a crash, is shown once (LINE
answers 409 to a key it took already). A failure becomes a ``DeliveryError`` that tells the
outbox when, or whether, to try again.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from email.utils import parsedate_to_datetime

import aiohttp
from linebot.v3.messaging import ApiException  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

from ...messages import Notice
from ...services.outbox import DeliveryError
from .api import Message, MessagingCalls
from .locks import ChatLocks
from .replies import Chat, Composer

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 15.0  # seconds per push
RETRY_KEY_NAMESPACE = uuid.UUID("6f1c2a52-4b0e-5d7a-9a57-6d616b72756b")  # fixed: keys stay the same across restarts
MONTHLY_LIMIT = "monthly limit"  # LINE's 429 body: "You have reached your monthly limit."
REMEMBER_SHOWN = 1024  # notices shown lately, kept until the outbox has marked them


def retry_key(notice_key: str) -> str:
    """The ``X-Line-Retry-Key`` of a notice: the same UUID for every try of the same notice.

    >>> retry_key("abc") == retry_key("abc") != retry_key("abd")
    True
    """
    return str(uuid.uuid5(RETRY_KEY_NAMESPACE, notice_key))


def target_of(channel: str) -> str:
    """The LINE id behind a channel key: ``group:C123`` -> ``C123``."""
    return channel.partition(":")[2]


def chat_of(channel: str) -> Chat:
    return Chat(channel, channel.startswith("user:"))


class Pusher:
    """``send(notice)`` for the outbox; shares a lock per chat with the replies, so a notice
    is either carried by a reply or pushed, never both."""

    def __init__(self, api: MessagingCalls, composer: Composer, *, timeout: float = REQUEST_TIMEOUT) -> None:
        self.api = api
        self.composer = composer
        self.timeout = timeout
        self.locks = ChatLocks()
        self._shown: OrderedDict[str, None] = OrderedDict()

    async def send(self, notice: Notice) -> None:
        """Pushes one notice; raises DeliveryError when LINE did not take it."""
        if notice.platform != "line":
            raise DeliveryError(f"a {notice.platform} notice reached the LINE door", permanent=True)
        async with self.locks.hold(notice.channel):
            if notice.key is not None and self.was_shown(notice.key):
                return  # a reply carried it a moment ago; the outbox is marking it
            messages = await self.composer.messages([notice.reply], chat_of(notice.channel), answered=None)
            if not messages:
                return
            key = retry_key(notice.key) if notice.key else str(uuid.uuid4())
            await self.push(target_of(notice.channel), messages, key)
            if notice.key is not None:
                self.shown([notice.key])

    async def push(self, target: str, messages: list[Message], key: str) -> None:
        """One push under retry key ``key``; a 409 means LINE took an earlier try of it."""
        try:
            await self.api.push(target, messages, retry_key=key, timeout=self.timeout)
        except ApiException as error:
            if error.status == 409:
                log.info("LINE took an earlier try of push %s already", key)
                return
            raise delivery_error(error, target) from error
        except (TimeoutError, aiohttp.ClientError) as error:
            raise DeliveryError(f"could not reach LINE: {error!r}") from error

    def shown(self, keys: Iterable[str]) -> None:
        """These notices reached the chat (pushed, or carried by a reply) and are being marked."""
        for key in keys:
            self._shown[key] = None
            self._shown.move_to_end(key)
        while len(self._shown) > REMEMBER_SHOWN:
            self._shown.popitem(last=False)

    def was_shown(self, key: str) -> bool:
        return key in self._shown


def delivery_error(error: ApiException, target: str) -> DeliveryError:
    """What a refused push means for the outbox: wait, try later, or give up."""
    status = error.status or 0
    body = _text(error.body)
    retry_after = _retry_after(error.headers)
    if status == 429:
        if MONTHLY_LIMIT in body.lower():
            return DeliveryError("LINE's monthly message quota is used up", quota=True, retry_after=retry_after)
        return DeliveryError(f"LINE's rate limit (429): {body[:200]}", retry_after=retry_after)
    if status in (400, 403, 404):
        # Not ours to fix by trying again: a bad message, a chat the bot left, a blocked bot.
        log.error("LINE refused a push to %s: %s %s", target, status, body[:500])
        return DeliveryError(f"LINE refused the push ({status}): {body[:200]}", permanent=True)
    if status == 401:
        log.error("LINE refused the channel access token (401): check LINE_CHANNEL_ACCESS_TOKEN")
    return DeliveryError(f"LINE failed the push ({status}): {body[:200]}", retry_after=retry_after)


def _text(body: object) -> str:
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    text = str(body or "")
    try:
        message = json.loads(text).get("message")
    except (ValueError, AttributeError, RecursionError):
        return text
    return message if isinstance(message, str) else text


def _retry_after(headers: Mapping[str, str] | None) -> float | None:
    """``Retry-After`` in seconds: a number, or an HTTP date."""
    value = (headers or {}).get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None
