"""Slash commands: ``/makruk <command>`` for playing, ``/makruk-server <setting>`` for a server's
settings. Each command only turns its options into the chat text the game service reads.

Discord honours a default permission only on top-level commands, so the settings that need
Manage Server have a top-level group of their own rather than living under ``/makruk``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from ... import i18n
from ...services.games.variants import VARIANTS
from .permissions import require_manage_guild
from .translate import text
from .words import handle

if TYPE_CHECKING:
    from .client import MakrukBot

COLOURS = [Choice(name=text(f"discord.choice.{c}"), value=c) for c in ("white", "black", "random")]
PROMOTIONS = [Choice(name=text(f"discord.choice.{p}"), value=p) for p in ("forced", "optional")]
PERPETUALS = [Choice(name=text(f"discord.choice.perpetual_{p}"), value=f"perpetual-{p}") for p in ("forbid", "draw")]
# Live clocks first (minutes + seconds a move, as typed: new @bob 3+2), then times per move.
LIVE_CLOCKS = ("3+2", "5+3", "10+0", "15+10")
TIMES = [Choice(name=text(f"discord.choice.live_{c.replace('+', '_')}"), value=c) for c in LIVE_CLOCKS] + [
    Choice(name=text(f"discord.choice.time_{t}"), value=t) for t in ("5m", "1h", "1d", "3d", "7d")]
NOTATIONS = [Choice(name=text(f"discord.choice.{n}"), value=n) for n in ("san", "thai", "playok")]
LANGUAGES = [Choice(name=text(f"discord.choice.lang_{code}"), value=code) for code in i18n.LANGUAGES]
SWITCHES = [Choice(name=text(f"discord.choice.{state}"), value=state) for state in ("on", "off")]
VARIANT_CHOICES = [Choice(name=text(f"variant.{variant}"), value=variant) for variant in VARIANTS]


# Defined before the classes whose bodies call it.
def says(word: str, *, slow: bool = False) -> app_commands.Command[PlayCommands | DailyPuzzleCommands, [], None]:
    """A command without options that says its own name to the service (``/makruk board`` -> ``board``);
    ``slow``: the engine answers it, so it is deferred at once."""

    async def callback(owner: PlayCommands | DailyPuzzleCommands, interaction: discord.Interaction) -> None:
        await owner.bot.door.command(interaction, word, slow=slow)

    # discord.py passes the cog or group first only to callbacks whose dotted name shows a class,
    # and this one is assigned in a class body.
    callback.__qualname__ = f"Cog.{word}"
    return app_commands.command(name=text(f"discord.cmd.{word}"), description=text(f"discord.cmd.{word}.about"))(
        callback)


class PlayCommands(commands.GroupCog, group_name=text("discord.cmd.makruk"),
                   group_description=text("discord.cmd.makruk.about")):
    """``/makruk ...``: every game command of the service."""

    def __init__(self, bot: MakrukBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=text("discord.cmd.new"), description=text("discord.cmd.new.about"))
    @app_commands.rename(opponent=text("discord.opt.opponent"), level=text("discord.opt.bot"),
                         colour=text("discord.opt.colour"), promotion=text("discord.opt.promotion"),
                         perpetual=text("discord.opt.perpetual"), time=text("discord.opt.time"),
                         rated=text("discord.opt.rated"), variant=text("discord.opt.variant"),
                         fen=text("discord.opt.fen"))
    @app_commands.describe(opponent=text("discord.opt.opponent.about"), level=text("discord.opt.bot.about"),
                           colour=text("discord.opt.colour.about"), promotion=text("discord.opt.promotion.about"),
                           perpetual=text("discord.opt.perpetual.about"), time=text("discord.opt.time.about"),
                           rated=text("discord.opt.rated.about"), variant=text("discord.opt.variant.about"),
                           fen=text("discord.opt.fen.about"))
    @app_commands.choices(colour=COLOURS, promotion=PROMOTIONS, perpetual=PERPETUALS, time=TIMES,
                          variant=VARIANT_CHOICES)
    async def new(self, interaction: discord.Interaction, opponent: discord.User | None = None,
                  level: Range[int, 1, 8] | None = None, colour: Choice[str] | None = None,
                  promotion: Choice[str] | None = None, perpetual: Choice[str] | None = None,
                  time: Choice[str] | None = None, rated: bool | None = None,
                  variant: Choice[str] | None = None, fen: Range[str, 10, 120] | None = None) -> None:
        if opponent is not None and self.bot.user is not None and opponent.id == self.bot.user.id:
            opponent, level = None, level or 1  # challenging the bot itself means playing it
        words = new_command(opponent, level, [o.value for o in (variant, colour, promotion, perpetual) if o],
                            time.value if time else None, rated)
        if fen:
            words += f" from {fen}"
        await self.bot.door.command(interaction, words, mentions=[opponent] if opponent else [],
                                    slow=level is not None)

    accept = says("accept")
    decline = says("decline")

    @app_commands.command(name=text("discord.cmd.move"), description=text("discord.cmd.move.about"))
    @app_commands.rename(move=text("discord.opt.move"))
    @app_commands.describe(move=text("discord.opt.move.about"))
    async def move(self, interaction: discord.Interaction, move: Range[str, 1, 40]) -> None:
        await self.bot.door.move(interaction, move)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.bot.door.move_options(interaction, current)

    board = says("board")
    flip = says("flip")
    resign = says("resign")
    draw = says("draw")
    count = says("count")
    stopcount = says("stopcount")
    undo = says("undo")

    @app_commands.command(name=text("discord.cmd.setup"), description=text("discord.cmd.setup.about"))
    async def setup(self, interaction: discord.Interaction) -> None:
        await self.bot.door.command(interaction, "setup")

    @app_commands.command(name=text("discord.cmd.history"), description=text("discord.cmd.history.about"))
    @app_commands.rename(notation=text("discord.opt.notation"))
    @app_commands.describe(notation=text("discord.opt.notation.about"))
    @app_commands.choices(notation=NOTATIONS)
    async def history(self, interaction: discord.Interaction, notation: Choice[str] | None = None) -> None:
        await self.bot.door.command(interaction, f"history {notation.value}" if notation else "history")

    @app_commands.command(name=text("discord.cmd.export"), description=text("discord.cmd.export.about"))
    @app_commands.rename(game=text("discord.opt.game"), gif=text("discord.opt.gif"))
    @app_commands.describe(game=text("discord.opt.game.about"), gif=text("discord.opt.gif.about"))
    async def export(self, interaction: discord.Interaction, game: Range[int, 1] | None = None,
                     gif: bool | None = None) -> None:
        words = ["export"] + ([str(game)] if game is not None else []) + (["gif"] if gif and game else [])
        await self.bot.door.command(interaction, " ".join(words), slow=bool(gif))

    games = says("games")

    @app_commands.command(name=text("discord.cmd.rating"), description=text("discord.cmd.rating.about"))
    @app_commands.rename(player=text("discord.opt.player"), variant=text("discord.opt.variant"))
    @app_commands.describe(player=text("discord.opt.player.about"), variant=text("discord.opt.variant.about"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rating(self, interaction: discord.Interaction, player: discord.User | None = None,
                     variant: Choice[str] | None = None) -> None:
        words = ["rating"]
        if player:
            words.append(f"@{handle(player)}")
        if variant:
            words.append(variant.value)
        await self.bot.door.command(interaction, " ".join(words), mentions=[player] if player else [])

    @app_commands.command(name=text("discord.cmd.top"), description=text("discord.cmd.top.about"))
    @app_commands.rename(variant=text("discord.opt.variant"))
    @app_commands.describe(variant=text("discord.opt.variant.about"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def top(self, interaction: discord.Interaction, variant: Choice[str] | None = None) -> None:
        await self.bot.door.command(interaction, f"top {variant.value}" if variant else "top")

    help = says("help")
    hint = says("hint", slow=True)

    @app_commands.command(name=text("discord.cmd.review"), description=text("discord.cmd.review.about"))
    @app_commands.rename(game=text("discord.opt.game"), pgn=text("discord.opt.pgn"), file=text("discord.opt.file"))
    @app_commands.describe(game=text("discord.opt.game.about"), pgn=text("discord.opt.pgn.about"),
                           file=text("discord.opt.file.about"))
    async def review(self, interaction: discord.Interaction, game: Range[int, 1] | None = None,
                     pgn: Range[str, 2, 4000] | None = None, file: discord.Attachment | None = None) -> None:
        pasted = await pasted_game(pgn, file)
        words = f"review {game}" if game is not None else f"review {pasted}" if pasted else "review"
        await self.bot.door.command(interaction, words, slow=True)

    @app_commands.command(name=text("discord.cmd.analyse"), description=text("discord.cmd.analyse.about"))
    @app_commands.rename(fen=text("discord.opt.position"), file=text("discord.opt.file"),
                         variant=text("discord.opt.variant"))
    @app_commands.describe(fen=text("discord.opt.position.about"), file=text("discord.opt.file.about"),
                           variant=text("discord.opt.variant.about"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def analyse(self, interaction: discord.Interaction, fen: Range[str, 2, 4000] | None = None,
                      file: discord.Attachment | None = None, variant: Choice[str] | None = None) -> None:
        pasted = await pasted_game(fen, file)
        words = " ".join(w for w in ("analyse", variant.value if variant else "", pasted) if w)
        await self.bot.door.command(interaction, words, slow=True)

    puzzle = says("puzzle")
    giveup = says("giveup")
    streak = says("streak")
    puzzletop = says("puzzletop")


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ServerCommands(commands.GroupCog, group_name=text("discord.cmd.server"),
                     group_description=text("discord.cmd.server.about")):
    """``/makruk-server ...``: settings for members with Manage Server.

    Discord hides the group from other members (the default permission, which a server may
    change) and ``interaction_check`` refuses them anyway: ``lang``, ``notices`` (pushed reminders
    and daily puzzles on or off) and the daily-puzzle subscription (``puzzle subscribe|unsubscribe``,
    a ``ManageServerGroup``); more sub-groups join through ``MakrukBot(server_groups=...)``.
    """

    def __init__(self, bot: MakrukBot, groups: Sequence[app_commands.Group] = ()) -> None:
        self.bot = bot
        super().__init__()
        assert self.app_command is not None  # a GroupCog always has its group
        for group in groups:
            self.app_command.add_command(group)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return require_manage_guild(interaction)

    @app_commands.command(name=text("discord.cmd.lang"), description=text("discord.cmd.lang.about"))
    @app_commands.rename(language=text("discord.opt.language"))
    @app_commands.describe(language=text("discord.opt.language.about"))
    @app_commands.choices(language=LANGUAGES)
    async def lang(self, interaction: discord.Interaction, language: Choice[str]) -> None:
        await self.bot.door.command(interaction, f"lang {language.value}")

    @app_commands.command(name=text("discord.cmd.notation"), description=text("discord.cmd.notation.about"))
    @app_commands.rename(notation=text("discord.opt.notation"))
    @app_commands.describe(notation=text("discord.opt.notation.about"))
    @app_commands.choices(notation=NOTATIONS)
    async def notation(self, interaction: discord.Interaction, notation: Choice[str]) -> None:
        await self.bot.door.command(interaction, f"notation {notation.value}")

    @app_commands.command(name=text("discord.cmd.notices"), description=text("discord.cmd.notices.about"))
    @app_commands.rename(state=text("discord.opt.notices"))
    @app_commands.describe(state=text("discord.opt.notices.about"))
    @app_commands.choices(state=SWITCHES)
    async def notices(self, interaction: discord.Interaction, state: Choice[str]) -> None:
        await self.bot.door.command(interaction, f"notices {state.value}")


class ManageServerGroup(app_commands.Group):
    """A sub-group of ``/makruk-server``: its commands, too, are for members with Manage Server."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return require_manage_guild(interaction)


