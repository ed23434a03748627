"""``makruk-bot`` (also ``python -m bot``): run the bot on a platform, or the console chat.

    makruk-bot                    Discord or LINE when their tokens are set, else the console
    makruk-bot console [--db PATH] [--lang en|th|ja] [--json] [--images DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from pathlib import Path

from storage import IncompatibleDatabase, StorageError

from .app import configure_logging, open_app
from .config import LANGUAGES, Settings


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"makruk-bot: bad setting: {error}", file=sys.stderr)
        return 2
    command = args.command or _default_command(settings)
    try:
        if command == "console":
            return asyncio.run(_console(settings, args))
        print(f"makruk-bot: {command} is not available yet", file=sys.stderr)
        return 2
    except (IncompatibleDatabase, StorageError) as error:
        print(f"makruk-bot: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _default_command(settings: Settings) -> str:
    return "console"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="makruk-bot", description="Makruk (Thai chess) chat bot")
    commands = parser.add_subparsers(dest="command")
    console = commands.add_parser("console", help="play in this terminal (one channel)")
    console.add_argument("--db", type=Path, help="database file (default: DATABASE_PATH or makruk.db)")
    console.add_argument("--lang", choices=LANGUAGES, help="language of the replies")
    console.add_argument("--json", action="store_true", help="one JSON object per reply")
    console.add_argument("--images", type=Path, help="save board images in this folder")
    return parser


async def _console(settings: Settings, args) -> int:
    from .adapters.console import ConsoleChat, stdin_lines

    if getattr(args, "db", None):
        settings = dataclasses.replace(settings, database_path=args.db)
    if getattr(args, "lang", None):
        settings = dataclasses.replace(settings, language=args.lang)
    configure_logging("WARNING")
    if sys.stdin.isatty() and not getattr(args, "json", False):
        print("Makruk console chat. Type 'help', 'new bot' to play the bot, or 'NAME: text' to speak as NAME.")
    async with open_app(settings) as app:
        chat = ConsoleChat(app.games, as_json=getattr(args, "json", False), images=getattr(args, "images", None))
        await chat.run(stdin_lines())
    return 0


if __name__ == "__main__":
    sys.exit(main())
