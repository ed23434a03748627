"""Who came to a tournament game's board (docs/tournaments.md 2.8).

White shows it by making the first move. Black cannot move before White, so Black shows it by
writing to the game (any message that reaches it: a move typed early, ``board``, ``berserk``)
before White's first move, stored once as ``games.black_present``. Should White never move, White
alone forfeits when Black came; when neither did, both forfeit: the game is aborted, reason
``double_forfeit``, and the event scores it ``0-0F``, a forfeit loss for each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage import VersionConflict
from storage.clock_records import has_moved
from storage.records import Color, Game, GameChanges

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

DOUBLE_FORFEIT = "double_forfeit"  # the reason of a tournament game neither player came to


def double_forfeit(game: Game, flagged: Color) -> bool:
    """Whether ``game``, whose side to move (``flagged``) ran out, is lost by both: a tournament
    game that neither side moved in, whose Black never wrote to it either."""
    return (game.tournament_id is not None and flagged == "w" and not has_moved(game, "w")
            and not has_moved(game, "b") and not game.black_present)


async def check_in(table: Table, ctx: Context) -> None:
    """After a message: its sender, Black in a tournament game White has not moved in yet, is at
    the board, stored once. The game is read again (the message may have changed or ended it);
    should it change meanwhile, the next message of Black's stores it."""
    if not _owed(ctx.game, ctx):
        return
    assert ctx.game is not None
    seat = ctx.game.black
    players = ctx.players if seat is not None and seat.player_id in ctx.players else await table.players_of(ctx.game)
    black = players.get(seat.player_id) if seat is not None and seat.player_id is not None else None
    if black is None or black.user_id != ctx.msg.user.id:
        return
    game = await table.storage.get_game(ctx.game.id)
    if not _owed(game, ctx):
        return
    try:
        await table.storage.update_game(game.id, game.version, GameChanges(black_present=True))
    except VersionConflict:
        pass


def _owed(game: Game | None, ctx: Context) -> bool:
    """Whether ``game`` is a tournament game being played whose Black has not been seen, with no
    move of White's yet."""
    return game is not None and game.tournament_id is not None and game.status == "active" \
        and not game.black_present and not has_moved(game, "w")
