"""The engine's advice: ``hint`` (in a game against the bot, or for the chat's puzzle) and
``review`` of the channel's last finished game. The analysis itself is in ../analysis.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...messages import Reply
from .. import analysis
from ..errors import Refusal
from .puzzle_routes import puzzle_command
from .registry import CommandGroup
from .table import side_to_move

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("advice")


@commands.command("hint")
async def hint(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    if table.puzzles is not None and (ctx.game is None or ctx.game.status != "active"):
        return await puzzle_command(table, ctx, "hint", args)  # no game: a hint for the chat's puzzle
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    if not any(seat is not None and seat.is_engine for seat in (game.white, game.black)):
        raise Refusal("hint_bot_only")
    if side_to_move(board) != color:
        raise Refusal("not_your_turn")
    if board.is_game_over():
        raise Refusal("game_over")
    shown = await table.game_reply(ctx, game, board, "board")
    reply = await analysis.hint(table.engine, table.present, ctx.language, board, table.position(game), shown)
    return [await table.drawn(ctx, reply)]


@commands.command("review")
async def review(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    if ctx.game is not None:
        raise Refusal("review_not_finished")
    game = await table.storage.last_game(ctx.msg.platform, ctx.msg.channel)
    if game is None or game.status != "finished":
        raise Refusal("no_game")
    names = table.names(game, await table.players_of(game))
    return [await analysis.review(table.engine, table.present, ctx.language, game, names)]
