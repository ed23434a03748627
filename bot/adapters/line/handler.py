"""LINE events in, the game service's answers out: events -> Incoming -> replies -> LINE messages.

It translates and never decides: who may move, what a text means and what to say are the
service's business. A reply token answers the event at once (the engine's move comes in the
same answer), and carries whatever the chat's outbox holds for it (a reminder, the daily
puzzle): replies are free. What no reply can carry is left to the outbox, which pushes it
(``push.py``); pushes count against the channel's monthly quota.

An event handled again after its process died (``retried``) answers with its reply token
too. LINE refuses a token used before, so a refusal of a fresh token means the dead process
had shown the answer: it is not pushed again.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import aiohttp
from linebot.v3.messaging import ApiException  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed
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

from storage import Storage, StorageBusy

from ...i18n import Catalog
from ...messages import Action, Incoming, Notice, Reply, User
from ...services.games import GameService
from ...services.outbox import Outbox
from .api import Message, MessagingCalls
from .inbox import acting
from .profiles import Profiles
from .push import Pusher
from .replies import MAX_MESSAGES, Chat, Composer

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 15.0  # seconds per reply
# A reply token younger than this is certainly still valid (LINE keeps them about a minute):
# refused, it was used.
FRESH_TOKEN_SECONDS = 50.0
Replied = Literal["shown", "spent", "failed"]
DRAWN_COMMANDS = frozenset({"board", "flip", "select"})  # they ask for the picture, in a tournament game too


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


class LineHandler:
    """Turns one event into the service's ``Incoming`` and shows the answer, in the chat's turn."""

    def __init__(self, games: GameService, storage: Storage, api: MessagingCalls, profiles: Profiles,
                 composer: Composer, pusher: Pusher, outbox: Outbox, catalog: Catalog, *, language: str = "th",
                 owed: Callable[[], None] | None = None, timeout: float = REQUEST_TIMEOUT) -> None:
        self.games = games
        self.storage = storage
        self.api = api
        self.profiles = profiles
        self.composer = composer
        self.pusher = pusher
        self.outbox = outbox
        self.catalog = catalog
        self.language = language
        self.timeout = timeout
        self._owed = owed  # called when the outbox has something to push at once

    def chat_of(self, event: Event) -> str | None:
        """The chat an event belongs to, if it is one the door answers (a text message in an
        active chat, a follow, a join); None for the rest (stickers, unfollows, standby mode)."""
        if isinstance(event, MessageEvent):
            if not isinstance(event.message, TextMessageContent):
                return None
        elif not isinstance(event, (FollowEvent, JoinEvent)):
            return None
        if event.mode != "active":
            return None
        place = place_of(event.source)
        return place.channel if place is not None else None

    async def handle(self, event: Event, retried: bool = False) -> list[str]:
        """One event, in its chat's turn; ``retried``: taken again after its process died.
        Returns the keys of the outbox's notices the answer showed: the inbox marks them sent
        as it finishes the event (``Storage.take_event``), in the commit it makes anyway."""
        place = place_of(event.source) if self.chat_of(event) is not None else None
        if place is None:
            return []
        if isinstance(event, MessageEvent):
            return await self._message(event, place, retried)
        return await self._welcome(event, place, retried)

    # --- events -----------------------------------------------------------------------

    async def _message(self, event: MessageEvent, place: Place, retried: bool) -> list[str]:
        user_id = event.source.user_id
        if not user_id:
            return []  # LINE hides who wrote (old clients): they cannot play
        text, mentions, to_bot = await self._read_mentions(event.message, place)
        user = User(user_id, await self._name(user_id, place))
        addressed = place.one_to_one or to_bot or text.lstrip().startswith(("/", "!"))
        incoming = Incoming("line", place.channel, user, text, community=place.community, mentions=mentions,
                            addressed=addressed, pictures=False, event=event.webhook_event_id, retried=retried,
                            redeliverable=True, private=place.one_to_one)
        acting()  # from here on the event counts as handled, also if cut short
        return await self._answer(event.reply_token, place, await self.games.handle(incoming), answered=user,
                                  again=self._again(event, retried), drawn=self._asks_board(text))

    async def _welcome(self, event: FollowEvent | JoinEvent, place: Place, retried: bool) -> list[str]:
        who = User(getattr(event.source, "user_id", None) or "", "")
        acting()
        replies = await self.games.handle(Incoming("line", place.channel, who, "help", community=place.community,
                                                   pictures=False, event=event.webhook_event_id, retried=retried,
                                                   redeliverable=True))
        language = replies[0].language if replies else self.language
        text = functools.partial(self.catalog.text, language)
        actions = (
            Action(text("line.command.play_bot"), text("line.action.play_bot")),
            Action("help", text("line.action.help")),
        )
        welcome = Reply(kind="welcome", text=text("line.welcome"), language=language)
        answer = [welcome, *replies]
        answer[-1] = dataclasses.replace(answer[-1], actions=actions)
        return await self._answer(event.reply_token, place, answer, answered=None, again=self._again(event, retried))

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
        try:
            known = await self.storage.find_player("line", user_id)
        except StorageBusy:
            known = None
        if known is not None and known.display_name:
            return known.display_name
        return self.catalog.text(self.language, "line.someone", tag=user_id[-4:])

    def _asks_board(self, text: str) -> bool:
        """Whether the message asks to see the board (``board``, ``flip``, a tap on a piece):
        then a tournament game's board is drawn in a group too, where moves are one line."""
        words = text.split(maxsplit=1)
        return bool(words) and self.catalog.command_for(words[0].lstrip("/!")) in DRAWN_COMMANDS

    def _again(self, event: Event, retried: bool) -> bool:
        """Whether the event is handled again while its reply token is surely still fresh."""
        stamp = getattr(event, "timestamp", None)
        if not retried or not isinstance(stamp, int):
            return False
        return self.games.clock.now().timestamp() - stamp / 1000 < FRESH_TOKEN_SECONDS

    # --- answering --------------------------------------------------------------------

    async def _answer(self, reply_token: str | None, place: Place, replies: Sequence[Reply], *,
                      answered: User | None, carry: bool = True, again: bool = False, drawn: bool = False) -> list[str]:
        """Shows ``replies`` with the event's reply token, and with them (``carry``) the chat's
        notices that wait in the outbox, as many as fit, oldest first: a reply is free, a push
        is not. What LINE does not take this way goes to the outbox, which pushes it.
        ``again``: the event is handled again, soon after a process died with it, so a token
        LINE calls used was used by that process, to show this answer. Returns the keys of the
        outbox's notices shown, to be marked sent."""
        if not reply_token:
            await self._owe(place, replies)
            return []
        chat = Chat(place.channel, place.one_to_one)
        async with self.pusher.locks.hold(place.channel):  # the outbox pushes nothing here meanwhile
            messages = await self.composer.messages(replies, chat, answered, drawn=drawn) if replies else []
            riding = await self._riding(place, replies, MAX_MESSAGES - len(messages)) if carry else []
            sent = _joined(messages, [m for _, notice_messages in riding for m in notice_messages])
            if not sent:
                return []
            replied = await self._reply(reply_token, sent)
            if replied == "spent" and again:
                log.info("the answer in %s was shown before its process died", place.channel)
                riding = []  # what rides now did not ride then: it is left to the outbox
            shown = replied == "shown" or (replied == "spent" and again)
            keys = [r.outbox_key for r in replies if r.outbox_key] + [n.key for n, _ in riding if n.key]
            if shown:
                self.pusher.shown(keys)  # until they are marked, the outbox must not push them
        if not shown:
            await self._owe(place, replies)
            return []
        return keys

    async def _riding(self, place: Place, replies: Sequence[Reply], room: int) -> list[tuple[Notice, list[Message]]]:
        """The chat's waiting notices that fit in ``room`` messages, oldest first (one that does
        not fit stops the rest: a chat's notices keep their order)."""
        if room <= 0:
            return []
        own = {r.outbox_key for r in replies if r.outbox_key}
        try:
            waiting = await self.outbox.pending_for(
                place.channel, skip=lambda key: key in own or self.pusher.was_shown(key))
        except Exception as error:  # a busy database: the outbox pushes them later instead
            log.warning("could not read the waiting notices of %s: %r", place.channel, error)
            return []
        chat = Chat(place.channel, place.one_to_one)
        riding = []
        for notice in waiting:
            messages = await self.composer.messages([notice.reply], chat, answered=None)
            if len(messages) > room:
                break
            riding.append((notice, messages))
            room -= len(messages)
        return riding

    async def _reply(self, reply_token: str, messages: list[Message]) -> Replied:
        """Whether LINE took the reply, refused its token as used or expired (``spent``: a
        reply token is single-use and expires soon), or failed otherwise."""
        try:
            await self.api.reply(reply_token, messages, timeout=self.timeout)
            return "shown"
        except ApiException as error:
            if _token_spent(error):
                log.info("LINE did not take the reply token (%s); the outbox pushes the answer", error.status)
                return "spent"
            if (error.status or 0) >= 500:
                log.info("LINE did not take the reply (%s); the outbox pushes it", error.status)
            else:
                log.error("LINE refused a reply: %s %s", error.status, error.body)
        except (TimeoutError, aiohttp.ClientError) as error:
            log.warning("could not reach LINE to reply (%r); the outbox pushes it", error)
        return "failed"

    async def _owe(self, place: Place, replies: Sequence[Reply]) -> None:
        """Hands replies no reply could show to the outbox, which pushes them in their order."""
        if not replies:
            return
        try:
            await self.games.undelivered("line", place.channel, replies)
        except Exception:
            log.exception("could not hand replies for %s to the outbox", place.channel)
            return
        if self._owed is not None:
            self._owed()


def _joined(answer: list[Message], notices: list[Message]) -> list[Message]:
    """The answer, then the notices; the answer's quick replies (or else the last notice's)
    go on the last message, the only one LINE shows them under."""
    if not notices:
        return answer
    messages = answer + notices
    quick = next((m["quickReply"] for m in reversed(answer) if m.get("quickReply") is not None), None)
    quick = quick or messages[-1].get("quickReply")
    for message in messages:
        message.pop("quickReply", None)
    if quick is not None:
        messages[-1]["quickReply"] = quick
    return messages


def _token_spent(error: ApiException) -> bool:
    """Whether LINE refused the reply token itself (used before, or expired)."""
    return error.status == 400 and "reply token" in str(error.body or "").lower()



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
