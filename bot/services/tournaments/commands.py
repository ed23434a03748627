"""The commands of an event (docs/tournaments.md 2.2): ``tournament new|weekly|start|cancel|
rules|forbid|bye [ID]``, ``join``, ``withdraw``, ``pairings [N]``, ``standings [N]``.

Each change is one ``change_tournament`` with the compare-and-set on the event's version and
the answer stored with it; a change that needs the event to move on (a start) pokes it, and
the game service settles it once the chat's lock is released.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from storage import TournamentBusy
from storage import NotFound
from storage.records import Bye, EntrantRow, NewTournament, Tournament

from ...messages import Reply
from ..errors import Refusal
from ..games.context import Context
from . import events, grammar, history, notices, reminders, rota
from .organizers import may_organize

if TYPE_CHECKING:
    from .service import TournamentService

ROUND_ROBIN_MAX = 16


async def answer(service: TournamentService, ctx: Context, name: str, args: tuple[str, ...]) -> list[Reply]:
    if name == "tournament":
        return await _tournament(service, ctx, args)
    if name == "join":
        return await join(service, ctx)
    if name == "withdraw":
        return await withdraw(service, ctx)
    if name in ("pairings", "standings"):
        return await show(service, ctx, name, args)
    raise Refusal("not_arena")  # berserk: the arena's (arena.py)


async def _tournament(service: TournamentService, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    word = grammar.first_word(service.table.catalog, args)
    if word == "new":
        return await new(service, ctx, args[1:])
    if word == "weekly":
        return await rota.weekly(service, ctx, args[1:])
    if word == "start":
        return await start_now(service, ctx)
    if word == "cancel":
        return await cancel(service, ctx)
    if word == "forbid":
        return await forbid(service, ctx)
    if word == "bye":
        return await half_bye(service, ctx)
    if word == "rules":
        event = await _event(service, ctx, args[1:])
        return [_info(service, ctx, "tournament.rules", event, **_rules_fields(service, ctx, event))]
    event = await _event(service, ctx, args)
    state = await service.storage.tournament_state(event.id)
    names = await service.names(state)
    players = ", ".join(names.get(e.player_id, "?") for e in state.entrants if not e.withdrawn) or "-"
    return [_info(service, ctx, "tournament.about", event, players=players,
                  count=len(history.active_ids(state)), **_rules_fields(service, ctx, event))]


# --- announcing --------------------------------------------------------------------------------

async def new(service: TournamentService, ctx: Context, args: Sequence[str]) -> list[Reply]:
    service.groups_only(ctx)
    table = service.table
    now = table.clock.now()
    spec = grammar.parse_event(table.catalog, args, now=now, zone=await rota.zone_of(service, ctx))
    me = await table.player(ctx)
    made = NewTournament(**events.spec_fields(spec), platform=ctx.msg.platform, channel=ctx.msg.channel,
                         community=ctx.msg.community or ctx.msg.channel, salt=secrets.token_hex(3), created_by=me.id,
                         next_at=reminders.first_next_at(spec.live, spec.starts, now))

    try:
        event = await service.storage.create_tournament(made)
    except TournamentBusy as busy:
        raise Refusal("tournament_busy", id=busy.tournament_id or "?") from None
    return [_info(service, ctx, "tournament.announced", event, **_rules_fields(service, ctx, event))]


# --- entering and leaving ----------------------------------------------------------------------

async def join(service: TournamentService, ctx: Context) -> list[Reply]:
    service.groups_only(ctx)
    event = await _open_event(service, ctx)
    state = await service.storage.tournament_state(event.id)
    me = await service.table.player(ctx)
    entry = next((e for e in state.entrants if e.player_id == me.id), None)
    if entry is not None and not entry.withdrawn:
        raise Refusal("already_joined", id=event.id)
    byes: list[Bye] = []
    running = event.status == "running"
    if event.pairing_system == "roundrobin":
        if running:
            raise Refusal("late_join_closed", id=event.id)
        if len(history.active_ids(state)) >= ROUND_ROBIN_MAX:
            raise Refusal("tournament_full", id=event.id, most=ROUND_ROBIN_MAX)
    elif running and event.pairing_system == "swiss":
        if entry is None and 2 * event.last_round >= (event.rounds or 0):
            raise Refusal("late_join_closed", id=event.id)
        had = {(b.round, b.player_id) for b in state.byes} | {(b.round, p) for b in state.boards
                                                                for p in (b.white, b.black)}
        # A late entry gets a half-point bye for each round missed; a rejoin counts them as absences.
        kind = "half" if entry is None else "zero"
        byes = [Bye(r, me.id, kind) for r in range(1, event.last_round + 1) if (r, me.id) not in had]
    speed = "live" if event.clock_initial is not None else "correspondence"
    rating = entry.rating if entry is not None else round((await service.storage.get_rating(
        me.id, event.variant, speed)).rating)
    row = EntrantRow(me.id, rating, seat=entry.seat if entry else None, withdrawn=False)
    reply = _info(service, ctx, "tournament.joined", event, name=me.display_name,
                  count=len(history.active_ids(state)) + 1)
    return await _change(service, ctx, event, [reply], entrants=[row], byes=byes)


async def withdraw(service: TournamentService, ctx: Context) -> list[Reply]:
    event = await _open_event(service, ctx)
    state = await service.storage.tournament_state(event.id)
    me = await service.table.player(ctx)
    entry = next((e for e in state.entrants if e.player_id == me.id and not e.withdrawn), None)
    if entry is None:
        raise Refusal("not_entered", id=event.id)
    reply = _info(service, ctx, "tournament.withdrew", event, name=me.display_name)
    return await _change(service, ctx, event, [reply], entrants=[EntrantRow(me.id, entry.rating, seat=entry.seat,
                                                                             withdrawn=True)])


async def half_bye(service: TournamentService, ctx: Context) -> list[Reply]:
    """``tournament bye``: a half-point bye for the next round not yet paired (a Swiss)."""
    event = await _open_event(service, ctx)
    if event.pairing_system != "swiss":
        raise Refusal("bye_swiss_only")
    state = await service.storage.tournament_state(event.id)
    me = await service.table.player(ctx)
    if me.id not in history.active_ids(state):
        raise Refusal("not_entered", id=event.id)
    number = event.last_round + 1
    if event.rounds is not None and number > event.rounds:
        raise Refusal("no_round_left", id=event.id)
    if any(b.round == number and b.player_id == me.id for b in state.byes):
        raise Refusal("bye_taken", round=number)
    reply = _info(service, ctx, "tournament.bye", event, name=me.display_name, round=number)
    return await _change(service, ctx, event, [reply], byes=[Bye(number, me.id, "half")])


# --- the organizer's -----------------------------------------------------------------------------

async def start_now(service: TournamentService, ctx: Context) -> list[Reply]:
    event = await _organized(service, ctx)
    if event.status != "announced":
        raise Refusal("already_started", id=event.id)
    now = service.table.clock.now()
    reply = _info(service, ctx, "tournament.starting", event)
    replies = await _change(service, ctx, event, [reply], changes={"starts": now, "next_at": now})
    service.poke(event.id)  # started, and paired, once the chat's lock is released
    return replies


async def cancel(service: TournamentService, ctx: Context) -> list[Reply]:
    event = await _organized(service, ctx)
    reply = _info(service, ctx, "tournament.cancelled", event)
    return await _change(service, ctx, event, [reply], changes={"status": "cancelled", "next_at": None})


async def forbid(service: TournamentService, ctx: Context) -> list[Reply]:
    event = await _organized(service, ctx)
    if len(ctx.msg.mentions) != 2 or ctx.msg.mentions[0].id == ctx.msg.mentions[1].id:
        raise Refusal("forbid_two")
    a, b = (await service.table.player(ctx, user) for user in ctx.msg.mentions)
    pair = (min(a.id, b.id), max(a.id, b.id))
    reply = _info(service, ctx, "tournament.forbidden", event, first=a.display_name, second=b.display_name)
    return await _change(service, ctx, event, [reply], forbidden=[pair])


# --- what anyone may read ----------------------------------------------------------------------

async def show(service: TournamentService, ctx: Context, name: str, args: tuple[str, ...]) -> list[Reply]:
    """``pairings [ROUND]`` and ``standings [ROUND]`` of the chat's event (else its last one)."""
    event = await service.storage.open_tournament(ctx.msg.platform, ctx.msg.channel)
    if event is None:
        raise Refusal("no_tournament")
    state = await service.storage.tournament_state(event.id)
    number = event.last_round
    if args:
        if not args[0].isdigit() or not 1 <= int(args[0]) <= event.last_round:
            raise Refusal("bad_round", high=event.last_round)
        number = int(args[0])
    if number == 0:
        raise Refusal("not_paired", id=event.id)
    names = await service.names(state)
    catalog = service.table.catalog
    if name == "standings":
        past = history.history_of(state, names, through=number)
        return [notices.standings_reply(catalog, ctx.language, event, past, number, final=False)]
    boards = [(b.white, b.black, b.game_id) for b in history.round_boards(state, number)]
    bye = next((b.player_id for b in state.byes if b.round == number and b.kind == "pairing"), None)
    return [notices.pairings_reply(catalog, ctx.language, event, number, boards, bye, names)]


