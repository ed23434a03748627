"""Discord without the network, for the adapter's tests.

``FakeDiscord`` stands in for Discord's HTTP API under discord.py: it replaces the bot's
``HTTPClient.request`` and the interaction webhook adapter, records every request as a ``Sent``
(decoded JSON, attached files) and answers with plausible payloads. Interactions are built as
gateway ``INTERACTION_CREATE`` payloads and fed to the bot's real ``ConnectionState``, so the
command tree, the namespace transformers and the dynamic-item dispatch all run as in production.

Faults: ``fail_posts`` makes the next message posts fail as Discord or the network can (a 5xx,
a rate limit, a timeout, an answer lost after the message was made, a refusal), and ``expire``
makes interaction answers fail from some point on, as an expired interaction's do. Like Discord,
the fake returns the first message for a post that repeats its nonce with ``enforce_nonce``;
every attempt is recorded. The people, ids and payloads it builds are in ``payloads.py``.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from .payloads import (
    APP_ID,
    BOT_PERMISSIONS,
    CHANNEL_ID,
    COMMAND_ID,
    EPHEMERAL,
    GUILD_ID,
    MAKRUK,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    Attachment,
    Person,
    command_options,
    dm_channel,
    text_channel,
    thread_channel,
)

if TYPE_CHECKING:  # discord.py's payload types, which the payloads built here follow
    from discord.types import channel as channel_types
    from discord.types import interactions as interaction_types
    from discord.types import message as message_types
    from discord.types import threads as thread_types
    from discord.types import user as user_types

class Fault(enum.Enum):
    """How one message post fails (``FakeDiscord.fail_posts``)."""

    SERVER_ERROR = "500"  # Discord's 5xx, after discord.py's own retries
    RATE_LIMITED = "429"  # a rate limit longer than the bot waits itself (RateLimited)
    TIMEOUT = "timeout"  # the request never reached Discord
    LOST_ANSWER = "lost answer"  # Discord made the message, but its answer timed out
    FORBIDDEN = "403"  # the bot may not post there (any more)


RETRY_AFTER = 30.0  # what the fake's rate limit asks for
NOT_MADE = ("refused", "failed", "duplicate", "expired")  # attempts that made no new message


@dataclass
class Sent:
    """One request the adapter made, as Discord would receive it."""

    # respond, defer, autocomplete, followup, edit_original, delete_original, message, thread, ...;
    # refused (gone), failed (a fault), duplicate (a nonce seen before), expired (an interaction's)
    kind: str
    channel: int | None
    json: dict = field(default_factory=dict)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    message: dict | None = None  # the message Discord answered with, for clicking its components

    @property
    def body(self) -> dict:
        """The message part of the payload (interaction callbacks wrap it in ``data``)."""
        if self.kind in ("respond", "defer", "autocomplete", "update"):
            return self.json.get("data") or {}
        return self.json

    @property
    def ephemeral(self) -> bool:
        return bool((self.body.get("flags") or 0) & EPHEMERAL)

    @property
    def embeds(self) -> list[dict]:
        return self.body.get("embeds") or []

    @property
    def text(self) -> str:
        parts = [self.body.get("content") or ""] + [e.get("description") or "" for e in self.embeds]
        return "\n".join(p for p in parts if p)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.body.get("components") or [] for c in row.get("components", [])
                if "custom_id" in c]

    def component(self, custom_id: str) -> dict:
        return next(c for row in self.body.get("components") or [] for c in row["components"]
                    if c.get("custom_id") == custom_id)

    @property
    def is_message(self) -> bool:
        return self.kind in ("respond", "followup", "message")

    @property
    def nonce(self) -> str | None:
        return self.json.get("nonce")


class FakeDiscord:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.sent: list[Sent] = []
        self.messages: dict[int, dict] = {}
        self.channels: dict[int, dict] = {CHANNEL_ID: text_channel(CHANNEL_ID)}
        self.archived: dict[int, list[dict]] = {}
        self.gone: set[int] = set()  # channels deleted behind the bot's back
        self.faults: list[Fault] = []  # how the next message posts fail, in order
        self._answers_left: int | None = None  # interaction answers that still work (None: no limit)
        self._nonces: dict[tuple[int, str], dict] = {}  # (channel, nonce) -> the message made
        self._ids = itertools.count(800000000000000001)
        self._interaction_channels: dict[str, int] = {}  # token -> channel id
        self._originals: dict[str, int] = {}  # token -> message id of the original response
        bot.http.request = self._http  # type: ignore[method-assign]  # the fake stands in for Discord's HTTP API
        self.cdn: dict[str, bytes] = {}  # attachments people sent, by URL
        bot.http.get_from_cdn = self._cdn  # type: ignore[method-assign]
        self._webhooks = _Webhooks(self)

    async def _cdn(self, url: str) -> bytes:
        return self.cdn[url]

    def attachment(self, filename: str, data: bytes) -> Attachment:
        """A file as a person attaches it to a slash command option."""
        found = Attachment(self.next_id(), filename, data)
        self.cdn[found.url] = data
        return found

    def install(self) -> None:
        """Routes interaction callbacks and followups of the current context to this fake."""
        async_context.set(self._webhooks)

    def next_id(self) -> int:
        return next(self._ids)

    # --- what tests look at ---------------------------------------------------------

    def messages_sent(self) -> list[Sent]:
        return [s for s in self.sent if s.is_message or (s.kind == "edit_original" and s.json.get("embeds"))]

    def boards(self) -> list[Sent]:
        """Messages that carry a board image (made, not merely tried)."""
        return [s for s in self.sent if s.kind not in NOT_MADE and any(name == "board.png" for name, _ in s.files)]

    def kinds(self) -> list[str]:
        return [s.kind for s in self.sent]

    def posts(self) -> list[Sent]:
        """Every attempt to post a message in a channel: made, failed, or answered as a duplicate."""
        return [s for s in self.sent if s.kind in ("message", "failed", "duplicate")]

    def fail_posts(self, *faults: Fault) -> None:
        """The next message posts fail like this, one fault each."""
        self.faults.extend(faults)

    def expire(self, *, after: int = 0) -> None:
        """Interactions expire after ``after`` more answers (a callback, a followup, an edit)."""
        self._answers_left = after

    def clear(self) -> None:
        self.sent.clear()

    # --- interactions -------------------------------------------------------------------

    async def slash(self, person: Person, command: str, *, group: str = "makruk", channel: dict | None = None,
                    locale: str = "en-US", permissions: int = MEMBER_PERMISSIONS,
                    app_permissions: int = BOT_PERMISSIONS, dm: bool = False, **options: Any) -> None:
        """``/<group> <command> option:value ...`` by ``person``; user options take ``Person``s."""
        data_options, resolved = command_options(options)
        data = {"id": str(COMMAND_ID), "name": group, "type": 1,
                "options": [{"type": 1, "name": command, "options": data_options}]}
        if resolved:
            data["resolved"] = resolved
        await self.dispatch(self.interaction(2, person, data, channel=channel, locale=locale,
                                             permissions=permissions, app_permissions=app_permissions, dm=dm))

    async def autocomplete(self, person: Person, command: str, option: str, typed: str, *,
                           channel: dict | None = None, locale: str = "en-US") -> list[dict]:
        data = {"id": str(COMMAND_ID), "name": "makruk", "type": 1, "options": [
            {"type": 1, "name": command, "options": [{"type": 3, "name": option, "value": typed, "focused": True}]}]}
        await self.dispatch(self.interaction(4, person, data, channel=channel, locale=locale))
        answer = next(s for s in reversed(self.sent) if s.kind == "autocomplete")
        return answer.json["data"]["choices"]

    async def click(self, person: Person, sent: Sent, custom_id: str, *, values: list[str] | None = None,
                    locale: str = "en-US", app_permissions: int = BOT_PERMISSIONS) -> None:
        """Presses a button (or picks ``values`` in a select) of a message the bot sent."""
        message = sent.message
        assert message is not None, f"{sent.kind} has no message to click"
        component = sent.component(custom_id)
        data = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        channel = self.channels[int(message["channel_id"])]
        await self.dispatch(self.interaction(3, person, data, channel=channel, locale=locale,
                                             app_permissions=app_permissions, message=message,
                                             dm=channel["type"] == 1))

    def interaction(self, kind: int, person: Person, data: dict, *, channel: dict | None = None,
                    locale: str = "en-US", permissions: int = MEMBER_PERMISSIONS,
                    app_permissions: int = BOT_PERMISSIONS, message: dict | None = None,
                    dm: bool = False) -> dict:
        interaction_id = self.next_id()
        if channel is None:
            channel = dm_channel(person) if dm else self.channels[CHANNEL_ID]
        self.channels.setdefault(int(channel["id"]), channel)
        payload = {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind, "data": data,
            "token": f"token-{interaction_id}", "version": 1, "locale": locale, "attachment_size_limit": 25 << 20,
            "app_permissions": str(app_permissions), "channel": channel, "channel_id": channel["id"],
            "entitlements": [], "authorizing_integration_owners": {},
        }
        if dm:
            payload.update(user=person.user(), context=1)
        else:
            payload.update(guild_id=str(GUILD_ID), member=person.member(permissions), guild_locale="en-US", context=0)
        if message is not None:
            payload["message"] = message
        self._interaction_channels[payload["token"]] = int(channel["id"])
        return payload

    async def say(self, person: Person, content: str, *, channel: dict | None = None,
                  mentions: tuple[Person, ...] = (), partial: bool = False) -> None:
        """A plain message; Discord shows the bot its text only when it mentions the bot, or in a DM.
        ``partial``: the channel is known only by its id."""
        channel = channel or self.channels[CHANNEL_ID]
        self.channels.setdefault(int(channel["id"]), channel)
        state = self.bot._connection
        data = {"id": str(self.next_id()), "channel_id": channel["id"], "type": 0, "content": content,
                "author": person.user(), "attachments": [], "embeds": [], "mention_roles": [], "pinned": False,
                "mention_everyone": False, "tts": False, "timestamp": TIMESTAMP, "edited_timestamp": None,
                "flags": 0, "components": [],
                "mentions": [p.user() | {"member": p.member(with_user=False)} for p in mentions]}
        where: discord.DMChannel | discord.TextChannel | discord.Thread | discord.PartialMessageable
        if channel["type"] == 1:
            assert self.bot.user is not None, "log the bot in first"
            where = discord.DMChannel(me=self.bot.user, state=state, data=cast("channel_types.DMChannel", channel))
        else:
            guild = state._get_or_create_unavailable_guild(GUILD_ID)
            data.update(guild_id=str(GUILD_ID), member=person.member(with_user=False))
            if partial:  # as discord.py has it when the channel is not in its cache
                where = self.bot.get_partial_messageable(int(channel["id"]), guild_id=GUILD_ID)
            elif channel["type"] == 11:
                where = discord.Thread(guild=guild, state=state, data=cast("thread_types.Thread", channel))
            else:
                where = discord.TextChannel(guild=guild, state=state, data=cast("channel_types.TextChannel", channel))
        sent = discord.Message(state=state, channel=where, data=cast("message_types.Message", data))
        self.bot.dispatch("message", sent)
        await settle()

    async def dispatch(self, payload: dict) -> None:
        self.bot._connection.parse_interaction_create(cast("interaction_types.Interaction", payload))
        await settle()

    # --- Discord's side -------------------------------------------------------------------

    def message_payload(self, channel_id: int, body: dict, *, message_id: int | None = None) -> dict:
        message_id = message_id or self.next_id()
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "type": 0, "content": body.get("content") or "",
            "author": MAKRUK.user() | {"bot": True}, "attachments": [], "embeds": body.get("embeds") or [],
            "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
            "timestamp": TIMESTAMP, "edited_timestamp": None, "flags": body.get("flags") or 0,
            "components": body.get("components") or [],
        }
        if self.channels.get(channel_id, {}).get("guild_id"):
            message["guild_id"] = str(GUILD_ID)
        self.messages[message_id] = message
        return message

    async def _http(self, route, *, files=None, form=None, **kwargs) -> Any:
        body = kwargs.get("json") or _payload_json(form) or {}
        path, method = route.path, route.method
        channel_id = int(route.channel_id) if route.channel_id else None
        record = Sent("request", channel_id, body, _files(files))
        self.sent.append(record)
        if channel_id is None:  # every route the adapter uses is a channel's
            raise AssertionError(f"unexpected request {method} {route.url}")
        if channel_id in self.gone:
            record.kind = "refused"
            response = cast(Any, SimpleNamespace(status=404, reason="Not Found"))  # what NotFound reads of one
            raise discord.NotFound(response, {"code": 10003, "message": "Unknown Channel"})
        if method == "POST" and path == "/channels/{channel_id}/messages":
            return self._post(record, channel_id, body)
        if method == "POST" and path == "/channels/{channel_id}/messages/{message_id}/threads":
            record.kind = "thread"
            thread_id = int(route.url.rsplit("/", 2)[-2])  # a thread on a message has the message's id
            return self._new_thread(thread_id, channel_id, body)
        if method == "POST" and path == "/channels/{channel_id}/threads":
            record.kind = "thread"
            return self._new_thread(self.next_id(), channel_id, body)
        if method == "GET" and path == "/channels/{channel_id}":
            record.kind = "fetch_channel"
            return self.channels[channel_id]
        if method == "GET" and path == "/channels/{channel_id}/threads/archived/public":
            record.kind = "archived_threads"
            return {"threads": self.archived.get(channel_id, []), "members": [], "has_more": False}
        if method == "POST" and path == "/channels/{channel_id}/typing":
            record.kind = "typing"
            return None
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            record.kind = "edit_message"
            return self.message_payload(channel_id, body, message_id=int(route.url.rsplit("/", 1)[-1]))
        raise AssertionError(f"unexpected request {method} {route.url}")

    def _post(self, record: Sent, channel_id: int, body: dict) -> dict:
        fault = self.faults.pop(0) if self.faults else None
        if fault is not None and fault is not Fault.LOST_ANSWER:
            record.kind = "failed"
            raise _error(fault)
        nonce = body.get("nonce")
        seen = (channel_id, nonce) if nonce is not None and body.get("enforce_nonce") else None
        if seen is not None and seen in self._nonces:
            record.kind = "duplicate"  # Discord answers with the message it made the first time
            record.message = self._nonces[seen]
        else:
            record.kind = "message"
            record.message = self.message_payload(channel_id, body)
            if seen is not None:
                self._nonces[seen] = record.message
        if fault is Fault.LOST_ANSWER:
            raise _error(fault)
        return record.message

    def _new_thread(self, thread_id: int, parent_id: int, body: dict) -> dict:
        thread = thread_channel(thread_id, parent_id, body["name"])
        self.channels[thread_id] = thread
        return thread

    async def _webhook(self, route, *, payload=None, multipart=None, files=None, params=None) -> Any:
        body = payload if payload is not None else _payload_json(multipart) or {}
        token = route.webhook_token
        channel_id = self._interaction_channels[token]
        record = Sent("webhook", channel_id, body, _files(files))
        self.sent.append(record)
        if self._answers_left is not None and self._answers_left <= 0:
            record.kind = "expired"
            response = cast(Any, SimpleNamespace(status=404, reason="Not Found"))
            raise discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})
        if self._answers_left is not None:
            self._answers_left -= 1
        method, path = route.method, route.path
        if path.endswith("/callback"):
            kind = body["type"]
            record.kind = {4: "respond", 5: "defer", 6: "defer", 7: "update", 8: "autocomplete"}[kind]
            answer = {"interaction": {"id": str(route.webhook_id), "type": 2,
                                      "response_message_loading": kind == 5,
                                      "response_message_ephemeral": bool((body.get("data") or {}).get("flags", 0)
                                                                         & EPHEMERAL)}}
            if kind in (4, 5):
                message = self.message_payload(channel_id, body.get("data") or {})
                self._originals[token] = int(message["id"])
                answer["interaction"]["response_message_id"] = message["id"]
                if kind == 4:
                    record.message = message
                    answer["resource"] = {"type": kind, "message": message}
            return answer
        if method == "POST":
            record.kind = "followup"
            original = self._originals.pop(token, None)  # the first followup fills a thinking message
            record.message = self.message_payload(channel_id, body, message_id=original)
            return record.message
        if method == "PATCH" and path.endswith("/@original"):
            record.kind = "edit_original"
            return self.message_payload(channel_id, body)
        if method == "DELETE" and path.endswith("/@original"):
            record.kind = "delete_original"
            self._originals.pop(token, None)
            return None
        raise AssertionError(f"unexpected webhook request {method} {route.url}")


class _Webhooks(AsyncWebhookAdapter):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(self, route, session, *, payload=None, multipart=None, files=None, params=None, **_):
        return await self.fake._webhook(route, payload=payload, multipart=multipart, files=files, params=params)


def log_in(bot: discord.Client) -> None:
    """Makes the bot logged in as far as discord.py can tell, without a connection."""
    me = cast("user_types.User", MAKRUK.user() | {"bot": True})
    bot._connection.user = discord.ClientUser(state=bot._connection, data=me)
    bot._connection.application_id = APP_ID


async def settle() -> None:
    """Waits until every task the bot started has finished."""
    current = asyncio.current_task()
    for _ in range(100):
        pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()
                   and not t.get_name().startswith("scheduler")]
        if not pending:
            return
        await asyncio.wait(pending, timeout=10)
    raise AssertionError("tasks kept running")


def _error(fault: Fault) -> Exception:
    """What discord.py's ``HTTPClient.request`` raises for ``fault``."""
    if fault is Fault.RATE_LIMITED:
        return discord.RateLimited(RETRY_AFTER)
    if fault in (Fault.TIMEOUT, Fault.LOST_ANSWER):
        return TimeoutError()
    status, reason = (403, "Forbidden") if fault is Fault.FORBIDDEN else (500, "Internal Server Error")
    response = cast(Any, SimpleNamespace(status=status, reason=reason))
    if fault is Fault.FORBIDDEN:
        return discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})
    return discord.DiscordServerError(response, {"code": 0, "message": "500: Internal Server Error"})


def _payload_json(form) -> dict | None:
    for part in form or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _files(files) -> list[tuple[str, bytes]]:
    out = []
    for file in files or []:
        file.reset()
        out.append((file.filename, file.fp.read()))
        file.reset()
    return out
