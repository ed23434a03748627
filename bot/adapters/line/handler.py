"""LINE events in, the game service's answers out: events -> Incoming -> replies -> LINE messages.

It translates and never decides: who may move, what a text means and what to say are the
service's business. A reply token answers the event at once (the engine's move comes in the
same answer); anything later, or an answer whose token failed, is a push, which counts
against the channel's monthly quota.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import aiohttp
from linebot.v3.messaging import ApiException, AsyncMessagingApi, Message, PushMessageRequest, ReplyMessageRequest  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed
from linebot.v3.webhooks import (  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed
    AllMentionee,
    Event,
    FollowEvent,
    GroupSource,
    JoinEvent,
    MessageEvent,
    RoomSource,
    TextMessageContent,
    UserMentionee,
    UserSource,
)

from storage import Storage

from ...i18n import Catalog
from ...messages import Action, Incoming, Notice, Reply, User
from ...services.games import GameService
from .profiles import Profiles
from .replies import Chat, Composer

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 15.0  # seconds per Messaging API call
PUSH_RETRY_DELAYS = (1.0, 4.0, 15.0)  # after a 5xx or a lost connection, with the same retry key


@dataclass(frozen=True)
class Place:
    """A LINE chat as the service knows it: ``user:U..``, ``group:C..`` or ``room:R..``."""

    channel: str
    target: str  # the id a push goes to
    group_id: str | None = None
    room_id: str | None = None

    @property
    def one_to_one(self) -> bool:
        return self.group_id is None and self.room_id is None

    @property
    def community(self) -> str:
        """The leaderboard's scope: the group or room, or the person in a 1:1 chat."""
        return self.target


def place_of(source) -> Place | None:
    if isinstance(source, GroupSource):
        return Place(f"group:{source.group_id}", source.group_id, group_id=source.group_id)
    if isinstance(source, RoomSource):
        return Place(f"room:{source.room_id}", source.room_id, room_id=source.room_id)
    if isinstance(source, UserSource) and source.user_id:
        return Place(f"user:{source.user_id}", source.user_id)
    return None


def target_of(channel: str) -> str:
    """The LINE id behind a channel key: ``group:C123`` -> ``C123``."""
    return channel.partition(":")[2]


