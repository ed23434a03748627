"""The two Messaging API calls behind every answer, sent as the JSON the door composes.

The SDK's message models validate every field when they are built and again when they are
sent (pydantic, on every nested object): for a reply of five messages with quick replies that
was most of the door's time under load. So the door writes its messages as the API's JSON
objects (``replies.py``) and sends them with the SDK's own client, which keeps its
authentication, connection pool, timeouts and ``ApiException``. The calls that are rare
(profiles, the quota) go through the SDK's typed API as before.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from linebot.v3.messaging import AsyncMessagingApi  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

# A message object as the Messaging API documents it ({"type": "text", "text": ...}).
Message: TypeAlias = dict[str, Any]


class MessagingCalls:
    """``reply`` and ``push``; raise the SDK's ``ApiException`` when LINE refuses, and
    ``TimeoutError`` or ``aiohttp.ClientError`` when it cannot be reached."""

    def __init__(self, api: AsyncMessagingApi) -> None:
        self._client = api.api_client

    async def reply(self, reply_token: str, messages: list[Message], *, timeout: float) -> None:
        await self._post("/v2/bot/message/reply", {"replyToken": reply_token, "messages": messages}, {}, timeout)

    async def push(self, to: str, messages: list[Message], *, retry_key: str, timeout: float) -> None:
        await self._post("/v2/bot/message/push", {"to": to, "messages": messages},
                         {"X-Line-Retry-Key": retry_key}, timeout)

    async def _post(self, path: str, body: dict[str, Any], headers: dict[str, str], timeout: float) -> None:
        await self._client.call_api(
            path, "POST", {}, [], {"Accept": "application/json", "Content-Type": "application/json", **headers},
            body=body, post_params=[], files={}, response_types_map={}, auth_settings=["Bearer"],
            _return_http_data_only=True, _request_timeout=timeout,
        )
