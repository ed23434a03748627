"""Sittuyin's deployment in chat: ``setup auto`` (or ``setup``) lets the bot place a side's pieces.

While pieces are in hand, a side's moves are drops (``R@a1``, or the Thai ``ร@ก1``, typed or
tapped). A player who would rather not place them says ``setup auto``: the bot then drops that
side's pieces one per turn, in the rules core's standard arrangement
(``SittuyinBoard.standard_drop``), as soon as it is that side's turn (``moves.engine_turns``).
Which sides asked is kept with the game, beside its count events (``setup_auto.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage.records import GameChanges

from ...messages import Reply
from ..errors import Refusal
from .moves import engine_turns
from .registry import CommandGroup
from .setup_auto import auto_sides, with_auto_side
from .table import side_to_move

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("deployment")


@commands.command("setup")
async def setup(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game, board = ctx.require_active()
    if not board.in_deployment():
        raise Refusal("no_deployment")
    if len(args) > 1 or (args and table.catalog.word_for(args[0]) != "auto"):  # "setup" alone means auto
        raise Refusal("bad_option", option=" ".join(args)[:20] or "-")
    color = await table.my_color(ctx, game)
    if color in auto_sides(game):
        raise Refusal("setup_already_auto")
    answer = table.present.info(ctx.language, "setup.auto", name=ctx.msg.user.name)
    game, answer = await table.update(ctx, game, GameChanges(counting=with_auto_side(game, color)), answer)
    replies = [answer]
    board = table.board(game)
    if side_to_move(board) == color:
        replies += await engine_turns(table, ctx, game, board)
    return replies
