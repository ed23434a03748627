"""Sittuyin's deployment in chat: ``setup auto`` (or ``setup``) lets the bot place a side's pieces.

While pieces are in hand, a side's moves are drops (``R@a1``, or the Thai ``ร@ก1``, typed or
tapped). A player who would rather not place them says ``setup auto``: the bot then drops that
side's pieces one per turn, in the rules core's standard arrangement
(``SittuyinBoard.standard_drop``), as soon as it is that side's turn. Which sides asked is kept
with the game, beside its count events (``Game.counting`` is the service's JSON).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from makruk import Board, CountEvent, Move
from storage.records import Color, Game, GameChanges

from ...messages import Reply
from ..errors import Refusal
from .registry import CommandGroup
from .table import side_to_move

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("deployment")
_KEY = "setup_auto"


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
    from .moves import engine_turns  # the bot's turns include the drops it makes for a side

    board = table.board(game)
    if side_to_move(board) == color:
        replies += await engine_turns(table, ctx, game, board)
    return replies


def auto_sides(game: Game) -> str:
    """The colours whose pieces the bot places ("", "w", "b" or "wb")."""
    if not game.counting:
        return ""
    value = json.loads(game.counting).get(_KEY, "")
    return value if isinstance(value, str) else ""


def with_auto_side(game: Game, color: Color) -> str:
    data = json.loads(game.counting) if game.counting else {"events": []}
    data[_KEY] = "".join(sorted(set(data.get(_KEY, "")) | {color}))
    return json.dumps(data)


def auto_drop(game: Game, board: Board) -> Move | None:
    """The drop the bot makes now for the side to move, when that side asked for ``setup auto``."""
    if game.status != "active" or not board.in_deployment() or side_to_move(board) not in auto_sides(game):
        return None
    return board.standard_drop()


def events_kept(game: Game, events: list[CountEvent]) -> str | None:
    """The game's JSON with ``events`` as its count events, the sides of ``setup auto`` kept."""
    text = CountEvent.dump_all(events)
    sides = auto_sides(game)
    if not sides:
        return text
    data = json.loads(text) if text else {"events": []}
    data[_KEY] = sides
    return json.dumps(data)
