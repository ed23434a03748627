"""The chat's finished games: ``games`` lists them; ``export ID``, ``export ID gif`` and
``review ID`` (advice.py) take one of them by its number."""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage import NotFound
from storage.records import Game

from ...messages import Reply
from ..errors import Refusal
from .registry import CommandGroup

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("archive")
GAMES_LISTED = 10


@commands.command("games")
async def games(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    if args:
        raise Refusal("bad_option", option=args[0][:20])
    found = await table.storage.channel_games(ctx.msg.platform, ctx.msg.channel, limit=GAMES_LISTED)
    if not found:
        return [table.present.info(ctx.language, "games.empty")]
    lines = [table.catalog.text(ctx.language, "games.title")]
    for game in found:
        names = table.names(game, await table.players_of(game))
        variant = "" if game.variant == "makruk" else f", {table.catalog.text(ctx.language, f'variant.{game.variant}')}"
        lines.append(table.catalog.text(ctx.language, "games.line", id=game.id, white=names["w"], black=names["b"],
                                        result=game.result or "*", date=game.created.strftime("%Y-%m-%d"),
                                        variant=variant))
    return [Reply(kind="info", text="\n".join(lines), language=ctx.language)]


def game_number(text: str) -> int | None:
    """The game a word names: ``123`` or ``#123``."""
    digits = text.removeprefix("#")
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 12 else None


async def finished_game(table: Table, ctx: Context, number: int) -> Game:
    """Game ``number`` of this chat, finished; refused for any other (another chat's, say)."""
    try:
        game = await table.storage.get_game(number)
    except NotFound:
        raise Refusal("no_such_game", id=number) from None
    if (game.platform, game.channel) != (ctx.msg.platform, ctx.msg.channel) or game.status != "finished":
        raise Refusal("no_such_game", id=number)
    return game
