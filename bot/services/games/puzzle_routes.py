"""Puzzle commands typed in a channel: ../puzzles.py decides; these only route to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...messages import Reply
from ..errors import Refusal
from .registry import CommandGroup

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("puzzles")
PUZZLE_COMMANDS = ("puzzle", "giveup", "subscribe", "unsubscribe", "puzzletop", "streak")
CHANGING = frozenset({"puzzle", "subscribe", "unsubscribe"})  # the ones that store something the chat sees


async def puzzle_command(table: Table, ctx: Context, name: str, args: tuple[str, ...]) -> list[Reply]:
    if table.puzzles is None:
        raise Refusal("unknown_command")
    replies = await table.puzzles.command(ctx.msg, ctx.language, name, args)
    return await kept(table, ctx, replies) if name in CHANGING else replies


async def kept(table: Table, ctx: Context, replies: list[Reply]) -> list[Reply]:
    """The answer to a puzzle command or answer, kept in the outbox right after what it
    stored (the puzzle service's writes take no notices); private answers are not kept."""
    shown = [r for r in replies if not r.private]
    if not shown:
        return replies
    stored = iter(await table.keep(ctx, shown))
    return [r if r.private else next(stored) for r in replies]


def _route(name: str) -> None:
    @commands.command(name)
    async def route(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await puzzle_command(table, ctx, name, args)


for _name in PUZZLE_COMMANDS:
    _route(_name)
