"""What anyone may read of an event (docs/tournaments.md 2.2): ``tournament [ID]``,
``tournament rules [ID]``, ``pairings [ROUND]`` and ``standings [ROUND]``.

A table of standings is *after* round N once every board of round N has a result, and says
so; while round N is being played it is the standings *during* it (its games so far), and says
that. ``standings`` alone is the latest round's. An arena has no rounds:
its standings are its arena points. With no open event in the chat, ``pairings`` and
``standings`` read the chat's most recently finished one, saying it finished.

>>> round_number("3"), round_number("#12"), round_number("x"), round_number("²")
(3, 12, None, None)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from storage import NotFound
from storage.records import Tournament, TournamentState

from ...messages import Reply
from ..errors import Refusal
from ..games.context import Context
from . import arena, history, notices, picture, present, pushes
from .organizers import may_read

if TYPE_CHECKING:
    from .service import TournamentService

MAX_ID_DIGITS: Final = 12  # as archive.game_number: an id the databases' 64-bit integers hold
MAX_ROUND_DIGITS: Final = 4


async def summary(service: TournamentService, ctx: Context, args: Sequence[str]) -> list[Reply]:
    """``tournament [ID]``: the event; a finished one with its final standings (the permanent
    link its final post names)."""
    event = await _event(service, ctx, args)
    t = present.texts(service.table.catalog, ctx.language)
    shown = _reply(ctx, present.event_summary(t, await notices.view(service, event)))
    if event.status != "finished":
        return [shown]
    state = await service.storage.tournament_state(event.id)
    return [shown, await _final(service, ctx, state)]


async def rules(service: TournamentService, ctx: Context, args: Sequence[str]) -> list[Reply]:
    """``tournament rules [ID]``."""
    event = await _event(service, ctx, args)
    t = present.texts(service.table.catalog, ctx.language)
    return [_reply(ctx, present.rules_text(t, await notices.view(service, event)))]


async def pairings(service: TournamentService, ctx: Context, args: Sequence[str]) -> list[Reply]:
    """``pairings [ROUND]``: a round's boards, its pairing bye and who sits it out."""
    event = await _readable(service, ctx)
    state = await service.storage.tournament_state(event.id)
    number = _asked(args, event) or event.last_round
    if number == 0:
        raise Refusal("no_round", round=1, id=event.id)
    names = await service.names(state)
    boards = [(b.white, b.black, b.game_id, b.score) for b in history.round_boards(state, number)]
    bye = next((b.player_id for b in state.byes if b.round == number and b.kind == "pairing"), None)
    absent = [(b.player_id, b.kind) for b in state.byes if b.round == number and b.kind != "pairing"]
    t = present.texts(service.table.catalog, ctx.language)
    reply = notices.pairings_reply(t, ctx.language, await notices.view(service, event, state), number, boards, bye,
                                   names, absent=absent)
    return [_noted(t, event, reply)]


async def standings(service: TournamentService, ctx: Context, args: Sequence[str]) -> list[Reply]:
    """``standings [ROUND]``: after the latest round (or round N), or during it while it is being
    played; an arena's points so far, or its final standings."""
    event = await _readable(service, ctx)
    t = present.texts(service.table.catalog, ctx.language)
    return [_noted(t, event, await _standings(service, ctx, t, event, args))]


async def _standings(service: TournamentService, ctx: Context, t: present.Text, event: Tournament,
                     args: Sequence[str]) -> Reply:
    state = await service.storage.tournament_state(event.id)
    me = await service.table.player(ctx)
    if event.pairing_system == "arena":
        if args:
            raise Refusal("arena_no_rounds", id=event.id)
        names = await service.names(state)
        return arena.standings_reply(t, ctx.language, event, state, names, final=event.status == "finished",
                                     asking=me.id)
    done = history.completed_round(state)
    number = _asked(args, event) or event.last_round
    if number == 0:
        raise Refusal("no_round", round=1, id=event.id)
    if event.status == "finished" and number == event.last_round:
        return await _final(service, ctx, state)
    names = await service.names(state)
    past = history.history_of(state, names, through=number)
    reply = notices.standings_reply(t, ctx.language, event, past, number, final=False, asking=me.id,
                                    during=number > done)
    return await _pictured(service, ctx, state, reply, number)


