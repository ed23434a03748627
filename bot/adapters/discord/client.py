"""The Discord bot: an ``AutoShardedBot`` with default intents only (no privileged intents).

``setup_hook`` installs the translator, the command cogs and the persistent components, then
starts the scheduler: the games' clock, the daily puzzles and the outbox, which posts what the
service owes Discord's chats through ``Door.send``. Commands are never synced here:
``makruk-bot discord --sync`` does that once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ...config import Settings
from ...i18n import Catalog
from ...scheduler import Scheduler
from ...services.games import GameService
from ...services.outbox import Outbox
from .commands import DailyPuzzleCommands, PlayCommands, ServerCommands
from .door import PLATFORM, Door
from .tournament_commands import TournamentCommands
from .translate import CatalogTranslator
from .views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

SCHEDULER_SECONDS = 20.0
# A longer rate limit raises RateLimited instead of holding everything up: the outbox retries
# its notice when Discord says; a reply is handed to the outbox. (30 s is discord.py's minimum.)
MAX_RATELIMIT_SECONDS = 30.0


class MakrukTree(app_commands.CommandTree["MakrukBot"]):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        door = self.client.door
        if isinstance(error, app_commands.MissingPermissions):
            await door.refuse(interaction, "discord.error.manage_guild")
            return
        log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                  exc_info=error)
        await door.fail(interaction)


class MakrukBot(commands.AutoShardedBot):
    def __init__(self, games: GameService | None, settings: Settings, *,
                 server_groups: Sequence[app_commands.Group] = (),
                 scheduler_seconds: float | None = SCHEDULER_SECONDS, shard_ids: Sequence[int] | None = None,
                 shard_count: int | None = None) -> None:
        """``games`` may be None only to build the command payload (``--dump-commands``, ``--sync``);
        ``server_groups`` join ``/makruk-server`` (see ``ServerCommands``); ``scheduler_seconds``
        None: no scheduler (tests drain ``outbox`` themselves). ``shard_ids`` of ``shard_count``:
        the shards this process runs (default: all, as many as Discord recommends)."""
        sharding: dict[str, Any] = {}
        if shard_ids is not None:
            sharding = {"shard_ids": list(shard_ids), "shard_count": shard_count}
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, allowed_mentions=discord.AllowedMentions.none(), tree_cls=MakrukTree,
                         max_ratelimit_timeout=MAX_RATELIMIT_SECONDS, **sharding)
        self.settings = settings
        self.catalog = Catalog.load()
        self.door = Door(self, games, self.catalog, settings)
        self.server_groups = (DailyPuzzleCommands(self), *server_groups)
        self.scheduler: Scheduler | None = None
        if games is not None and self.door.outbox is not None and scheduler_seconds:
            # The games' clock, the daily puzzles and the outbox, for Discord's chats only.
            self.scheduler = Scheduler(games.jobs(PLATFORM, self.door.outbox), interval=scheduler_seconds,
                                       wake=games.wake(PLATFORM, self.door.outbox))  # a live game's flag falls on time

    @property
    def outbox(self) -> Outbox | None:
        """What the service owes Discord's chats (None for a bot that only lists its commands)."""
        return self.door.outbox

    async def setup_hook(self) -> None:
        await self.install()
        if self.scheduler is not None:
            self.scheduler.start()

    async def install(self) -> None:
        """Everything that needs no network: translator, commands, persistent components."""
        await self.tree.set_translator(CatalogTranslator(self.catalog))
        await self.add_cog(PlayCommands(self))
        await self.add_cog(ServerCommands(self, self.server_groups))
        await self.add_cog(TournamentCommands(self))
        # Components of messages sent before a restart are dispatched by these, not by stored views.
        self.add_dynamic_items(*DYNAMIC_ITEMS)

    async def close(self) -> None:
        if self.scheduler is not None:
            await self.scheduler.stop()
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def on_message(self, message: discord.Message) -> None:
        await self.door.message(message)


async def command_payload(bot: MakrukBot) -> list[dict]:
    """The application commands as ``CommandTree.sync`` sends them, localized by the translator."""
    translator = bot.tree.translator
    payload = []
    for command in bot.tree.get_commands():
        if translator is None:
            payload.append(command.to_dict(bot.tree))
        else:
            payload.append(await command.get_translated_payload(bot.tree, translator))
    return payload
