"""Counting, Makruk's endgame draw rules: ``count`` declares it when the rules allow, ``stopcount``
stops it. The declarations are stored as events with their ply, so a replay restores the count."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from makruk import Board, CountEvent
from storage.records import Game, GameChanges

from ...messages import Reply
from ..errors import Refusal
from .registry import CommandGroup
from .table import Notify, side_to_move

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("counting")


@commands.command("count")
async def count(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    if side_to_move(board) != color:
        raise Refusal("not_your_turn")
    if board.is_game_over():
        raise Refusal("game_over")
    if board.can_declare_count() is None:
        raise Refusal("count_not_allowed")
    game, board, reply = await declare(table, ctx, game, board)
    return [reply]


async def declare(table: Table, ctx: Context, game: Game, board: Board, *,
                  notify: Notify | None = None) -> tuple[Game, Board, Reply]:
    """The side to move declares the count it may declare (the bot's turns use this too);
    with ``notify`` the reply is also written to the outbox with the declaration."""
    board.declare_count()
    events = [*CountEvent.load_all(game.counting), CountEvent(board.ply, "count")]
    changes = GameChanges(counting=CountEvent.dump_all(events))
    outcome = board.outcome()
    if outcome is not None:  # a limit of zero or less draws at once
        changes = replace(changes, status="finished", result=outcome.result, reason=outcome.reason,
                          deadline=None, remind_at=None)
    game, reply = await table.commit(ctx, game, board, changes, "count_declared", notify=notify)
    return game, board, reply


@commands.command("stopcount")
async def stopcount(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    if side_to_move(board) != color or not board.can_stop_count():
        raise Refusal("stopcount_not_allowed")
    board.stop_count()
    events = [*CountEvent.load_all(game.counting), CountEvent(board.ply, "stopcount")]
    _, reply = await table.commit(ctx, game, board, GameChanges(counting=CountEvent.dump_all(events)),
                                  "count_stopped")
    return [reply]
