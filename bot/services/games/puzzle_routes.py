"""Puzzle commands typed in a channel: ../puzzles/ decides; these only route to it."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ...messages import Reply
from ..errors import Refusal
from ..outbox import AnswerWith
from .registry import CommandGroup

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("puzzles")
PUZZLE_COMMANDS = ("puzzle", "giveup", "subscribe", "unsubscribe", "puzzletop", "streak", "puzzlerating")
# A message to the bot that begins with one of these words of ``puzzle`` means ``puzzle`` with
# it ("storm" as lichess's players say it, "race stop", "skip" in a Streak). ``streak`` stays
# the daily streak's own command.
BARE_WORDS = frozenset({"puzzle_storm", "puzzle_race", "puzzle_skip"})


async def puzzle_command(table: Table, ctx: Context, name: str, args: tuple[str, ...]) -> list[Reply]:
    if table.puzzles is None:
        raise Refusal("unknown_command")
    return await table.puzzles.command(ctx.msg, ctx.language, name, args, keep=keeper(table, ctx))


def bare_word(table: Table, text: str) -> tuple[str, ...] | None:
    """``text`` as the arguments of ``puzzle`` when it begins with one of ``BARE_WORDS``."""
    words = tuple(text.split())
    if table.puzzles is None or not words or table.catalog.word_for(words[0]) not in BARE_WORDS:
        return None
    return words


def keeper(table: Table, ctx: Context) -> AnswerWith:
    """How the puzzle service stores the answer to ``ctx``'s message with what it changes."""
    return functools.partial(table.answer_with, ctx)


def _route(name: str) -> None:
    @commands.command(name)
    async def route(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await puzzle_command(table, ctx, name, args)


for _name in PUZZLE_COMMANDS:
    _route(_name)