# --- helpers -----------------------------------------------------------------------------------

async def _event(service: TournamentService, ctx: Context, args: Sequence[str]) -> Tournament:
    """``ID`` if given (finished events stay readable), else the chat's open event."""
    if args:
        if not args[0].lstrip("#").isdigit():
            raise Refusal("bad_option", option=args[0][:20])
        try:
            return await service.storage.tournament(int(args[0].lstrip("#")))
        except NotFound:
            raise Refusal("no_tournament") from None
    return await _open_event(service, ctx)


async def _open_event(service: TournamentService, ctx: Context) -> Tournament:
    event = await service.storage.open_tournament(ctx.msg.platform, ctx.msg.channel)
    if event is None:
        raise Refusal("no_tournament")
    return event


async def _organized(service: TournamentService, ctx: Context) -> Tournament:
    event = await _open_event(service, ctx)
    me = await service.table.player(ctx)
    if not may_organize(event, me.id, ctx.msg):
        raise Refusal("not_organizer", id=event.id)
    return event


async def _change(service: TournamentService, ctx: Context, event: Tournament, replies: list[Reply], *,
                  changes: Mapping[str, object] | None = None, entrants: Sequence[EntrantRow] = (),
                  byes: Sequence[Bye] = (), forbidden: Sequence[tuple[int, int]] = ()) -> list[Reply]:
    """Stores a change of ``event`` with its answer (``replies``)."""
    rows, shown = service.table.answers(ctx, replies)
    await service.storage.change_tournament(event.id, event.version, changes,
                                            entrants=entrants, byes=byes, forbidden=forbidden, notices=rows)
    return shown


def _info(service: TournamentService, ctx: Context, key: str, event: Tournament, **fields: object) -> Reply:
    return service.table.present.info(ctx.language, key, kind="tournament", id=event.id, **fields)


def _rules_fields(service: TournamentService, ctx: Context, event: Tournament) -> dict[str, object]:
    present = service.table.present
    t: Callable[..., str] = present.t
    if event.clock_initial is not None:
        control = f"{event.clock_initial // 60}+{event.clock_increment}"
    else:
        control = present.duration(ctx.language, event.move_seconds or 0)
    return {
        "system": t(ctx.language, f"tournament.system.{event.pairing_system}"),
        "rounds": event.rounds or "-", "control": control,
        "variant": t(ctx.language, f"variant.{event.variant}"),
        "start": present.when(ctx.language, event.starts) if event.starts else t(ctx.language, "tournament.on_start"),
        "rated": t(ctx.language, "tournament.rated" if event.rated else "tournament.casual"),
    }
