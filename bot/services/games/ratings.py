"""Ratings: Glicko-2 updates when a rated game ends, and the ``rating`` and ``top`` commands.

Each variant has ratings of its own (a Makruk rating is not a Sittuyin rating), and each speed
too (a live game's rating is not a correspondence game's): a game moves the ratings of its
variant and speed only, and ``rating`` and ``top`` show correspondence Makruk's unless a variant
or the speed is named (``top sittuyin``, ``rating @bob ouk``, ``top makruk live``). Between two
people both ratings move; against the bot only the person's does, against the level's fixed
estimated rating (bot/engines/levels.py, estimated in Makruk and used for every variant).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage import Storage
from storage.records import SPEEDS, Game, Player, PlayerRating, RatingUpdate, Result, Speed

from ... import ratings as glicko
from ...engines.levels import ENGINE_DEVIATION
from ...engines.levels import rating as level_rating
from ...messages import Reply
from ..errors import Refusal
from .registry import CommandGroup
from .variants import DEFAULT_VARIANT, variant_named

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("ratings")
SCORES: dict[Result, float] = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@commands.command("rating")
async def rating(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    named = [word for word in args if word.startswith("@")]
    words = args
    speed, args = _speed(table, args)
    variant = _variant(table, tuple(word for word in args if not word.startswith("@")))
    user = ctx.msg.mentions[0] if ctx.msg.mentions else None
    if user is None and named:
        found = await table.storage.find_player(ctx.msg.platform, named[0][1:])
        if found is None:
            raise Refusal("unknown_player", name=named[0][1:20])
        player = found
    else:
        player = await table.player(ctx, user)
    named_speed = len(args) < len(words)
    lines = [await _rating_line(table, ctx, player, variant, speed)]
    if not named_speed:  # correspondence, and live too once the player has a rated live game
        live = await table.storage.get_rating(player.id, variant, "live")
        if live.games_played:
            lines.append(await _rating_line(table, ctx, player, variant, "live", live))
    return [Reply(kind="rating", text="\n".join(lines), language=ctx.language)]


async def _rating_line(table: Table, ctx: Context, player: Player, variant: str, speed: Speed,
                       current: PlayerRating | None = None) -> str:
    """The player's rating in ``variant`` at ``speed``, as ``rating`` writes it."""
    current = current or await table.storage.get_rating(player.id, variant, speed)
    fields = {"name": player.display_name, "rating": round(current.rating),
              "deviation": round(current.deviation), "games": current.games_played}
    if speed == "live":
        return table.catalog.text(ctx.language, "rating.live", variant=_variant_name(table, ctx, variant), **fields)
    if variant == DEFAULT_VARIANT:
        return table.catalog.text(ctx.language, "rating", **fields)
    return table.catalog.text(ctx.language, "rating.variant", variant=_variant_name(table, ctx, variant), **fields)


@commands.command("top")
async def top(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    speed, args = _speed(table, args)
    variant = _variant(table, args)
    community = ctx.msg.community or ctx.msg.channel
    standings = await table.storage.top_players(ctx.msg.platform, variant, speed=speed, community=community,
                                                limit=10)
    named = {} if variant == DEFAULT_VARIANT and speed != "live" else {"variant": _variant_name(table, ctx, variant)}
    suffix = ".live" if speed == "live" else "" if variant == DEFAULT_VARIANT else ".variant"
    if not standings:
        return [table.present.info(ctx.language, f"top.empty{suffix}", kind="top", **named)]
    lines = [table.catalog.text(ctx.language, "top.line", rank=i + 1, name=s.player.display_name,
                                rating=round(s.rating.rating), games=s.rating.games_played)
             for i, s in enumerate(standings)]
    return [table.present.info(ctx.language, f"top{suffix}", lines="\n".join(lines), kind="top", **named)]


def _speed(table: Table, words: tuple[str, ...]) -> tuple[Speed, tuple[str, ...]]:
    """The speed the words name (correspondence when none does), and the other words."""
    speeds = [word for word in words if table.catalog.word_for(word) in SPEEDS]
    if len(speeds) > 1:
        raise Refusal("bad_option", option=speeds[1][:20])
    speed: Speed = "live" if speeds and table.catalog.word_for(speeds[0]) == "live" else "correspondence"
    return speed, tuple(word for word in words if word not in speeds)


def _variant(table: Table, words: tuple[str, ...]) -> str:
    """The variant the words name (Makruk when there are none); refused when they name none."""
    if not words:
        return DEFAULT_VARIANT
    text = " ".join(words)  # "ouk chatrang" is one name
    variant = variant_named(table.catalog, text)
    if variant is None:
        raise Refusal("bad_variant", word=text[:20])
    return variant


def _variant_name(table: Table, ctx: Context, variant: str) -> str:
    return table.catalog.text(ctx.language, f"variant.{variant}")


async def rating_updates(storage: Storage, game: Game, result: Result) -> list[RatingUpdate]:
    """The new ratings of ``game``'s variant after it ended with ``result`` (none for a casual game)."""
    if not game.rated or game.white is None or game.black is None:
        return []
    if game.white.is_engine or game.black.is_engine:
        return await _against_engine(storage, game, result)
    assert game.white.player_id is not None and game.black.player_id is not None
    white = await storage.get_rating(game.white.player_id, game.variant, game.speed)
    black = await storage.get_rating(game.black.player_id, game.variant, game.speed)
    score = SCORES[result]
    w, b = (_glicko(r) for r in (white, black))
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
    current = await storage.get_rating(person.player_id, game.variant, game.speed)
    level = glicko.Rating(level_rating(bot.engine_level), ENGINE_DEVIATION)
    new = glicko.update(_glicko(current), [(level, score)])
    return [RatingUpdate.after_game(current, new.rating, new.deviation, new.volatility)]


def _glicko(current: PlayerRating) -> glicko.Rating:
    return glicko.Rating(current.rating, current.deviation, current.volatility)
