"""``makruk-bot discord``: run the Discord bot, print its commands, or register them.

    makruk-bot discord                      run (DISCORD_TOKEN from the environment or .env)
    makruk-bot discord --dump-commands      print the application commands as JSON (offline)
    makruk-bot discord --sync [--guild ID]  register the commands with Discord, then exit
"""

from __future__ import annotations

import argparse
import json
import sys

import discord

from ...app import configure_logging, open_app
from ...config import Settings
from .client import MakrukBot, command_payload


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("discord", help="run the Discord bot (needs DISCORD_TOKEN)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--dump-commands", action="store_true",
                        help="print the application-command payload as JSON (no network, no token)")
    action.add_argument("--sync", action="store_true", help="register the application commands, then exit")
    parser.add_argument("--guild", type=int, metavar="ID",
                        help="with --sync: register in this server only (instant; global takes up to an hour)")


async def main(settings: Settings, args: argparse.Namespace) -> int:
    if getattr(args, "dump_commands", False):
        async with MakrukBot(None, settings) as bot:
            await bot.install()
            print(json.dumps(await command_payload(bot), ensure_ascii=False, indent=2))
        return 0
    if getattr(args, "guild", None) and not getattr(args, "sync", False):
        print("makruk-bot discord: --guild only goes with --sync", file=sys.stderr)
        return 2
    token = settings.discord_token
    if not token:
        print("makruk-bot discord: set DISCORD_TOKEN (in the environment or .env); see docs/discord.md",
              file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if getattr(args, "sync", False):
        return await _sync(settings, token, getattr(args, "guild", None))
    # The bot runs its scheduler itself: the games' clock, the daily puzzles, the outbox.
    async with open_app(settings) as app, MakrukBot(app.games, settings) as bot:
        await bot.start(token)
    return 0


async def _sync(settings: Settings, token: str, guild_id: int | None) -> int:
    async with MakrukBot(None, settings) as bot:
        await bot.login(token)  # runs setup_hook, which installs the commands
        guild = discord.Object(guild_id) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    where = f"server {guild_id}" if guild_id else "every server (global; may take up to an hour to show)"
    print(f"registered {len(synced)} commands in {where}: {', '.join(c.name for c in synced)}")
    return 0
