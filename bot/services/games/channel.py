"""The channel's own settings and help: ``lang`` and ``help``."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...i18n import normalize_language
from ...messages import Reply
from ..errors import Refusal
from .registry import CommandGroup

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("channel")
LANGUAGE_WORDS = {"thai": "th", "english": "en", "japanese": "ja"}


@commands.command("lang")
async def lang(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    language = normalize_language(args[0]) if args else None
    if language is None and args:
        language = LANGUAGE_WORDS.get(table.catalog.word_for(args[0]) or "")
    if language is None:
        raise Refusal("bad_language")
    await table.storage.set_channel_settings(replace(ctx.settings, language=language))
    return [table.present.info(language, "language_set")]


@commands.command("help")
async def help_(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    return [table.present.help(ctx.language)]
