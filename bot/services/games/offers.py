"""Ending or taking back by agreement: ``resign``, ``draw`` (an offer, or accepting one),
``undo`` (a takeback request), and ``accept``/``decline`` while a game is being played.
Against the bot, the engine answers a draw offer and a takeback is granted at once."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from makruk import Board, CountEvent
from storage.records import Color, Game, GameChanges

from ...messages import Reply
from ..errors import Refusal
from . import live
from .registry import CommandGroup
from .setup_auto import events_kept
from .table import other, side_to_move
from .timing import turn_times

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("offers")


@commands.command("resign")
async def resign(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    return [await table.finish(ctx, game, board, "0-1" if color == "w" else "1-0", "resignation")]


@commands.command("draw")
async def draw(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    opponent = other(color)
    if game.draw_offer == opponent:
        return [await table.finish(ctx, game, board, "1/2-1/2", "agreement")]
    if game.draw_offer == color:
        raise Refusal("draw_already_offered")
    seat = game.seat(opponent)
    if seat is not None and seat.engine_level is not None:
        if await table.engine.accepts_draw(table.position(game), level=seat.engine_level):
            return [await table.finish(ctx, game, board, "1/2-1/2", "agreement")]
        return [replace(table.present.info(ctx.language, "draw.bot_declines"), game=await table.view_of(ctx, game))]
    _, reply = await table.commit(ctx, game, board, GameChanges(draw_offer=color), "draw_offered")
    return [reply]


async def accept_offer(table: Table, ctx: Context) -> list[Reply]:
    """``accept`` during a game: the opponent's draw offer or takeback request."""
    game, board = ctx.require_active()
    opponent = other(await table.my_color(ctx, game))
    if game.draw_offer == opponent:
        return [await table.finish(ctx, game, board, "1/2-1/2", "agreement")]
    if game.takeback_offer == opponent:
        return await _take_back(table, ctx, game, board, opponent)
    raise Refusal("nothing_to_accept")


async def decline_offer(table: Table, ctx: Context) -> list[Reply]:
    """``decline`` during a game: the opponent's draw offer or takeback request."""
    game, _ = ctx.require_active()
    opponent = other(await table.my_color(ctx, game))
    if game.draw_offer == opponent:
        answer = table.present.info(ctx.language, "draw.declined", name=ctx.msg.user.name)
        _, answer = await table.update(ctx, game, GameChanges(draw_offer=None), answer)
        return [answer]
    if game.takeback_offer == opponent:
        answer = table.present.info(ctx.language, "undo.declined", name=ctx.msg.user.name)
        _, answer = await table.update(ctx, game, GameChanges(takeback_offer=None), answer)
        return [answer]
    raise Refusal("nothing_to_decline")


@commands.command("undo")
async def undo(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    opponent = other(color)
    if game.takeback_offer == opponent:
        return await _take_back(table, ctx, game, board, opponent)
    if _plies_to_take_back(game, board, color) == 0:
        raise Refusal("undo_nothing")
    seat = game.seat(opponent)
    if seat is not None and seat.is_engine:
        return await _take_back(table, ctx, game, board, color)
    if game.takeback_offer == color:
        raise Refusal("undo_already_asked")
    _, reply = await table.commit(ctx, game, board, GameChanges(takeback_offer=color), "undo_asked")
    return [reply]


def _plies_to_take_back(game: Game, board: Board, requester: Color) -> int:
    """Takes back the requester's last move (and the reply to it, if there was one)."""
    wanted = 2 if side_to_move(board) == requester else 1
    return wanted if len(game.moves) >= wanted else 0


async def _take_back(table: Table, ctx: Context, game: Game, board: Board, requester: Color) -> list[Reply]:
    n = _plies_to_take_back(game, board, requester)
    if n == 0:
        raise Refusal("undo_nothing")
    kept = len(game.moves) - n
    events = [e for e in CountEvent.load_all(game.counting) if e.ply <= kept]
    now = table.clock.now()
    if game.time_control is not None:  # the clocks stop where they are; the side to move's runs from now
        changes = replace(live.resumed(game, replace(game, moves=game.moves[:kept]), now), takeback_offer=None,
                          draw_offer=None, counting=events_kept(game, events))
    else:
        deadline, remind_at = turn_times(now, game.move_seconds)
        changes = GameChanges(takeback_offer=None, draw_offer=None, counting=events_kept(game, events),
                              deadline=deadline, remind_at=remind_at, reminded=False)
    # The answer is built first, from the game as it will be, and stored with the takeback.
    after = replace(game.after(changes, at=table.clock.now()), moves=game.moves[:kept])
    board = table.replayed(after)
    notices, (reply,) = table.answers(ctx, [await table.game_reply(ctx, after, board, "undone")])
    game = await table.storage.undo_moves(game.id, game.version, n, changes, notices=notices)
    table.remember(game, board)
    return [reply]
