"""``makruk-bot discord``: run the Discord bot, print its commands, or register them.

    makruk-bot discord                      run (DISCORD_TOKEN from the environment or .env)
    makruk-bot discord --shard-ids 0,1 --shard-count 4
                                            run shards 0 and 1 of 4 (N processes carry one bot)
    makruk-bot discord --dump-commands      print the application commands as JSON (offline)
    makruk-bot discord --sync [--guild ID]  register the commands with Discord, then exit
"""

from __future__ import annotations

import argparse
import json
import sys

import discord

from ...app import App, configure_logging, open_app
from ...config import Settings
from ...observability.serving import serving_metrics
from ...web.server import DEFAULT_PORT, drain_soon, serving_board
from .client import MakrukBot, command_payload


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("discord", help="run the Discord bot (needs DISCORD_TOKEN)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--dump-commands", action="store_true",
                        help="print the application-command payload as JSON (no network, no token)")
    action.add_argument("--sync", action="store_true", help="register the application commands, then exit")
    parser.add_argument("--guild", type=int, metavar="ID",
                        help="with --sync: register in this server only (instant; global takes up to an hour)")
    parser.add_argument("--shard-ids", type=shard_ids, metavar="0,1",
                        help="run these shards only (with --shard-count; other processes run the rest)")
    parser.add_argument("--shard-count", type=int, metavar="N", help="how many shards the bot has in all")
    parser.add_argument("--metrics-port", type=int, metavar="PORT",
                        help="serve /healthz and /metrics on this port (docs/operations.md)")
    parser.add_argument("--web", type=int, metavar="PORT",
                        help=f"serve the web board on this port (default {DEFAULT_PORT} when PUBLIC_BASE_URL is set)")
    parser.add_argument("--no-web", action="store_true", help="serve no web board (another door serves it)")


def shard_ids(text: str) -> list[int]:
    try:
        ids = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"shard ids are numbers separated by commas, not {text!r}") from None
    if not ids or ids[0] < 0:
        raise argparse.ArgumentTypeError(f"shard ids are numbers from 0, not {text!r}")
    return ids


def shard_problem(args: argparse.Namespace) -> str | None:
    """Why ``--shard-ids``/``--shard-count`` do not go together, or None."""
    ids, count = getattr(args, "shard_ids", None), getattr(args, "shard_count", None)
    if ids is None and count is None:
        return None
    if ids is None or count is None:
        return "--shard-ids and --shard-count go together"
    if count < 1 or ids[-1] >= count:
        return f"shard ids must be below --shard-count ({count})"
    return None


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
    problem = shard_problem(args)
    if problem:
        print(f"makruk-bot discord: {problem}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings)
    if getattr(args, "sync", False):
        return await _sync(settings, token, getattr(args, "guild", None))
    async with open_app(settings) as app, serving_metrics(app, getattr(args, "metrics_port", None)):
        return await run(app, settings, args)


async def run(app: App, settings: Settings, args: argparse.Namespace) -> int:
    """Runs the bot on an open ``app`` (which ``makruk-bot`` may share with the LINE door) until
    it is closed. The bot runs its scheduler itself: the games' clock, the daily puzzles, the
    outbox; with several processes, each piece of that work is claimed by one of them."""
    assert settings.discord_token is not None
    async with MakrukBot(app.games, settings, shard_ids=getattr(args, "shard_ids", None),
                         shard_count=getattr(args, "shard_count", None)) as bot:
        port = web_port(settings, args)
        if port is None:
            await bot.start(settings.discord_token)
        else:
            async with serving_board(app.games, settings, app.games.clock, port,
                                     owed=drain_soon(bot.door.outbox, "discord")):
                await bot.start(settings.discord_token)
    return 0


def web_port(settings: Settings, args: argparse.Namespace) -> int | None:
    """Where the Discord process serves the web board: ``--web PORT``, else DEFAULT_PORT when
    PUBLIC_BASE_URL is set; None with ``--no-web`` (the LINE door of the process serves it)."""
    if getattr(args, "no_web", False):
        return None
    port: int | None = getattr(args, "web", None)
    return port if port is not None else DEFAULT_PORT if settings.public_base_url else None


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