class DailyPuzzleCommands(ManageServerGroup):
    """``/makruk-server puzzle subscribe|unsubscribe``: the channel's daily puzzle."""

    def __init__(self, bot: MakrukBot) -> None:
        super().__init__(name=text("discord.cmd.daily"), description=text("discord.cmd.daily.about"))
        self.bot = bot

    @app_commands.command(name=text("discord.cmd.subscribe"), description=text("discord.cmd.subscribe.about"))
    @app_commands.rename(at=text("discord.opt.at"), zone=text("discord.opt.zone"))
    @app_commands.describe(at=text("discord.opt.at.about"), zone=text("discord.opt.zone.about"))
    async def subscribe(self, interaction: discord.Interaction, at: Range[str, 4, 5] | None = None,
                        zone: Range[str, 3, 40] | None = None) -> None:
        words = " ".join(["subscribe", *(w for w in (at, zone) if w)])
        await self.bot.door.command(interaction, words)

    unsubscribe = says("unsubscribe")


MAX_PGN_FILE = 64 * 1024  # an attached .pgn larger than this is no single game to review


async def pasted_game(text: str | None, file: discord.Attachment | None) -> str:
    """The game or position given to ``/makruk review`` or ``analyse``: typed, or an attached
    ``.pgn`` (its text; the service refuses what it cannot read, or what is too long)."""
    if file is not None and file.size <= MAX_PGN_FILE:
        try:
            return (await file.read()).decode("utf-8-sig", errors="replace").strip()
        except discord.HTTPException:
            return text or ""
    return text or ""


def new_command(opponent: discord.abc.User | None, level: int | None, words: Sequence[str],
                time: str | None, rated: bool | None) -> str:
    """The service's ``new`` line for the options of ``/makruk new``.

    >>> new_command(None, 3, ["black"], "1h", None)
    'new bot 3 black time=1h'
    """
    parts = ["new"]
    if opponent is not None:
        parts.append(f"@{handle(opponent)}")
    if level is not None:
        parts += ["bot", str(level)]
    parts += words
    if time:
        parts.append(f"time={time}")
    if rated is not None:
        parts.append("rated" if rated else "casual")
    return " ".join(parts)
