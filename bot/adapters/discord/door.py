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
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Sequence

import discord
from discord import app_commands

from ...commands import parse_command
from ...config import Settings
from ...i18n import Catalog, normalize_language
from ...messages import Incoming, Notice, Reply, User
from ...services.games import GameService, MoveChoice
from .render import Outgoing, Renderer
from .views import LOOK_COMMANDS

log = logging.getLogger(__name__)

PLATFORM = "discord"
DEFER_AFTER = 2.0  # seconds: Discord drops an interaction that is not answered within 3
THREAD_ARCHIVE_MINUTES = 10080  # a week: correspondence games move slowly
MAX_AUTOCOMPLETE = 25
ARCHIVED_THREADS_SEARCHED = 50
_THAI_DIGITS = str.maketrans("๐๑๒๓๔๕๖๗๘๙", "0123456789")


class Door:
    def __init__(self, bot: discord.Client, games: GameService | None, catalog: Catalog, settings: Settings) -> None:
        self.bot = bot
        self.games = games
        self.catalog = catalog
        self.settings = settings
        self.render = Renderer(catalog)
        self.threads = GameThreads(bot)

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
        slow = bool(await self.games.move_choices(PLATFORM, self.key(interaction.channel, interaction.channel_id),
                                                  self.user(interaction.user)))
        await self.command(interaction, f"move {move}", slow=slow)

    async def move_options(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """Autocomplete: the user's legal moves matching what was typed, in SAN, Thai and UCI."""
        choices = await self.games.move_choices(PLATFORM, self.key(interaction.channel, interaction.channel_id),
                                                self.user(interaction.user))
        return [app_commands.Choice(name=f"{c.san} · {c.thai} · {c.uci}", value=c.uci)
                for c in matching_moves(choices, typed)[:MAX_AUTOCOMPLETE]]

    # --- components -----------------------------------------------------------------

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """Runs a component's work; a failure is logged and the user told, not left hanging."""
        try:
            await work
        except Exception:
            log.exception("component %s failed", interaction.data and interaction.data.get("custom_id"))
            try:
                await self.refuse(interaction, "error.internal")
            except discord.HTTPException:
                pass

    async def press(self, interaction: discord.Interaction, command: str) -> None:
        """A button: its command, as if typed. Looking at the board is answered privately."""
        responder = Responder.of(interaction)
        await responder.defer()
        replies = await self.games.handle(self.incoming(interaction, command))
        await self.deliver(responder, replies, private=command in LOOK_COMMANDS)
        if command in ("accept", "decline") and not any(r.error for r in replies):
            await responder.clear_components()  # the challenge is answered: its buttons are spent

    async def pick(self, interaction: discord.Interaction, square: str) -> None:
        """Tap-to-move, first step: the service checks the pick; the player alone sees where it may go."""
        responder = Responder.of(interaction)
        await responder.defer(private=True)
        replies = await self.games.handle(self.incoming(interaction, f"select {square}"))
        board = next((r for r in replies if r.error is None and r.board is not None), None)
        if board is None:
            await self.deliver(responder, replies, private=True)
            return
        choices = await self.games.move_choices(PLATFORM, self.key(interaction.channel, interaction.channel_id),
                                                self.user(interaction.user))
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
            await responder.clear_components()  # the private picker has done its job

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
        text = _strip_mentions(message.content, me.id, others)
        if message.guild is not None and _is_server_setting(text, self.catalog) and not _may_manage(message):
            language = self.settings.language
            await MessageSink(message).send(self.render.note(language, "discord.error.manage_guild"), private=True)
            return
        msg = Incoming(PLATFORM, self.key(message.channel, message.channel.id), self.user(message.author),
                       text or "help", community=str(message.guild.id if message.guild else message.channel.id),
                       mentions=tuple(self.user(u) for u in others), addressed=True)
        async with message.channel.typing():
            replies = await self.games.handle(msg)
        await self.deliver(MessageSink(message), replies)

    # --- notices from the scheduler ---------------------------------------------------

    async def notice(self, notice: Notice) -> None:
        """A reminder or a result on time, posted in the game's thread (else its channel)."""
        if notice.platform != PLATFORM:
            return
        channel_id = int(notice.channel)
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        game = notice.reply.game or await self.games.channel_game(PLATFORM, notice.channel)
        target = channel
        if game is not None and isinstance(channel, discord.TextChannel):
            target = await self.threads.find(channel, game.id) or channel
        choices = await self._turn_choices(notice.channel) if _live_board(notice.reply) else ()
        await target.send(**self.render.reply(notice.reply, choices=choices).kwargs())

    # --- showing replies --------------------------------------------------------------

    async def deliver(self, sink: Responder | MessageSink, replies: Sequence[Reply], *, private: bool = False) -> None:
        """Shows each reply: privately if it is private (or ``private``), a game's board in the
        game's thread, anything else where the user spoke. Only the last board gets the piece select."""
        last_board = max((i for i, r in enumerate(replies) if _live_board(r)), default=None)
        thread = None
        for i, reply in enumerate(replies):
            choices = await self._turn_choices(sink.key(self)) if i == last_board else ()
            out = self.render.reply(reply, choices=choices)
            if private or reply.private:
                await sink.send(out, private=True)
                continue
            target = await self._game_thread(sink, reply)
            if target is not None:
                try:
                    await target.send(**out.kwargs())
                    thread = target
                    continue
                except (discord.Forbidden, discord.NotFound) as error:  # deleted, or locked by a moderator
                    log.warning("could not post in thread %s of game %s: %s", target.id, reply.game.id, error)
                    self.threads.forget(reply.game.id)
                    out = self.render.reply(reply, choices=choices)  # the failed send used up the file
            await sink.send(out, private=False)
        language = replies[-1].language if replies else self.settings.language
        await sink.close(self.render.note(language, "discord.thread.pointer", thread=thread.mention) if thread else None)

    async def _game_thread(self, sink: Responder | MessageSink, reply: Reply) -> discord.Thread | None:
        """The thread a game's board goes to, opened when a game starts; None: answer in place."""
        game, channel = reply.game, sink.channel
        if game is None or reply.board is None:
            return None
        if isinstance(channel, discord.Thread):
            if channel.owner_id == self._me():
                self.threads.remember(game.id, channel)
            return None
        if not isinstance(channel, discord.TextChannel):
            return None
        thread = await self.threads.find(channel, game.id)
        if thread is not None or game.status != "active" or not sink.may_create_threads():
            return thread
        names = {"game": game.id, "white": game.white, "black": game.black}
        starter = await sink.send(Outgoing(content=self.render.t(reply.language, "discord.thread.header", **names)),
                                  private=False)
        name = self.render.t(reply.language, "discord.thread.name", **names)[:100]
        try:
            if starter is not None:
                thread = await channel.create_thread(name=name, message=starter,
                                                     auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            else:
                thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                     auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as error:
            log.warning("could not open a thread for game %s in %s: %s", game.id, channel.id, error)
            return None
        self.threads.remember(game.id, thread)
        return thread

    async def _turn_choices(self, key: str) -> list[MoveChoice]:
        return await self.games.turn_choices(PLATFORM, key)

    async def _in_time(self, responder: Responder, work: Awaitable[list[Reply]]) -> list[Reply]:
        """The service's replies; the interaction is deferred if they take longer than Discord waits."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done:
            await responder.defer()
        return await task

    async def refuse(self, interaction: discord.Interaction, key: str) -> None:
        """A refusal of the adapter's own (a missing Discord permission), shown to the user only."""
        language = normalize_language(str(interaction.locale)) or self.settings.language
        responder = Responder.of(interaction)
        await responder.send(self.render.note(language, key), private=True)

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
        )

    def key(self, channel, channel_id: int | None) -> str:
        """The service's channel for a Discord channel: a game thread of this bot is its parent's."""
        if isinstance(channel, discord.Thread) and channel.parent_id and channel.owner_id == self._me():
            return str(channel.parent_id)
        parent = self.threads.parent_of(channel_id)  # a game thread Discord described only partly
        return str(parent or channel_id)

    @staticmethod
    def user(user: discord.abc.User) -> User:
        return User(str(user.id), user.display_name)

    def _me(self) -> int | None:
        return self.bot.user.id if self.bot.user else None


class Responder:
    """Answers one interaction, publicly or to the user only, whatever state it is in.

    A component is deferred silently, so each answer is a new message with its own visibility.
    A slash command can only be deferred with a "thinking…" message whose visibility is fixed:
    the first answer of that visibility replaces it; if the first answer has the other one, the
    thinking message is deleted first and the answer follows as a new message.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self._thinking: bool | None = None  # a thinking message waits; True if it is private
        self._spoke = False

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Responder:
        """The interaction's responder (one per interaction: it knows what was already said)."""
        return interaction.extras.setdefault("makruk.responder", cls(interaction))

    @property
    def channel(self):
        return self.interaction.channel

    def key(self, door: Door) -> str:
        return door.key(self.interaction.channel, self.interaction.channel_id)

    def may_create_threads(self) -> bool:
        permissions = self.interaction.app_permissions
        return permissions.create_public_threads and permissions.send_messages_in_threads

    async def defer(self, *, private: bool = False) -> None:
        response = self.interaction.response
        if response.is_done():
            return
        if self.interaction.type is discord.InteractionType.component and not private:
            await response.defer()
        else:
            await response.defer(thinking=True, ephemeral=private)
            self._thinking = private

    async def send(self, out: Outgoing, *, private: bool) -> discord.Message | None:
        self._spoke = True
        response = self.interaction.response
        if not response.is_done():
            callback = await response.send_message(ephemeral=private, **out.kwargs())
            return callback.resource if isinstance(callback.resource, discord.Message) else None
        if self._thinking is not None and self._thinking != private:
            await self.interaction.delete_original_response()
        self._thinking = None
        return await self.interaction.followup.send(ephemeral=private, wait=True, **out.kwargs())

    async def clear_components(self) -> None:
        """Takes the components off the message the user clicked."""
        if self.interaction.message is not None:
            await self.interaction.edit_original_response(view=None)

    async def close(self, pointer: Outgoing | None) -> None:
        """After the replies: where the board went, if nothing was said here; no hanging "thinking…"."""
        if not self._spoke and pointer is not None:
            await self.send(pointer, private=True)
        elif self._thinking is not None:
            await self.interaction.delete_original_response()
            self._thinking = None


class MessageSink:
    """Answers a text message in its channel (Discord has no private answers to plain messages)."""

    def __init__(self, message: discord.Message) -> None:
        self.message = message
        self._spoke = False

    @property
    def channel(self):
        return self.message.channel

    def key(self, door: Door) -> str:
        return door.key(self.message.channel, self.message.channel.id)

    def may_create_threads(self) -> bool:
        guild = self.message.guild
        if guild is None or guild.me is None:
            return guild is not None  # unknown here: try, and fall back if Discord refuses
        permissions = self.message.channel.permissions_for(guild.me)
        return permissions.create_public_threads and permissions.send_messages_in_threads

    async def send(self, out: Outgoing, *, private: bool) -> discord.Message:
        first = not self._spoke
        self._spoke = True
        if first:
            return await self.message.reply(**out.kwargs())
        return await self.message.channel.send(**out.kwargs())

    async def close(self, pointer: Outgoing | None) -> None:
        if not self._spoke and pointer is not None:
            await self.send(pointer, private=True)


class GameThreads:
    """The thread of each game: remembered since start-up, else found by its name (``#<game>``)
    among the channel's active and recently archived threads that this bot created."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._threads: dict[int, discord.Thread] = {}
        self._absent: set[int] = set()  # games already looked for in vain

    def remember(self, game_id: int, thread: discord.Thread) -> None:
        self._threads[game_id] = thread
        self._absent.discard(game_id)

    def forget(self, game_id: int) -> None:
        self._threads.pop(game_id, None)
        self._absent.add(game_id)

    def parent_of(self, thread_id: int | None) -> int | None:
        """The channel of a game thread seen since start-up; None for any other channel."""
        return next((t.parent_id for t in self._threads.values() if t.id == thread_id), None)

    async def find(self, channel: discord.TextChannel, game_id: int) -> discord.Thread | None:
        if game_id in self._threads:
            return self._threads[game_id]
        if game_id in self._absent:
            return None
        found = next((t for t in channel.threads if self._is_thread_of(t, game_id)), None)
        if found is None:
            try:
                async for thread in channel.archived_threads(limit=ARCHIVED_THREADS_SEARCHED):
                    if self._is_thread_of(thread, game_id):
                        found = thread
                        break
            except discord.HTTPException:
                pass  # no Read Message History: only active threads are known
        if found is None:
            self._absent.add(game_id)
        else:
            self._threads[game_id] = found
        return found

    def _is_thread_of(self, thread: discord.Thread, game_id: int) -> bool:
        me = self.bot.user.id if self.bot.user else None
        return thread.owner_id == me and re.search(rf"#{game_id}(?!\d)", thread.name) is not None


def matching_moves(choices: Sequence[MoveChoice], typed: str) -> list[MoveChoice]:
    """The moves whose SAN, Thai or UCI form starts with (then contains) what was typed.

    Thai digits match Arabic ones, case and spaces are ignored.
    """
    wanted = _fold(typed)
    if not wanted:
        return list(choices)
    forms = [(c, [_fold(c.san), _fold(c.thai), _fold(c.uci)]) for c in choices]
    starting = [c for c, names in forms if any(n.startswith(wanted) for n in names)]
    containing = [c for c, names in forms if c not in starting and any(wanted in n for n in names)]
    return starting + containing


def _fold(text: str) -> str:
    return "".join(text.translate(_THAI_DIGITS).casefold().split())


def _live_board(reply: Reply) -> bool:
    return reply.board is not None and reply.game is not None and reply.game.status == "active" and not reply.error


def _strip_mentions(content: str, me: int, others: Sequence[discord.abc.User]) -> str:
    """The text of a message without the bot's mention; other users' mentions become ``@name``."""
    text = re.sub(rf"<@!?{me}>", " ", content)
    for user in others:
        name = "".join(user.display_name.split()) or str(user.id)
        text = re.sub(rf"<@!?{user.id}>", f"@{name}", text)
    return " ".join(text.split())


# Commands that change a server's settings: slash commands guard them with Manage Server,
# and typed text must not be a way around that.
SERVER_SETTINGS = frozenset({"lang", "subscribe", "unsubscribe"})


def _is_server_setting(text: str, catalog) -> bool:
    command = parse_command(text, catalog)
    return command is not None and command.name in SERVER_SETTINGS


def _may_manage(message: discord.Message) -> bool:
    """Whether the author has Manage Server here; when Discord's cache cannot tell, no."""
    try:
        return message.channel.permissions_for(message.author).manage_guild
    except Exception:  # e.g. a partial channel or a guild not in the cache
        return False
