"""The Discord bot: an ``AutoShardedBot`` with default intents only (no privileged intents).

``setup_hook`` installs the translator, the command cogs and the persistent components, then
starts the scheduler that delivers reminders and results on time. Commands are never synced
here: ``makruk-bot discord --sync`` does that once.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from ...config import Settings
from ...i18n import Catalog
from ...messages import Notice
from ...scheduler import Scheduler
from ...services.games import GameService
from .commands import DailyPuzzleCommands, PlayCommands, ServerCommands
from .door import PLATFORM, Door
from .translate import CatalogTranslator
from .views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

SCHEDULER_SECONDS = 20.0
Job = Callable[[], Awaitable[list[Notice]]]


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
                 server_groups: Sequence[app_commands.Group] = (), jobs: Sequence[Job] = (),
                 scheduler_seconds: float | None = SCHEDULER_SECONDS) -> None:
        """``games`` may be None only to build the command payload (``--dump-commands``, ``--sync``);
        ``server_groups`` join ``/makruk-server`` (see ``ServerCommands``); ``jobs`` run on the
        scheduler besides the games' clock and must return only Discord's notices."""
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, allowed_mentions=discord.AllowedMentions.none(), tree_cls=MakrukTree)
        self.settings = settings
        self.catalog = Catalog.load()
        self.door = Door(self, games, self.catalog, settings)
        self.server_groups = (DailyPuzzleCommands(self), *server_groups)
        self.scheduler = None
        if games is not None and scheduler_seconds:
            clock = functools.partial(games.tick, PLATFORM)  # other doors deliver their own notices
            self.scheduler = Scheduler([clock, *jobs], self.door.notice, interval=scheduler_seconds)

    async def setup_hook(self) -> None:
        await self.install()
        if self.scheduler is not None:
            self.scheduler.start()

    async def install(self) -> None:
        """Everything that needs no network: translator, commands, persistent components."""
        await self.tree.set_translator(CatalogTranslator(self.catalog))
        await self.add_cog(PlayCommands(self))
        await self.add_cog(ServerCommands(self, self.server_groups))
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