class LineHandler:
    def __init__(self, games: GameService, storage: Storage, api: AsyncMessagingApi, profiles: Profiles,
                 composer: Composer, catalog: Catalog, *, language: str = "th",
                 push_retry_delays: Sequence[float] = PUSH_RETRY_DELAYS) -> None:
        self.games = games
        self.storage = storage
        self.api = api
        self.profiles = profiles
        self.composer = composer
        self.catalog = catalog
        self.language = language
        self.push_retry_delays = tuple(push_retry_delays)

    async def handle(self, events: Sequence[Event]) -> None:
        """Handles one webhook's events in order; one event's failure does not stop the others."""
        for event in events:
            try:
                await self._event(event)
            except Exception:
                log.exception("could not handle LINE event %s", getattr(event, "webhook_event_id", "?"))

    async def deliver(self, notice: Notice) -> None:
        """Sends what the service says on its own (reminders, losses on time) as a push."""
        if notice.platform != "line":
            log.warning("a %s notice reached the LINE door; it is not sent", notice.platform)
            return
        chat = Chat(notice.channel, notice.channel.startswith("user:"))
        messages = await self.composer.messages([notice.reply], chat, answered=None)
        if messages:
            await self.push(target_of(notice.channel), messages)

    # --- events -----------------------------------------------------------------------

    async def _event(self, event: Event) -> None:
        if isinstance(event, MessageEvent):
            if not isinstance(event.message, TextMessageContent):
                return  # stickers, photos: nothing to answer
        elif not isinstance(event, (FollowEvent, JoinEvent)):
            return  # unfollow, leave and the rest: nothing to say
        if event.mode != "active":
            return  # standby: another channel answers this chat
        place = place_of(event.source)
        if place is None:
            return
        if not await self.storage.mark_event_processed(event.webhook_event_id):
            log.info("LINE event %s was handled already (redelivery)", event.webhook_event_id)
            return
        if isinstance(event, MessageEvent):
            await self._message(event, place)
        else:
            await self._welcome(event, place)

    async def _message(self, event: MessageEvent, place: Place) -> None:
        user_id = event.source.user_id
        if not user_id:
            return  # LINE hides who wrote (old clients): they cannot play
        text, mentions, to_bot = await self._read_mentions(event.message, place)
        user = User(user_id, await self._name(user_id, place))
        addressed = place.one_to_one or to_bot or text.lstrip().startswith(("/", "!"))
        incoming = Incoming("line", place.channel, user, text, community=place.community, mentions=mentions,
                            addressed=addressed)
        replies = await self.games.handle(incoming)
        if not replies:
            return
        messages = await self.composer.messages(replies, Chat(place.channel, place.one_to_one), user)
        await self._answer(event.reply_token, place.target, messages)

    async def _welcome(self, event: FollowEvent | JoinEvent, place: Place) -> None:
        who = User(getattr(event.source, "user_id", None) or "", "")
        replies = await self.games.handle(Incoming("line", place.channel, who, "help", community=place.community))
        language = replies[0].language if replies else self.language
        text = functools.partial(self.catalog.text, language)
        actions = (
            Action(text("line.command.play_bot"), text("line.action.play_bot")),
            Action("help", text("line.action.help")),
        )
        welcome = Reply(kind="welcome", text=text("line.welcome"), language=language)
        answer = [welcome, *replies]
        answer[-1] = dataclasses.replace(answer[-1], actions=actions)
        messages = await self.composer.messages(answer, Chat(place.channel, place.one_to_one), answered=None)
        await self._answer(event.reply_token, place.target, messages)

    async def _read_mentions(self, message: TextMessageContent, place: Place) -> tuple[str, tuple[User, ...], bool]:
        """The text with the bot's mention removed and each person's as one ``@word`` (display names
        may hold spaces), the people mentioned in order, and whether the bot was mentioned."""
        text = message.text
        if message.mention is None:
            return text, (), False
        pieces, users, to_bot, end = [], [], False, 0
        for mentionee in sorted(message.mention.mentionees, key=lambda m: m.index):
            span = _span(text, mentionee.index, mentionee.length)
            if span is None or span[0] < end:
                continue
            if isinstance(mentionee, UserMentionee) and mentionee.is_self:
                to_bot, word = True, ""
            elif isinstance(mentionee, UserMentionee) and mentionee.user_id:
                name = await self._name(mentionee.user_id, place)
                users.append(User(mentionee.user_id, name))
                word = "@" + "_".join(name.split())
            elif isinstance(mentionee, AllMentionee):
                word = ""
            else:
                continue  # someone who keeps their id private: their @name stays as written
            pieces += [text[end:span[0]], f" {word} "]
            end = span[1]
        pieces.append(text[end:])
        return " ".join("".join(pieces).split()), tuple(users), to_bot

    async def _name(self, user_id: str, place: Place) -> str:
        name = await self.profiles.name(user_id, group_id=place.group_id, room_id=place.room_id)
        if name:
            return name
        known = await self.storage.find_player("line", user_id)
        if known is not None and known.display_name:
            return known.display_name
        return self.catalog.text(self.language, "line.someone", tag=user_id[-4:])

    # --- sending ----------------------------------------------------------------------

    async def _answer(self, reply_token: str | None, target: str, messages: list[Message]) -> None:
        """A reply with the event's token; a push if LINE no longer takes the token."""
        if not messages:
            return
        if reply_token:
            try:
                await self.api.reply_message(ReplyMessageRequest(reply_token=reply_token, messages=messages),
                                             _request_timeout=REQUEST_TIMEOUT)
                return
            except ApiException as error:
                if not _token_failed(error):
                    log.error("LINE refused a reply: %s %s", error.status, error.body)
                    return
                log.info("the reply token failed (%s); pushing instead", error.status)
            except (TimeoutError, aiohttp.ClientConnectionError) as error:
                log.warning("could not reach LINE to reply (%r); pushing instead", error)
        await self.push(target, messages)

    async def push(self, target: str, messages: list[Message]) -> bool:
        """Pushes ``messages``; retries carry the same ``X-Line-Retry-Key`` so LINE sends them once."""
        retry_key = str(uuid.uuid4())
        for attempt in range(len(self.push_retry_delays) + 1):
            if attempt:
                await asyncio.sleep(self.push_retry_delays[attempt - 1])
            try:
                await self.api.push_message(PushMessageRequest(to=target, messages=messages),
                                            x_line_retry_key=retry_key, _request_timeout=REQUEST_TIMEOUT)
                return True
            except ApiException as error:
                if error.status == 409:
                    return True  # LINE took an earlier try under this key
                if not 500 <= (error.status or 0) <= 599:
                    log.error("LINE refused a push to %s: %s %s", target, error.status, error.body)
                    return False
                log.warning("LINE failed a push to %s (%s); retrying", target, error.status)
            except (TimeoutError, aiohttp.ClientError) as error:
                log.warning("could not reach LINE to push to %s (%r); retrying", target, error)
        log.error("gave up pushing to %s", target)
        return False


def _token_failed(error: ApiException) -> bool:
    """Whether a reply failed for want of a usable token (or on LINE's side), so a push may help."""
    status = error.status or 0
    return status >= 500 or (status == 400 and "reply token" in str(error.body or "").lower())


def _span(text: str, index: int, length: int) -> tuple[int, int] | None:
    """The mention's place in ``text``: LINE counts in UTF-16 units, which differ from Python's
    characters only after an emoji; the span must start with ``@`` either way."""
    if 0 <= index < len(text) and text[index] == "@":
        return index, min(index + length, len(text))
    units = text.encode("utf-16-le")
    try:
        start = len(units[:2 * index].decode("utf-16-le"))
        end = len(units[:2 * (index + length)].decode("utf-16-le"))
    except UnicodeDecodeError:
        return None
    if start < len(text) and text[start] == "@":
        return start, end
    return None
