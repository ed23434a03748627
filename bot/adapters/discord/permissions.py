"""What Discord lets whom do here: Manage Server for a server's settings, threads for game boards.

Discord's own default permission on ``/makruk-server`` can be changed by a server, and typed
text is a second way to the same settings, so both are checked again on every use.
"""

from __future__ import annotations

import discord
from discord import app_commands

from ...commands import parse_command
from ...i18n import Catalog

# Commands that change a server's settings.
SERVER_SETTINGS = frozenset({"lang", "notices", "subscribe", "unsubscribe"})


def require_manage_guild(interaction: discord.Interaction) -> bool:
    """A command's check: in a server, by a member with Manage Server; else ``MissingPermissions``."""
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise app_commands.MissingPermissions(["manage_guild"])
    return True


def is_server_setting(text: str, catalog: Catalog) -> bool:
    """Whether typed ``text`` is a command that changes the server's settings."""
    command = parse_command(text, catalog)
    return command is not None and command.name in SERVER_SETTINGS


def may_manage(message: discord.Message) -> bool:
    """Whether the author has Manage Server here; when Discord's cache cannot tell, no."""
    if not isinstance(message.author, discord.Member):
        return False
    try:
        return message.channel.permissions_for(message.author).manage_guild
    except Exception:  # e.g. a partial channel or a guild not in the cache
        return False


def may_open_threads(permissions: discord.Permissions) -> bool:
    """Whether the bot may open a public thread and post in it."""
    return permissions.create_public_threads and permissions.send_messages_in_threads

