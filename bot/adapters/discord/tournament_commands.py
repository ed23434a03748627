"""``/makruk-tournament ...``: each subcommand turns its options into the text the tournament
service reads (``tournament new swiss 5 rounds 3+2``, ``join``, ``pairings 3``), as ``/makruk``'s
commands do. Organizers are told apart by the service (``Incoming.manager``: Manage Server).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from .commands import TIMES, VARIANT_CHOICES
from .translate import text

if TYPE_CHECKING:
    from .client import MakrukBot

SYSTEMS = [Choice(name=text(f"discord.tournament.system.{s}"), value=s) for s in ("swiss", "roundrobin", "arena")]
_CLOCK_TIME = re.compile(r"(\d{4}-\d{2}-\d{2} )?\d{1,2}:\d{2}")


def _key(name: str) -> app_commands.locale_str:
    return text(f"discord.tournament.{name}")


def _about(name: str) -> app_commands.locale_str:
    return text(f"discord.tournament.{name}.about")


@app_commands.guild_only()
class TournamentCommands(commands.GroupCog, group_name=_key("group"), group_description=_about("group")):
    """``/makruk-tournament new|join|withdraw|info|rules|pairings|standings|start|cancel``."""

    def __init__(self, bot: MakrukBot) -> None:
        self.bot = bot
        super().__init__()

    async def _say(self, interaction: discord.Interaction, words: str) -> None:
        await self.bot.door.command(interaction, words)

    @app_commands.command(name=_key("new"), description=_about("new"))
    @app_commands.rename(system=_key("opt.system"), time=_key("opt.time"), rounds=_key("opt.rounds"),
                         length=_key("opt.length"), variant=text("discord.opt.variant"), start=_key("opt.start"),
                         rated=text("discord.opt.rated"), double=_key("opt.double"), role=_key("opt.role"))
    @app_commands.describe(system=_about("opt.system"), time=_about("opt.time"), rounds=_about("opt.rounds"),
                           length=_about("opt.length"), variant=text("discord.opt.variant.about"),
                           start=_about("opt.start"), rated=text("discord.opt.rated.about"),
                           double=_about("opt.double"), role=_about("opt.role"))
    @app_commands.choices(system=SYSTEMS, time=TIMES, variant=VARIANT_CHOICES)
    async def new(self, interaction: discord.Interaction, system: Choice[str], time: Choice[str] | None = None,
                  rounds: Range[int, 1, 30] | None = None, length: Range[int, 20, 720] | None = None,
                  variant: Choice[str] | None = None, start: Range[str, 2, 20] | None = None,
                  rated: bool | None = None, double: bool | None = None, role: discord.Role | None = None) -> None:
        words = new_tournament(system.value, time=time.value if time else None, rounds=rounds, minutes=length,
                               variant=variant.value if variant else None, start=start, rated=rated,
                               double=bool(double), role=role.id if role else None)
        await self._say(interaction, words)

    @app_commands.command(name=_key("join"), description=_about("join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self._say(interaction, "join")

    @app_commands.command(name=_key("withdraw"), description=_about("withdraw"))
    async def withdraw(self, interaction: discord.Interaction) -> None:
        await self._say(interaction, "withdraw")

    @app_commands.command(name=_key("info"), description=_about("info"))
    @app_commands.rename(tournament=_key("opt.tournament"))
    @app_commands.describe(tournament=_about("opt.tournament"))
    async def info(self, interaction: discord.Interaction, tournament: Range[int, 1] | None = None) -> None:
        await self._say(interaction, _with("tournament", tournament))

    @app_commands.command(name=_key("rules"), description=_about("rules"))
    @app_commands.rename(tournament=_key("opt.tournament"))
    @app_commands.describe(tournament=_about("opt.tournament"))
    async def rules(self, interaction: discord.Interaction, tournament: Range[int, 1] | None = None) -> None:
        await self._say(interaction, _with("tournament rules", tournament))

    @app_commands.command(name=_key("pairings"), description=_about("pairings"))
    @app_commands.rename(round=_key("opt.round"))
    @app_commands.describe(round=_about("opt.round"))
    async def pairings(self, interaction: discord.Interaction, round: Range[int, 1] | None = None) -> None:
        await self._say(interaction, _with("pairings", round))

    @app_commands.command(name=_key("standings"), description=_about("standings"))
    @app_commands.rename(round=_key("opt.round"))
    @app_commands.describe(round=_about("opt.round"))
    async def standings(self, interaction: discord.Interaction, round: Range[int, 1] | None = None) -> None:
        await self._say(interaction, _with("standings", round))

    @app_commands.command(name=_key("start"), description=_about("start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self._say(interaction, "tournament start")

    @app_commands.command(name=_key("cancel"), description=_about("cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._say(interaction, "tournament cancel")


def new_tournament(system: str, *, time: str | None = None, rounds: int | None = None, minutes: int | None = None,
                   variant: str | None = None, start: str | None = None, rated: bool | None = None,
                   double: bool = False, role: int | None = None) -> str:
    """The service's ``tournament new`` line for the options of ``/makruk-tournament new``.

    >>> new_tournament("swiss", time="3+2", rounds=5, variant="makruk", start="20:00", rated=True)
    'tournament new swiss 5 rounds 3+2 makruk at 20:00 rated'
    >>> new_tournament("arena", time="3+2", minutes=90, start="30m", role=42)
    'tournament new arena 3+2 90m in 30m role:42'
    >>> new_tournament("roundrobin", time="1d", double=True, rated=False)
    'tournament new roundrobin 1d double casual'
    """
    words = ["tournament", "new", system]
    if rounds is not None:
        words += [str(rounds), "rounds"]
    if time:
        words.append(time)
    if minutes is not None:
        words.append(f"{minutes}m")
    if variant:
        words.append(variant)
    if start:
        words += ["at" if _CLOCK_TIME.fullmatch(start.strip()) else "in", start.strip()]
    if double:
        words.append("double")
    if rated is not None:
        words.append("rated" if rated else "casual")
    if role is not None:
        words.append(f"role:{role}")
    return " ".join(words)


def _with(words: str, number: int | None) -> str:
    return words if number is None else f"{words} {number}"
