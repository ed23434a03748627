"""The tournament service: the commands of an event, and ``advance``, which does what an event
is owed now (start, close a round's window, finish, pair the next round), each step once.

It plays its games at the game service's ``Table`` (games end with ``Table.finish``), which
calls it back through the ``TournamentDesk`` protocol of games/tournament_routes.py: a game of
an event that ends pokes the event, and the game service settles the poked events once the
chat's lock is released; the scheduler ticks it for what comes due on the clock.

Exactly once comes from the database (the compare-and-set on the event's version, a round's
primary key, the outbox keys); the claim ``tournament:<id>`` only saves the other processes the
work, and a lock per event keeps this process's own callers one after the other.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from concurrent.futures import Executor

from storage import NotFound, RoundAlreadyPaired, Storage, StorageError, VersionConflict
from storage.records import TournamentState

from ...messages import Platform, Reply
from ...tournaments.trf import EventInfo, export_trf
from ..errors import Refusal
from ..games.context import Context
from ..games.table import Table
from . import arena, commands, history, picture, rota, rounds
from .organizers import is_group, may_read

log = logging.getLogger(__name__)

MAX_STEPS = 64  # an event's steps in one advance: far more than one round's (a guard against a loop)
TICK_BATCH = 32  # events advanced in one tick


class TournamentService:
    def __init__(self, table: Table, *, executor: Executor | None = None) -> None:
        self.table = table
        self.executor = executor  # where pairings run (None: the loop's default executor)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._poked: set[int] = set()

    @property
    def storage(self) -> Storage:
        return self.table.storage

    def sizes(self) -> dict[str, int]:
        """The in-memory tables (for tests and the bench: empty once the events are settled)."""
        return {"locks": len(self._locks), "poked": len(self._poked)}

    # --- the desk (games/tournament_routes.py) -----------------------------------------------

    async def command(self, table: Table, ctx: Context, name: str, args: Sequence[str]) -> list[Reply]:
        return await commands.answer(self, ctx, name, tuple(args))

    def poke(self, tournament_id: int) -> None:
        self._poked.add(tournament_id)

    async def settle(self) -> None:
        poked, self._poked = self._poked, set()  # what these advances poke again waits for the next call
        for tournament_id in sorted(poked):
            await self.advance(tournament_id)

    async def tick(self, platform: Platform | None = None) -> None:
        """The events whose ``next_at`` passed (a start, a window, a reminder) and those poked."""
        now = self.table.clock.now()
        due = set(await self.storage.due_tournaments(now, platform=platform)) | self._poked
        self._poked -= due
        for tournament_id in sorted(due)[:TICK_BATCH]:
            await self.advance(tournament_id)
        self._poked |= set(sorted(due)[TICK_BATCH:])
        try:
            await rota.tick(self, platform)
        except Exception:
            log.exception("the rotas could not be looked at; the next tick tries again")

    async def export_trf(self, table: Table, ctx: Context, tournament_id: int) -> list[Reply]:
        """``export ID trf``: the event as a FIDE TRF-16 file (``data["tournament"]`` names it,
        for the doors that send it as a file or a link)."""
        try:
            event = await self.storage.tournament(tournament_id)
        except NotFound:
            raise Refusal("no_such_tournament", id=tournament_id) from None
        text = await self.trf(tournament_id) if may_read(event, ctx.msg) else None
        if text is None:
            raise Refusal("no_such_tournament", id=tournament_id)
        return [Reply(kind="tournament_trf", text=text, language=ctx.language, data={"tournament": tournament_id})]

    async def trf(self, tournament_id: int) -> str | None:
        """The event as a FIDE TRF-16 file, as it stands now; None if there is no such event."""
        try:
            state = await self.storage.tournament_state(tournament_id)
        except NotFound:
            return None
        event = state.tournament
        names = await self.names(state)
        control = (f"{event.clock_initial}+{event.clock_increment}" if event.clock_initial is not None
                   else f"{event.move_seconds} s/move")
        info = EventInfo(name=f"Tournament {event.id} ({event.variant})", start=(event.starts or event.created).date(),
                         end=event.updated.date(), system=event.pairing_system, site=event.platform,
                         time_control=control)
        return export_trf(info, history.history_of(state, names))

    async def standings_png(self, tournament_id: int, round_number: int, language: str) -> bytes | None:
        """The standings after a round as a PNG (picture.py); None unless they can no longer change."""
        return await picture.standings_png(self, tournament_id, round_number, language)

    async def refuse_new(self, table: Table, ctx: Context) -> None:
        event = await self.storage.open_tournament(ctx.msg.platform, ctx.msg.channel)
        if event is None or event.status != "running":
            return
        me = await table.player(ctx)
        state = await self.storage.tournament_state(event.id)
        if me.id in history.active_ids(state):
            raise Refusal("in_tournament", id=event.id)

    # --- advancing an event -----------------------------------------------------------------

    async def advance(self, tournament_id: int) -> None:
        """Does what the event is owed now, step by step, reading it again after each: once
        across processes (the claim, then the database's compare-and-set) and in this one (a lock)."""
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        async with lock, self.table.claims.hold("tournament", [str(tournament_id)]) as mine:
            if not mine:
                # Another process is at it, and may have read the event before what poked it here:
                # the next tick looks again.
                self._poked.add(tournament_id)
                return
            for steps in range(MAX_STEPS):
                try:
                    state = await self.storage.tournament_state(tournament_id)
                    if not await self.step(state):
                        if steps:
                            self.table.bell.ring()  # what the steps owe the chat is due: the scheduler wakes
                        return
                except (VersionConflict, RoundAlreadyPaired):
                    continue  # someone changed the event meanwhile: read it again
                except StorageError:
                    log.exception("tournament %d could not advance; the scheduler tries again", tournament_id)
                    return
            log.error("tournament %d took %d steps in one advance; left to the next tick", tournament_id, MAX_STEPS)

    async def step(self, state: TournamentState) -> bool:
        """One step for the event as ``state`` has it; whether it did one (then read again)."""
        if state.tournament.pairing_system == "arena":
            return await arena.step(self, state)
        return await rounds.step(self, state)

    # --- shared by the modules --------------------------------------------------------------

    async def names(self, state: TournamentState) -> dict[int, str]:
        players = await self.storage.get_players([e.player_id for e in state.entrants])
        return {pid: p.display_name for pid, p in players.items()}

    async def language_of(self, platform: Platform, channel: str) -> str:
        settings = await self.storage.get_channel_settings(platform, channel)
        return settings.language or self.table.default_language(platform)

    def groups_only(self, ctx: Context) -> None:
        if not is_group(ctx.msg):
            raise Refusal("tournament_in_groups")
