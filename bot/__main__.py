"""``makruk-bot`` (also ``python -m bot``): run the bot on a platform, or the console chat.

    makruk-bot                  Discord and/or LINE when their tokens are set, else the console
    makruk-bot console [--db PATH] [--lang en|th|ja|km] [--json] [--images DIR]
    makruk-bot discord ...      makruk-bot line ...      makruk-bot puzzles ...
    makruk-bot migrate [--db PATH_OR_URL]   create or upgrade the database, say what was done
    makruk-bot migrate-data --from PATH --to postgresql://...   move a community to PostgreSQL

Each platform's subcommand lives in its own module with two functions:
``add_parser(subparsers)`` and ``async main(settings, args) -> int``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib
import logging
import os
import secrets
import sys
from pathlib import Path

from storage import StorageError, wait_for_storage
from storage.migrate import LOGGER as MIGRATION_LOG

from .app import configure_logging, open_app, settle_memory
from .config import LANGUAGES, Settings, with_database
from .observability.serving import serving_metrics

# Subcommands in modules of their own; a module that is missing simply is not offered.
PLUGINS = {
    "discord": "bot.adapters.discord.main",
    "line": "bot.adapters.line.main",
    "puzzles": "bot.puzzles.main",
    "puzzle-review": "bot.puzzle_review",
}


def main(argv: list[str] | None = None) -> int:
    plugins = _load_plugins()
    args = _parser(plugins).parse_args(argv)
    settle_memory()
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"makruk-bot: bad setting: {error}", file=sys.stderr)
        return 2
    try:
        if args.command == "console":
            return asyncio.run(_console(settings, args))
        if args.command == "migrate":
            return asyncio.run(_migrate(settings, args))
        if args.command == "migrate-data":
            return asyncio.run(_migrate_data(args))
        if args.command in plugins:
            return asyncio.run(plugins[args.command].main(settings, args))
        return asyncio.run(_default(settings, plugins))
    except StorageError as error:
        print(f"makruk-bot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``makruk-bot puzzles stats | head``): nothing to add
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor at exit, when Python flushes
        return 0


async def _default(settings: Settings, plugins: dict) -> int:
    """Every platform whose credentials are configured, together; else the console chat."""
    wanted = []
    if settings.discord_token and "discord" in plugins:
        wanted.append("discord")
    if settings.line_channel_secret and settings.line_channel_access_token and "line" in plugins:
        wanted.append("line")
    if not wanted:
        return await _console(settings, argparse.Namespace(db=None, lang=None, json=False, images=None,
                                                           metrics_port=None, web=None))
    if "line" in wanted and plugins["line"].missing_settings(settings):
        missing = ", ".join(plugins["line"].missing_settings(settings))
        print(f"makruk-bot: LINE needs {missing} too (set it in the environment or .env)", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings)
    parser = _parser(plugins)
    # One process, one app: both doors share the database pool, the engine and its workers.
    async with open_app(settings) as app:
        runs = [plugins[name].run(app, settings, _door_args(parser, name, wanted)) for name in wanted]
        codes = await asyncio.gather(*runs)
    return max(codes)


def _door_args(parser: argparse.ArgumentParser, name: str, wanted: list[str]) -> argparse.Namespace:
    args = parser.parse_args([name])
    if name == "discord" and "line" in wanted:
        args.no_web = True  # LINE's server carries the web board: Discord starts none of its own
    return args


def _load_plugins() -> dict:
    plugins = {}
    for name, module_name in PLUGINS.items():
        try:
            plugins[name] = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name is None or not module_name.startswith(error.name):
                raise  # the module exists but something it needs is missing: say so
    return plugins


def _parser(plugins: dict) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="makruk-bot", description="Makruk (Thai chess) chat bot")
    commands = parser.add_subparsers(dest="command")
    console = commands.add_parser("console", help="play in this terminal (one channel)")
    console.add_argument("--db", help="database file or postgresql:// URL (default: DATABASE_URL, "
                         "else DATABASE_PATH or makruk.db)")
    console.add_argument("--lang", choices=LANGUAGES, help="language of the replies")
    console.add_argument("--json", action="store_true", help="one JSON object per reply")
    console.add_argument("--images", type=Path, help="save board images in this folder")
    console.add_argument("--metrics-port", type=int, metavar="PORT",
                         help="serve /healthz and /metrics on this port (docs/operations.md)")
    console.add_argument("--web", type=int, metavar="PORT", help="serve the web board on this port; replies "
                         "that start a game and the reply to 'board' link each player to it")
    console.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                         help="address the web board listens on (default 127.0.0.1)")
    upgrade = commands.add_parser("migrate", help="create or upgrade the database's schema and say what was done")
    upgrade.add_argument("--db", help="database file or postgresql:// URL (default: DATABASE_URL, "
                         "else DATABASE_PATH or makruk.db)")
    migrate = commands.add_parser("migrate-data", help="copy a SQLite database into PostgreSQL (docs/deploy.md)")
    migrate.add_argument("--from", dest="source", required=True, metavar="PATH", help="the SQLite database file")
    migrate.add_argument("--to", dest="target", required=True, metavar="URL", help="a postgresql:// URL")
    for plugin in plugins.values():
        plugin.add_parser(commands)
    return parser


async def _migrate(settings: Settings, args) -> int:
    """Opens the database as the bot's start-up does, which upgrades it, and prints what the
    storage says it did: the versions and migrations, or that it is up to date."""
    if args.db:
        settings = with_database(settings, args.db)
    said = logging.getLogger(MIGRATION_LOG)
    printer = logging.StreamHandler(sys.stdout)
    printer.setFormatter(logging.Formatter("%(message)s"))
    said.addHandler(printer)
    said.setLevel(logging.INFO)
    try:
        storage = await wait_for_storage(settings.database, limit=settings.database_wait_seconds)
        await storage.close()
    finally:
        said.removeHandler(printer)
    return 0


async def _migrate_data(args) -> int:
    """Copies everything; run again, it brings the target up to date and copies nothing twice."""
    from storage.transfer import transfer

    report = await transfer(args.source, args.target)  # a TransferError is a StorageError: main says it
    print("\n".join(report.lines()))
    print(f"copied {report.copied} rows; every table of the target holds at least the source's rows")
    return 0


async def _console(settings: Settings, args) -> int:
    from .adapters.console import ConsoleChat, stdin_lines

    if args.db:
        settings = with_database(settings, args.db)
    if args.lang:
        settings = dataclasses.replace(settings, language=args.lang)
    configure_logging("WARNING", settings)
    if sys.stdin.isatty() and not args.json:
        print("Makruk console chat. Type 'help', 'new bot' to play the bot, or 'NAME: text' to speak as NAME.")
    async with open_app(settings) as app, serving_metrics(app, args.metrics_port):
        if args.web is None:
            await ConsoleChat(app.games, as_json=args.json, images=args.images, settings=settings).run(stdin_lines())
            return 0
        from .web.server import serving_board

        if not settings.web_secret:  # the players' links are signed with a key of this run's own
            settings = dataclasses.replace(settings, web_secret=secrets.token_urlsafe(32))
        base = (settings.public_base_url or f"http://{_host_for_links(args.web_host)}:{args.web}").rstrip("/")
        chat = ConsoleChat(app.games, as_json=args.json, images=args.images, web=base, settings=settings)
        async with serving_board(app.games, settings, app.games.clock, args.web, host=args.web_host, base=base,
                                 owed=chat.deliver_soon):
            await chat.run(stdin_lines())
    return 0


def _host_for_links(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


if __name__ == "__main__":
    sys.exit(main())
