"""Storage's tournament methods (storage/queries/tournaments.py): events, their rounds and
reminders, and weekly rotas. Each write starts with the event's compare-and-set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime, time
from typing import Any

from ._driver import Answer, Driver, answered
from ._plan import Duplicate
from ._rows import utc
from .errors import TournamentBusy
from .queries import tournaments
from .records import (
    Bye,
    EntrantRow,
    Game,
    NewNotice,
    NewRound,
    NewTournament,
    Platform,
    Rota,
    Tournament,
    TournamentState,
)


class TournamentMethods(Driver):
    """Storage's tournament methods."""

    async def create_tournament(self, new: NewTournament, *, notices: Sequence[NewNotice] = ()) -> Tournament:
        """Announce an event (and store `notices`); TournamentBusy if the chat has an open one
        (announced or running), and then nothing is stored."""
        try:
            return await self._write(tournaments.create_tournament(new, list(notices), self._time()))
        except Duplicate as error:
            raise await self._busy(new.platform, new.channel) from error

    async def tournament(self, tournament_id: int) -> Tournament:
        """The event with that id; NotFound if there is none."""
        return await self._read(tournaments.tournament(tournament_id))

    async def open_tournament(self, platform: Platform, channel: str) -> Tournament | None:
        """The chat's announced or running event, if any (there is at most one)."""
        return await self._read(tournaments.open_tournament(platform, channel))

    async def last_finished_tournament(self, platform: Platform, channel: str) -> Tournament | None:
        """The chat's most recently finished event, if any (what it reads once none is open)."""
        return await self._read(tournaments.last_finished_tournament(platform, channel))

    async def tournament_state(self, tournament_id: int) -> TournamentState:
        """The event with its entrants, rounds, boards (with their games' state), byes and
        forbidden pairs, in one snapshot; NotFound if there is none."""
        return await self._snapshot(tournaments.tournament_state(tournament_id))

    async def change_tournament(
        self, tournament_id: int, version: int, changes: Mapping[str, Any] | None = None, *,
        entrants: Sequence[EntrantRow] = (), byes: Sequence[Bye] = (), forbidden: Sequence[tuple[int, int]] = (),
        notices: Sequence[NewNotice] = (),
    ) -> Tournament:
        """Apply `changes` (Tournament fields by name, e.g. {"status": "running"}) if the event
        is still at `version`, else VersionConflict and nothing is stored; with them, in one
        transaction: `entrants` inserted or changed (join, withdraw, rejoin, ratings and seats
        at the start; a joined time is kept), `byes` set, `forbidden` pairs added, `notices`.
        The event as changed. A player is entered in one open event (announced or running) at a
        time: an entrant joining or rejoining here while entered, not withdrawn, in another
        (which is of the same platform, as players are) is EnteredElsewhere, naming it, and
        nothing is stored; checked inside the transaction, so of two joins at once in two chats
        one stores."""
        return await self._write(tournaments.change_tournament(
            tournament_id, version, dict(changes or {}), list(entrants), list(byes), list(forbidden), list(notices),
            self._time()))

    async def store_round(
        self, tournament_id: int, version: int, new_round: NewRound, *, notices: Sequence[NewNotice] = (),
        superseded: Sequence[str] = (), answer: Answer[list[Game]] | None = None,
    ) -> tuple[Tournament, list[Game]]:
        """Store a paired round in one transaction: the event's compare-and-set (VersionConflict),
        the round (RoundAlreadyPaired if it is stored already), the round before closed, each
        board's game (its NewGame made `active` in the event) and board, the byes, the
        withdrawals, `last_round` and `next_at`; `notices`, and those `answer(games)` makes
        (a game's notice needs its id); the notices keyed `superseded` marked sent. ValueError,
        and nothing stored, if a paired player would hold two open games of the event.
        Returns the event and the new games, in board order."""
        event, games = await self._write(tournaments.store_round(
            tournament_id, version, new_round, list(notices), list(superseded), answer, self._time()))
        return event, [self._moves.put(game) for game in games]

    async def record_reminders(
        self, tournament_id: int, marks: Sequence[str], notices: Mapping[str, Sequence[NewNotice]],
    ) -> list[str]:
        """Record each of `marks` once ('day', 'hour', '5m', 'r3:day'): a mark with notices in
        `notices` as sent, with its notices; a mark without as skipped. Marks recorded before
        (by this process or another) are left, and their notices not stored. Returns the
        marks this call recorded."""
        return await self._write(tournaments.record_reminders(tournament_id, list(marks), notices, self._time()))

    async def due_tournaments(self, now: datetime, *, platform: Platform | None = None) -> list[int]:
        """Ids of the open events whose `next_at` is at or before `now`, earliest first, and of
        the running ones without an open game (a round over whose end nobody acted on)."""
        return await self._read(tournaments.due_tournaments(utc(now), platform))

    # Weekly rotas

    async def add_rota(
        self, platform: Platform, channel: str, weekday: int, local_time: time, timezone: str, spec: str,
        created_by: int, *, community: str | None = None, notices: Sequence[NewNotice] = (),
    ) -> Rota:
        """A weekly event in the chat on `weekday` (Monday 0) at `local_time` in `timezone`,
        made from `spec` (JSON); the rota at that day and time is changed and made active if
        there is one."""
        return await self._write(answered(tournaments.add_rota(
            platform, channel, community, weekday, local_time, timezone, spec, created_by, self._time()),
            lambda _: notices, self._time()))

    async def stop_rota(self, platform: Platform, channel: str, *, created_by: int | None = None,
                        notices: Sequence[NewNotice] = ()) -> int:
        """Stop the chat's rotas (only those `created_by` made, if given); how many were active."""
        return await self._write(answered(tournaments.stop_rota(platform, channel, created_by), lambda _: notices,
                                          self._time()))

    async def active_rotas(self, platform: Platform, channel: str) -> list[Rota]:
        """The chat's active rotas, oldest first."""
        return await self._read(tournaments.active_rotas(platform, channel))

    async def due_rotas(self, now: datetime, *, platform: Platform | None = None) -> list[Rota]:
        """The active rotas with no event to come (none announced, none starting after `now`);
        whether the next date's event is due is the caller's call (the rota's day and zone)."""
        return await self._read(tournaments.due_rotas(utc(now), platform))

    async def rota_event(self, rota_id: int, rota_date: date, new: NewTournament, *,
                         notices: Sequence[NewNotice] = (),
                         answer: Answer[Tournament | None] | None = None) -> Tournament | None:
        """The rota's event of `rota_date` (its `rota_id` and `rota_date` set from these), made
        once: None if it was made already. TournamentBusy if the chat has another open event.
        `notices`, and those `answer(event)` makes, are stored with it (none if it was made already)."""
        try:
            return await self._write(answered(tournaments.rota_event(rota_id, rota_date, new, list(notices),
                                                                     self._time()), answer, self._time()))
        except Duplicate as error:
            raise await self._busy(new.platform, new.channel) from error

    async def _busy(self, platform: Platform, channel: str) -> TournamentBusy:
        held = await self._read(tournaments.open_tournament(platform, channel))
        return TournamentBusy(platform, channel, None if held is None else held.id)

