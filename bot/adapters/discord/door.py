"""The Discord door: interactions and mentions in, the game service's replies out.

It translates and decides nothing about games: every command, button and select becomes one
line of chat text for ``GameService.handle``; the replies are shown where they belong.

Channels. The service keeps one game per channel key. The key is the Discord channel where the
command was used, except in a game thread this bot created: that thread belongs to its parent
channel, so the game, its commands and its settings stay the parent's. When a game starts in a
text channel (and the bot may create public threads there), a short header is posted in the
channel, a thread is opened on it and the boards go to the thread; commands used in the parent
channel send their boards there too. Without that permission, in DMs and in other threads,
everything stays where it was said.

Nothing is lost. What the service owes a chat on its own (the bot's move, reminders, results on
time, the daily puzzle) comes from the outbox through ``send``, with the notice's key as the
message nonce so that a retry never shows twice. Replies the door showed are reported to the
service (``GameService.delivered``); replies it could not show (the interaction expired, Discord
failed) are handed to the outbox (``GameService.undelivered``), which posts them later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from typing import Final

import aiohttp
import discord
from discord import app_commands

from ...config import Settings
from ...i18n import Catalog, normalize_language
from ...messages import GameView, Incoming, Notice, Reply, User
from ...services.games import GameService, MoveChoice
from ...services.outbox import DeliveryError
from ...web.links import player_link
from ...web.tokens import TOKEN_LIFETIME
from .permissions import is_server_setting, may_manage
from .render import Outgoing, Renderer
from .sinks import MessageSink, Responder, Sink
from .threads import GameThreads
from .tournaments import ScheduledEvents, is_schedule, is_tournament, opens_thread
from .views import LOOK_COMMANDS
from .words import matching_moves, strip_mentions

log = logging.getLogger(__name__)

PLATFORM: Final = "discord"
DEFER_AFTER = 2.0  # seconds: Discord drops an interaction that is not answered within 3
MAX_AUTOCOMPLETE = 25
SEND_SECONDS = 60.0  # one notice may take this long (discord.py's own retries included), then it waits
# What Discord or the network may throw while we show something: the message may simply not be there.
NETWORK_ERRORS: Final = (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, TimeoutError, OSError)


class Door:
    def __init__(self, bot: discord.Client, games: GameService | None, catalog: Catalog, settings: Settings) -> None:
        """``games`` may be None only for a bot that lists its commands and never answers one."""
        self.bot = bot
        self._games = games
        self.catalog = catalog
        self.settings = settings
        self.render = Renderer(catalog, web_board=bool(settings.public_base_url and settings.web_secret))
        self.threads = GameThreads(bot)
        self.events = ScheduledEvents()
        # What the service owes Discord's chats, posted through ``send`` (the scheduler drains it).
        self.outbox = games.outbox(PLATFORM, self.send) if games is not None else None

    @property
    def games(self) -> GameService:
        if self._games is None:
            raise RuntimeError("this bot was built without a game service: it can only list its commands")
        return self._games

    # --- slash commands -------------------------------------------------------------

    async def command(self, interaction: discord.Interaction, text: str, *,
                      mentions: Sequence[discord.abc.User] = (), slow: bool = False) -> None:
        """Sends ``text`` to the service as the user's message and shows the replies.
        ``slow``: the engine may answer, so the interaction is deferred before anything else."""
        responder = Responder.of(interaction)
        if slow:
            await responder.defer()
        msg = self.incoming(interaction, text, mentions)
        replies = await self._in_time(responder, self.games.handle(msg))
        await self.deliver(responder, replies)

    async def move(self, interaction: discord.Interaction, move: str) -> None:
        # Only a player to move can set the engine thinking; anyone else gets a quick private refusal.
        slow = bool(await self._choices_of(interaction))
        await self.command(interaction, f"move {move}", slow=slow)

    async def move_options(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """Autocomplete: the user's legal moves matching what was typed, in SAN, Thai and UCI."""
        choices = await self._choices_of(interaction)
        return [app_commands.Choice(name=f"{c.san} · {c.thai} · {c.uci}", value=c.uci)
                for c in matching_moves(choices, typed)[:MAX_AUTOCOMPLETE]]

    # --- components -----------------------------------------------------------------

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """Runs a component's work; a failure is logged and the user told, not left hanging."""
        try:
            await work
        except Exception:
            log.exception("component %s failed", interaction.data and interaction.data.get("custom_id"))
            await self.fail(interaction)

    async def press(self, interaction: discord.Interaction, command: str) -> None:
        """A button: its command, as if typed. Looking at the board is answered privately."""
        responder = Responder.of(interaction)
        await responder.defer()
        replies = await self.games.handle(self.incoming(interaction, command))
        await self.deliver(responder, replies, private=command in LOOK_COMMANDS)
        if command in ("accept", "decline") and not any(r.error for r in replies):
            await self._clear_components(responder)  # the challenge is answered: its buttons are spent

    async def web_board(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Board button: a link to the game's web board signed for the presser, shown to
        them alone. The page decides what they may do there (a player moves, anyone else watches)."""
        language = normalize_language(str(interaction.locale)) or self.settings.language
        link = player_link(self.settings, game_id, PLATFORM, str(interaction.user.id), self.games.clock.now())
        hours = int(TOKEN_LIFETIME.total_seconds() // 3600)
        await Responder.of(interaction).send(
            self.render.note(language, "discord.web.link", game=game_id, link=link, hours=hours), private=True)

    async def pick(self, interaction: discord.Interaction, square: str) -> None:
        """Tap-to-move, first step: the service checks the pick; the player alone sees where it may go."""
        responder = Responder.of(interaction)
        await responder.defer(private=True)
        replies = await self.games.handle(self.incoming(interaction, f"select {square}"))
        board = next((r for r in replies if r.error is None and r.board is not None), None)
        if board is None:
            await self.deliver(responder, replies, private=True)
            return
        choices = await self._choices_of(interaction)
        out = self.render.picked(board, square, choices)
        if out.view is None:
            out = self.render.note(board.language, "discord.error.no_choices")
        await responder.send(out, private=True)

    async def play(self, interaction: discord.Interaction, uci: str) -> None:
        """Tap-to-move, last step: the chosen destination is played as ``move <uci>``."""
        responder = Responder.of(interaction)
        await responder.defer()
        replies = await self.games.handle(self.incoming(interaction, f"move {uci}"))
        await self.deliver(responder, replies)
        if not any(r.error for r in replies):
            await self._clear_components(responder)  # the private picker has done its job

    @staticmethod
    async def _clear_components(responder: Responder) -> None:
        """Spent components off the clicked message; if Discord fails, they merely stay."""
        try:
            await responder.clear_components()
        except NETWORK_ERRORS as error:
            log.warning("could not clear the components in %s: %r", responder.channel_id, error)

    # --- text: mentions of the bot and DMs ---------------------------------------------

    async def message(self, message: discord.Message) -> None:
        """A message that mentions the bot, or a DM: the only text Discord shows a bot without
        the privileged message-content intent."""
        me = self.bot.user
        if me is None or message.author.bot or message.author.id == me.id:
            return
        if message.guild is not None and me.id not in message.raw_mentions:
            return
        others = [u for u in message.mentions if u.id != me.id]
        text = strip_mentions(message.content, me.id, others)
        manager = message.guild is not None and may_manage(message)
        if message.guild is not None and is_server_setting(text, self.catalog) and not manager:
            language = self.settings.language
            await MessageSink(message).send(self.render.note(language, "discord.error.manage_guild"), private=True)
            return
        msg = Incoming(PLATFORM, self.key(message.channel, message.channel.id), self.user(message.author),
                       text or "help", community=str(message.guild.id if message.guild else message.channel.id),
                       mentions=tuple(self.user(u) for u in others), addressed=True, event=str(message.id),
                       manager=manager, game=self.threads.game_of(message.channel, message.channel.id),
                       private=message.guild is None)  # a DM
        replies = await self._typing(message.channel, self.games.handle(msg))
        await self.deliver(MessageSink(message), replies)

    @staticmethod
    async def _typing(channel: discord.abc.Messageable, work: Awaitable[list[Reply]]) -> list[Reply]:
        """The service's replies, with "typing…" shown meanwhile if Discord lets us."""
        task = asyncio.ensure_future(work)
        try:
            async with channel.typing():
                return await task
        except NETWORK_ERRORS as error:  # no typing indicator: the answer matters, not the dots
            log.warning("could not show typing in %s: %r", getattr(channel, "id", None), error)
            return await task

    # --- notices from the outbox ---------------------------------------------------------

    async def send(self, notice: Notice) -> None:
        """The outbox's ``send``: posts a notice in the game's thread (else its channel), with the
        notice's key as the message nonce (discord.py sets ``enforce_nonce``), so a retry within
        Discord's nonce window returns the first message instead of showing a second one.
        Raises ``DeliveryError``: transient for Discord's 5xx, rate limits, timeouts and network
        errors, permanent when the channel is gone or closed to the bot."""
        if notice.platform != PLATFORM:
            raise DeliveryError(f"a {notice.platform} notice reached the Discord door", permanent=True)
        try:
            await asyncio.wait_for(self._post(notice), SEND_SECONDS)
        except NETWORK_ERRORS as error:
            raise delivery_error(error) from error

    async def _post(self, notice: Notice) -> None:
        channel_id = int(notice.channel)
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise DeliveryError(f"nothing can be posted in channel {channel_id} ({type(channel).__name__})",
                                permanent=True)
        reply = notice.reply
        if is_schedule(reply):
            if isinstance(channel, discord.TextChannel):
                await self.events.apply(channel, reply, self.games.clock.now())
            return
        choices: Sequence[MoveChoice] = ()
        if is_tournament(reply):  # an event's notice without a game (pairings, standings) is the channel's
            game = reply.game
            if opens_thread(reply):
                reply, choices = await self._tournament_game(reply)
        else:
            game = reply.game or await self.games.channel_game(PLATFORM, notice.channel)
            choices = await self._turn_choices(notice.channel) if _live_board(reply) else ()

        def message() -> Outgoing:  # a fresh one for each try: a sent file is used up
            return self.render.reply(reply, choices=choices, nonce=notice.key)

        posted = False
        if game is not None and isinstance(channel, discord.TextChannel):
            thread = await self.threads.find(channel, game.id)
            if thread is None and opens_thread(reply):
                names = {"game": game.id, "white": game.white, "black": game.black}
                name = self.render.t(reply.language, "discord.thread.name", **names)
                thread = await self.threads.open(channel, game.id, name, starter=None)
            posted = thread is not None and await self._post_in_thread(thread, game.id, message())
        if not posted:
            await channel.send(**message().kwargs())
        self._retire_ended([reply])

    async def _tournament_game(self, reply: Reply) -> tuple[Reply, Sequence[MoveChoice]]:
        """A tournament game's notice with both players mentioned, and the legal moves of the side
        to move of that game (the chat's casual game is another one)."""
        assert reply.game is not None
        record = await self.games.game_record(reply.game.id)
        if record is None:
            return reply, ()
        players = [User(user_id, record.names[colour]) for colour, user_id in record.user_ids.items() if user_id]
        known = {user.id for user in reply.mentions}
        mentions = (*reply.mentions, *(p for p in players if p.id not in known))
        to_move = record.user_ids.get("w" if record.board.turn else "b")
        live = _live_board(reply) and record.game.status == "active" and to_move is not None
        return replace(reply, mentions=mentions), self.games.choices(record) if live else ()

    # --- showing replies --------------------------------------------------------------

    async def deliver(self, sink: Sink, replies: Sequence[Reply], *, private: bool = False) -> None:
        """Shows each reply: privately if it is private (or ``private``), a game's board in the
        game's thread, anything else where the user spoke. Only the last board gets the piece select.

        Then tells the service what was shown; what could not be shown (the interaction expired,
        Discord failed) goes to the outbox, which posts it in the chat later."""
        shown: list[Reply] = []
        try:
            thread = await self._show(sink, replies, shown, private=private)
        except Exception as error:
            rest = replies[len(shown):]
            key = self.key(sink.channel, sink.channel_id)
            log.warning("could not show %d replies in %s (%r): the outbox posts them later", len(rest), key, error)
            await self.games.undelivered(PLATFORM, key, rest)
            await self.games.delivered(shown)
            if not isinstance(error, NETWORK_ERRORS):
                raise  # a bug of ours: logged and told as usual
            return
        await self.games.delivered(shown)
        self._retire_ended(replies)
        language = replies[-1].language if replies else self.settings.language
        pointer = self.render.note(language, "discord.thread.pointer", thread=thread.mention) if thread else None
        try:
            await sink.close(pointer)
        except NETWORK_ERRORS as error:  # a hint or a "thinking…" left behind: nothing is lost
            log.warning("could not close the answer in %s: %r", sink.channel_id, error)
        await self._carry(self.key(sink.channel, sink.channel_id))

    async def _carry(self, key: str) -> None:
        """What the chat is still owed follows the bot's answer there (``Outbox.carry``)."""
        if self.outbox is not None:
            await self.outbox.carry(key, self.send)

    async def _show(self, sink: Sink, replies: Sequence[Reply], shown: list[Reply], *,
                    private: bool) -> discord.Thread | None:
        """Shows the replies in order, adding each to ``shown``; the game thread a board went to."""
        last_board = max((i for i, r in enumerate(replies) if _live_board(r)), default=None)
        thread = None
        for i, reply in enumerate(replies):
            choices = await self._board_choices(sink, reply) if i == last_board else ()
            out = self.render.reply(reply, choices=choices)
            if private or reply.private:
                await sink.send(out, private=True)
            elif reply.game is None or reply.board is None:
                await sink.send(out, private=False)
            else:
                target = await self._game_thread(sink, reply.game, reply.language)
                if target is not None and await self._post_in_thread(target, reply.game.id, out):
                    thread = target
                else:
                    if target is not None:
                        out = self.render.reply(reply, choices=choices)  # the failed send used up the file
                    await sink.send(out, private=False)
            shown.append(reply)
        return thread

    def _retire_ended(self, replies: Sequence[Reply]) -> None:
        """Forgets the threads of games that these replies show over."""
        for reply in replies:
            if reply.game is not None and reply.game.status not in ("active", "challenge"):
                self.threads.retire(reply.game.id)

    async def _game_thread(self, sink: Sink, game: GameView, language: str) -> discord.Thread | None:
        """The thread the game's board goes to, opened when the game starts; None: answer in place."""
        channel = sink.channel
        if isinstance(channel, discord.Thread):
            if self.threads.owns(channel):
                self.threads.remember(game.id, channel)
            return None
        if not isinstance(channel, discord.TextChannel):
            return None
        thread = await self.threads.find(channel, game.id)
        if thread is not None or game.status != "active" or not sink.may_create_threads():
            return thread
        names = {"game": game.id, "white": game.white, "black": game.black}
        starter = await sink.send(Outgoing(content=self.render.t(language, "discord.thread.header", **names)),
                                  private=False)
        name = self.render.t(language, "discord.thread.name", **names)
        return await self.threads.open(channel, game.id, name, starter)

    async def _post_in_thread(self, thread: discord.Thread, game_id: int, out: Outgoing) -> bool:
        """Posts in the game's thread; False if Discord refuses (deleted, or locked by a moderator)."""
        try:
            await thread.send(**out.kwargs())
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("could not post in thread %s of game %s: %s", thread.id, game_id, error)
            self.threads.forget(game_id)
            return False
        return True

    async def _board_choices(self, sink: Sink, reply: Reply) -> Sequence[MoveChoice]:
        """The piece select's moves: the channel's game's, unless the board is of another game
        played in its own thread (a tournament's: the chat's casual game is a different one)."""
        key = self.key(sink.channel, sink.channel_id)
        game = reply.game
        if game is not None and self.threads.game_of(sink.channel, sink.channel_id) == game.id:
            casual = await self.games.channel_game(PLATFORM, key)
            if casual is None or casual.id != game.id:
                return (await self._tournament_game(reply))[1]
        return await self._turn_choices(key)

    async def _turn_choices(self, key: str) -> list[MoveChoice]:
        """The legal moves of the side to move in the channel's game, for the piece select."""
        return await self.games.turn_choices(PLATFORM, key)

    async def _choices_of(self, interaction: discord.Interaction) -> list[MoveChoice]:
        """The user's own legal moves, if it is their turn."""
        return await self.games.move_choices(PLATFORM, self.key(interaction.channel, interaction.channel_id),
                                             self.user(interaction.user))

    async def _in_time(self, responder: Responder, work: Awaitable[list[Reply]]) -> list[Reply]:
        """The service's replies; the interaction is deferred if they take longer than Discord waits."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done:
            try:
                await responder.defer()
            except NETWORK_ERRORS as error:  # the work goes on; its replies reach the chat through the outbox
                log.warning("could not defer an interaction in %s: %r", responder.channel_id, error)
        return await task

    async def refuse(self, interaction: discord.Interaction, key: str) -> None:
        """A refusal of the adapter's own (a missing Discord permission), shown to the user only."""
        language = normalize_language(str(interaction.locale)) or self.settings.language
        responder = Responder.of(interaction)
        await responder.send(self.render.note(language, key), private=True)

    async def fail(self, interaction: discord.Interaction) -> None:
        """Tells the user that something broke on our side; if even that fails, nobody is left to tell."""
        try:
            await self.refuse(interaction, "error.internal")
        except discord.HTTPException:
            pass

    # --- Discord to service values ----------------------------------------------------

    def incoming(self, interaction: discord.Interaction, text: str,
                 mentions: Sequence[discord.abc.User] = ()) -> Incoming:
        return Incoming(
            PLATFORM,
            self.key(interaction.channel, interaction.channel_id),
            self.user(interaction.user),
            text,
            community=str(interaction.guild_id or interaction.channel_id),
            mentions=tuple(self.user(u) for u in mentions),
            locale=str(interaction.locale),
            addressed=True,
            event=str(interaction.id),
            manager=interaction.guild_id is not None and interaction.permissions.manage_guild,
            game=self.threads.game_of(interaction.channel, interaction.channel_id),
            private=True,  # a private reply is ephemeral
        )

    def key(self, channel: object, channel_id: int | None) -> str:
        """The service's channel for a Discord channel: a game thread of this bot is its parent's."""
        if isinstance(channel, discord.Thread) and channel.parent_id and self.threads.owns(channel):
            return str(channel.parent_id)
        parent = self.threads.parent_of(channel_id)  # a game thread Discord described only partly
        return str(parent or channel_id)

    @staticmethod
    def user(user: discord.abc.User) -> User:
        return User(str(user.id), user.display_name)


def delivery_error(error: BaseException) -> DeliveryError:
    """What a failure to post means for the outbox: try again (when), or never.

    >>> delivery_error(discord.RateLimited(42.0)).retry_after
    42.0
    """
    if isinstance(error, DeliveryError):
        return error
    if isinstance(error, discord.RateLimited):  # discord.py waits out short limits itself
        return DeliveryError(str(error), retry_after=error.retry_after)
    if isinstance(error, (discord.Forbidden, discord.NotFound)):
        return DeliveryError(f"{error.status} {error.text or error}", permanent=True)  # gone, or closed to us
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return DeliveryError(f"429 {error.text}", retry_after=_retry_after(error))
        # 5xx (discord.py tried a few times already); any other 4xx is refused the same way again
        return DeliveryError(f"{error.status} {error.text}", permanent=error.status < 500)
    return DeliveryError(repr(error))  # a timeout or a network error: try again


def _retry_after(error: discord.HTTPException) -> float | None:
    headers = getattr(error.response, "headers", None) or {}
    try:
        return float(headers.get("Retry-After", ""))
    except ValueError:
        return None


def _live_board(reply: Reply) -> bool:
    """A running game's board: it gets the piece select."""
    return reply.board is not None and reply.game is not None and reply.game.status == "active" and not reply.error
