"""The channel's own settings and help: ``lang``, ``notation``, ``notices`` and ``help``."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...i18n import normalize_language
from ...messages import Reply
from ..errors import Refusal
from ..notation import NOTATIONS
from .registry import CommandGroup

if TYPE_CHECKING:
    from storage.records import ChannelSettings

    from .context import Context
    from .table import Table

commands = CommandGroup("channel")
LANGUAGE_WORDS = {"thai": "th", "english": "en", "japanese": "ja", "khmer": "km"}


@commands.command("lang")
async def lang(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    language = normalize_language(args[0]) if args else None
    if language is None and args:
        language = LANGUAGE_WORDS.get(table.catalog.word_for(args[0]) or "")
    if language is None:
        raise Refusal("bad_language")
    return await _settle(table, ctx, replace(ctx.settings, language=language), table.present.info(language,
                                                                                                "language_set"))


@commands.command("notation")
async def notation(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    """How the bot writes moves in this chat: SAN, Thai notation or PlayOK's letters (every
    notation is read whatever the choice)."""
    word = table.catalog.word_for(args[0]) if len(args) == 1 else None
    if word not in NOTATIONS:
        raise Refusal("bad_notation")
    answer = table.present.info(ctx.language, "notation.set",
                                notation=table.catalog.text(ctx.language, f"notation.{word}"))
    return await _settle(table, ctx, replace(ctx.settings, notation=word), answer)


@commands.command("help")
async def help_(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    return [table.present.help(ctx.language)]


@commands.command("notices")
async def notices(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    """Pushed notices (reminders, the daily puzzle) on or off for this chat; when off they
    ride along on the bot's next answer in the chat instead (LINE counts every push)."""
    word = table.catalog.word_for(args[0]) if len(args) == 1 else None
    if word not in ("on", "off"):
        raise Refusal("bad_notices")
    return await _settle(table, ctx, replace(ctx.settings, push_notices=word == "on"),
                         table.present.info(ctx.language, f"notices.{word}"))


async def _settle(table: Table, ctx: Context, settings: ChannelSettings, answer: Reply) -> list[Reply]:
    """Stores the chat's new settings with their answer."""
    notices, replies = table.answers(ctx, [answer])
    await table.storage.set_channel_settings(settings, notices=notices)
    return replies
