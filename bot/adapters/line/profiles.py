"""Display names from LINE's profile APIs, cached: one lookup per person and chat per few hours."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

import aiohttp
from linebot.v3.messaging import ApiException, AsyncMessagingApi  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 10.0  # seconds; the SDK's own default is five minutes


class Profiles:
    """``name(user_id, group_id=..)`` -> the person's display name, or None when LINE will not say.

    1:1 chats use ``get_profile`` (it answers only for friends of the bot); groups and rooms use
    the member-profile APIs, which answer for every member. Answers are kept ``ttl`` seconds,
    failures ``failure_ttl`` seconds, and at most ``max_entries`` are kept (oldest dropped).
    """

    def __init__(self, api: AsyncMessagingApi, *, ttl: float = 6 * 3600, failure_ttl: float = 300,
                 max_entries: int = 4096, clock: Callable[[], float] = time.monotonic) -> None:
        self.api = api
        self.ttl = ttl
        self.failure_ttl = failure_ttl
        self.max_entries = max_entries
        self._clock = clock
        self._cache: OrderedDict[tuple[str, str], tuple[float, str | None]] = OrderedDict()

    async def name(self, user_id: str, *, group_id: str | None = None, room_id: str | None = None) -> str | None:
        scope = f"group:{group_id}" if group_id else f"room:{room_id}" if room_id else ""
        key = (scope, user_id)
        now = self._clock()
        cached = self._cache.get(key)
        if cached is not None and cached[0] > now:
            self._cache.move_to_end(key)
            return cached[1]
        name = await self._ask(user_id, group_id, room_id)
        self._cache[key] = (now + (self.ttl if name is not None else self.failure_ttl), name)
        self._cache.move_to_end(key)
        while len(self._cache) > self.max_entries:
            self._cache.popitem(last=False)
        return name

    def __len__(self) -> int:
        """How many answers are kept (at most ``max_entries``)."""
        return len(self._cache)

    async def _ask(self, user_id: str, group_id: str | None, room_id: str | None) -> str | None:
        try:
            if group_id:
                profile = await self.api.get_group_member_profile(group_id, user_id, _request_timeout=REQUEST_TIMEOUT)
            elif room_id:
                profile = await self.api.get_room_member_profile(room_id, user_id, _request_timeout=REQUEST_TIMEOUT)
            else:
                profile = await self.api.get_profile(user_id, _request_timeout=REQUEST_TIMEOUT)
        except ApiException as error:
            log.info("no LINE profile for %s (status %s)", user_id, error.status)
            return None
        except (TimeoutError, aiohttp.ClientError) as error:
            log.warning("LINE profile lookup for %s failed: %r", user_id, error)
            return None
        name = " ".join(profile.display_name.split())  # no line breaks or runs of spaces in chat text
        return name[:40] or None
