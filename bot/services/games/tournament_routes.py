"""Tournament commands typed in a chat: ../tournaments/ decides; these only route to it.

The tournament service imports this package (it ends games with ``Table.finish``), so this
package must not import it back (tests/test_import_cycles.py): it calls a ``TournamentDesk``
that bot/app.py fills with the service once both exist (``GameService.attach``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ...messages import Platform, Reply
from ..errors import Refusal
from .registry import CommandGroup

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("tournaments")
TOURNAMENT_COMMANDS = ("tournament", "join", "withdraw", "pairings", "standings", "berserk")


class TournamentDesk(Protocol):
    """What the game service asks of the tournament service."""

    async def command(self, table: Table, ctx: Context, name: str, args: Sequence[str]) -> list[Reply]:
        """Answers one tournament command (``tournament ...``, ``join``, ``pairings``, ...)."""
        ...

    def poke(self, tournament_id: int) -> None:
        """A game of the event ended: ``settle`` advances it."""
        ...

    async def settle(self) -> None:
        """Advances the events poked since the last call (after a chat's lock is released)."""
        ...

    async def tick(self, platform: Platform | None = None) -> None:
        """The scheduler's turn: the events whose ``next_at`` passed, the poked ones, rotas."""
        ...

    async def export_trf(self, table: Table, ctx: Context, tournament_id: int) -> list[Reply]:
        """``export ID trf``: the event as a FIDE TRF-16 file."""
        ...

    async def standings_png(self, tournament_id: int, round_number: int, language: str) -> bytes | None:
        """The standings picture after a closed round (None while they may change)."""
        ...

    async def refuse_new(self, table: Table, ctx: Context) -> None:
        """Raises a Refusal when the sender may not start a casual game here (an active entrant
        of the chat's running event)."""
        ...


async def tournament_command(table: Table, ctx: Context, name: str, args: tuple[str, ...]) -> list[Reply]:
    if table.desk is None:
        raise Refusal("unknown_command")
    return await table.desk.command(table, ctx, name, args)


async def export_trf(table: Table, ctx: Context, tournament_id: int) -> list[Reply]:
    """``export ID trf``, handed over by moves.export."""
    if table.desk is None:
        raise Refusal("unknown_command")
    return await table.desk.export_trf(table, ctx, tournament_id)


async def refuse_new(table: Table, ctx: Context) -> None:
    """``new`` is refused for an active entrant of the chat's running event."""
    if table.desk is not None:
        await table.desk.refuse_new(table, ctx)


def _route(name: str) -> None:
    @commands.command(name)
    async def route(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await tournament_command(table, ctx, name, args)


for _name in TOURNAMENT_COMMANDS:
    _route(_name)
