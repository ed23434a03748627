"""Ratings: Glicko-2 updates when a rated game ends, and the ``rating`` and ``top`` commands.

Between two people both ratings move; against the bot only the person's does, against the
level's fixed estimated rating (bot/engines/levels.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage import Storage
from storage.records import Game, RatingUpdate, Result

from ... import ratings as glicko
from ...engines.levels import ENGINE_DEVIATION
from ...engines.levels import rating as level_rating
from ...messages import Reply
from ..errors import Refusal
from .registry import CommandGroup

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("ratings")
SCORES: dict[Result, float] = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@commands.command("rating")
async def rating(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    user = ctx.msg.mentions[0] if ctx.msg.mentions else None
    if user is None and args and args[0].startswith("@"):
        found = await table.storage.find_player(ctx.msg.platform, args[0][1:])
        if found is None:
            raise Refusal("unknown_player", name=args[0][1:20])
        player = found
    else:
        player = await table.player(ctx, user)
    return [table.present.info(ctx.language, "rating", name=player.display_name, rating=round(player.rating),
                               deviation=round(player.deviation), games=player.games_played, kind="rating")]


@commands.command("top")
async def top(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    community = ctx.msg.community or ctx.msg.channel
    players = await table.storage.top_players(ctx.msg.platform, community=community, limit=10)
    if not players:
        return [table.present.info(ctx.language, "top.empty", kind="top")]
    lines = [table.catalog.text(ctx.language, "top.line", rank=i + 1, name=p.display_name,
                                rating=round(p.rating), games=p.games_played) for i, p in enumerate(players)]
    return [table.present.info(ctx.language, "top", lines="\n".join(lines), kind="top")]


async def rating_updates(storage: Storage, game: Game, result: Result) -> list[RatingUpdate]:
    """The new ratings after ``game`` ended with ``result`` (none for a casual game)."""
    if not game.rated or game.white is None or game.black is None:
        return []
    if game.white.is_engine or game.black.is_engine:
        return await _against_engine(storage, game, result)
    assert game.white.player_id is not None and game.black.player_id is not None
    white = await storage.get_player(game.white.player_id)
    black = await storage.get_player(game.black.player_id)
    score = SCORES[result]
    w, b = (glicko.Rating(p.rating, p.deviation, p.volatility) for p in (white, black))
    new_w = glicko.update(w, [(b, score)])
    new_b = glicko.update(b, [(w, 1 - score)])
    return [
        RatingUpdate.after_game(white, new_w.rating, new_w.deviation, new_w.volatility),
        RatingUpdate.after_game(black, new_b.rating, new_b.deviation, new_b.volatility),
    ]


async def _against_engine(storage: Storage, game: Game, result: Result) -> list[RatingUpdate]:
    """Only the person's rating moves, against the level's fixed estimated rating."""
    assert game.white is not None and game.black is not None
    if game.white.is_engine and game.black.is_engine:
        return []
    person, bot = (game.black, game.white) if game.white.is_engine else (game.white, game.black)
    score = SCORES[result]
    if person is game.black:
        score = 1 - score
    assert person.player_id is not None and bot.engine_level is not None
    player = await storage.get_player(person.player_id)
    level = glicko.Rating(level_rating(bot.engine_level), ENGINE_DEVIATION)
    new = glicko.update(glicko.Rating(player.rating, player.deviation, player.volatility), [(level, score)])
    return [RatingUpdate.after_game(player, new.rating, new.deviation, new.volatility)]