def _noted(t: present.Text, event: Tournament, reply: Reply) -> Reply:
    """What is read of a finished event (its pairings, its standings) says first that it is over."""
    if event.status != "finished":
        return reply
    return dataclasses.replace(reply, text=present.finished_note(t, event.id) + "\n" + reply.text)


async def _final(service: TournamentService, ctx: Context, state: TournamentState) -> Reply:
    """A finished event's final standings, as its final post told them (with their picture)."""
    event = state.tournament
    names = await service.names(state)
    t = present.texts(service.table.catalog, ctx.language)
    if event.pairing_system == "arena":
        return arena.standings_reply(t, ctx.language, event, state, names, final=True)
    past = history.history_of(state, names, through=event.last_round)
    reply = notices.standings_reply(t, ctx.language, event, past, event.last_round, final=True)
    return await _pictured(service, ctx, state, reply, event.last_round)


async def _pictured(service: TournamentService, ctx: Context, state: TournamentState, reply: Reply,
                    number: int) -> Reply:
    """The standings with their picture, when they can no longer change: drawn for a door that
    takes PNGs, else named for LINE's URL."""
    if not picture.settled(state, number):
        return reply
    if not ctx.msg.pictures:
        return dataclasses.replace(reply, data=pushes.with_picture(reply.data, state.tournament.id, number))
    png = await picture.standings_png(service, state.tournament.id, number, ctx.language)
    return dataclasses.replace(reply, image=png)


def round_number(word: str) -> int | None:
    """The round a word names (``3``, ``#3``): ASCII digits only, of a sane length."""
    digits = word.removeprefix("#")
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= MAX_ROUND_DIGITS else None


def event_number(word: str) -> int | None:
    """The event a word names (``7``, ``#7``): ASCII digits that fit the databases' integers."""
    digits = word.removeprefix("#")
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= MAX_ID_DIGITS else None


def _asked(args: Sequence[str], event: Tournament) -> int | None:
    """The round ``args`` name (None: none named); refused if it is no number or not paired."""
    if not args:
        return None
    digits = args[0].removeprefix("#")
    if not (digits.isascii() and digits.isdigit()):
        raise Refusal("bad_round", round=args[0][:12])
    number = round_number(args[0])
    if number is None or not 1 <= number <= event.last_round:
        raise Refusal("no_round", round=digits[:6], id=event.id)
    return number


async def _event(service: TournamentService, ctx: Context, args: Sequence[str]) -> Tournament:
    """``ID`` if given (finished events stay readable), else the chat's open event."""
    if not args:
        return await open_event(service, ctx)
    digits = args[0].removeprefix("#")
    if not (digits.isascii() and digits.isdigit()):
        raise Refusal("bad_option", option=args[0][:20])
    number = event_number(args[0])
    event = None
    if number is not None:
        try:
            event = await service.storage.tournament(number)
        except NotFound:
            pass
    if event is None or not may_read(event, ctx.msg):
        raise Refusal("no_such_tournament", id=digits[:MAX_ID_DIGITS])
    return event


async def open_event(service: TournamentService, ctx: Context) -> Tournament:
    event = await service.storage.open_tournament(ctx.msg.platform, ctx.msg.channel)
    if event is None:
        raise Refusal("no_tournament")
    return event


async def _readable(service: TournamentService, ctx: Context) -> Tournament:
    """The chat's open event, else its most recently finished one."""
    event = await service.storage.open_tournament(ctx.msg.platform, ctx.msg.channel)
    if event is None:
        event = await service.storage.last_finished_tournament(ctx.msg.platform, ctx.msg.channel)
    if event is None:
        raise Refusal("no_tournament")
    return event


def _reply(ctx: Context, text: str) -> Reply:
    return Reply(kind="tournament", text=text, language=ctx.language)
