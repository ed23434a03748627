"""The commands of an event (docs/tournaments.md 2.2): ``tournament new|weekly|start|cancel|
forbid|bye|help``, ``join``, ``withdraw``, ``berserk``; what anyone may read (``tournament [ID]``,
``tournament rules [ID]``, ``pairings [N]``, ``standings [N]``) is reading.py's.

Each change is one ``change_tournament`` with the compare-and-set on the event's version and
the answer stored with it; a change that needs the event to move on (a start) pokes it, and
the game service settles it once the chat's lock is released.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from storage import EnteredElsewhere, TournamentBusy
from storage.records import Bye, EntrantRow, NewNotice, Tournament
from storage.tournament_records import ByeKind

from ...messages import Reply
from ..errors import Refusal
from ..games.context import Context
from . import arena, calendar, events, grammar, history, notices, present, reading, reminders, rota, rounds
from .organizers import chat_name, may_organize, may_read

if TYPE_CHECKING:
    from .service import TournamentService


async def answer(service: TournamentService, ctx: Context, name: str, args: tuple[str, ...]) -> list[Reply]:
    if name == "tournament":
        return await _tournament(service, ctx, args)
    if name == "join":
        return await join(service, ctx)
    if name == "withdraw":
        return await withdraw(service, ctx)
    if name == "pairings":
        return await reading.pairings(service, ctx, args)
    if name == "standings":
        return await reading.standings(service, ctx, args)
    return await arena.berserk(service, ctx)


async def _tournament(service: TournamentService, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    word = grammar.first_word(service.table.catalog, args)
    if args and service.table.catalog.command_for(args[0]) == "help":
        return [service.table.present.tournament_help(ctx.language)]
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
        return await reading.rules(service, ctx, args[1:])
    return await reading.summary(service, ctx, args)


# --- announcing --------------------------------------------------------------------------------

async def new(service: TournamentService, ctx: Context, args: Sequence[str]) -> list[Reply]:
    service.groups_only(ctx)
    table = service.table
    now = table.clock.now()
    spec = grammar.parse_event(table.catalog, args, now=now, zone=await rota.zone_of(service, ctx))
    me = await table.player(ctx)
    made = events.new_tournament(spec, platform=ctx.msg.platform, channel=ctx.msg.channel,
                                 community=ctx.msg.community or ctx.msg.channel, salt=secrets.token_hex(3),
                                 created_by=me.id, next_at=reminders.first_next_at(spec.live, spec.starts, now))
    try:
        event = await service.storage.create_tournament(made)
    except TournamentBusy as busy:
        raise Refusal("tournament_open", id=busy.tournament_id or "?") from None
    t = present.texts(table.catalog, ctx.language)
    view = await notices.view(service, event)
    scheduled = calendar.scheduled(t, ctx.language, event, view)
    if scheduled:  # Discord's calendar entry: written after the event, whose id it names
        event = await service.storage.change_tournament(event.id, event.version, notices=scheduled)
    return [_reply(ctx, present.announcement(t, view))]


# --- entering and leaving ----------------------------------------------------------------------

async def join(service: TournamentService, ctx: Context) -> list[Reply]:
    service.groups_only(ctx)
    event = await reading.open_event(service, ctx)
    state = await service.storage.tournament_state(event.id)
    me = await service.table.player(ctx)
    entry = next((e for e in state.entrants if e.player_id == me.id), None)
    if entry is not None and not entry.withdrawn:
        raise Refusal("in_tournament", id=event.id)
    byes: list[Bye] = []
    running = event.status == "running"
    t = present.texts(service.table.catalog, ctx.language)
    count = len(history.active_ids(state)) + 1
    text = t("tournament.joined.one" if count == 1 else "tournament.joined", name=me.display_name, id=event.id,
             count=count)
    if event.pairing_system == "roundrobin":
        if running:
            raise Refusal("entries_closed", id=event.id)
        if count > grammar.ROUND_ROBIN_MAX:
            raise Refusal("round_robin_full", max=grammar.ROUND_ROBIN_MAX)
    elif running and event.pairing_system == "swiss":
        if entry is None and 2 * event.last_round >= (event.rounds or 0):
            raise Refusal("entries_closed", id=event.id)
        had = {(b.round, b.player_id) for b in state.byes} | {(b.round, p) for b in state.boards
                                                                for p in (b.white, b.black)}
        # A late entry gets a half-point bye for each round missed; a rejoin counts them as absences.
        kind: ByeKind = "half" if entry is None else "zero"
        byes = [Bye(r, me.id, kind) for r in range(1, event.last_round + 1) if (r, me.id) not in had]
        if entry is None and byes:
            text = t("tournament.joined.late.one" if len(byes) == 1 else "tournament.joined.late",
                     name=me.display_name, id=event.id, missed=len(byes))
    if entry is not None and running:
        text = t("tournament.rejoined", name=me.display_name, id=event.id)
    rating = entry.rating if entry is not None else round((await service.storage.get_rating(
        me.id, event.variant, events.speed_of(event))).rating)
    row = EntrantRow(me.id, rating, seat=entry.seat if entry else None, withdrawn=False)
    try:
        return await _change(service, ctx, event, [_reply(ctx, text)], entrants=[row], byes=byes)
    except EnteredElsewhere as elsewhere:
        raise await _elsewhere(service, ctx, elsewhere.tournament_id) from None


async def _elsewhere(service: TournamentService, ctx: Context, other_id: int) -> Refusal:
    """A player has one tournament game at a time: entered (and not withdrawn) in another event
    not finished, on this platform, they may not join this one (storage checks it as it stores
    the entry). The other event is named, with its chat if it is in this server or group."""
    other = await service.storage.tournament(other_id)
    if may_read(other, ctx.msg):
        return Refusal("in_other_tournament_here", id=other.id, chat=chat_name(other))
    return Refusal("in_other_tournament", id=other.id)


async def withdraw(service: TournamentService, ctx: Context) -> list[Reply]:
    event = await reading.open_event(service, ctx)
    state = await service.storage.tournament_state(event.id)
    me = await service.table.player(ctx)
    entry = next((e for e in state.entrants if e.player_id == me.id and not e.withdrawn), None)
    if entry is None:
        raise Refusal("not_entered", id=event.id)
    text = present.texts(service.table.catalog, ctx.language)("tournament.withdrew", name=me.display_name,
                                                               id=event.id)
    row = EntrantRow(me.id, entry.rating, seat=entry.seat, withdrawn=True)
    return await _change(service, ctx, event, [_reply(ctx, text)], entrants=[row])


async def half_bye(service: TournamentService, ctx: Context) -> list[Reply]:
    """``tournament bye``: a half-point bye for the next round not yet paired (a Swiss)."""
    event = await reading.open_event(service, ctx)
    state = await service.storage.tournament_state(event.id)
    me = await service.table.player(ctx)
    if me.id not in history.active_ids(state):
        raise Refusal("not_entered", id=event.id)
    number = event.last_round + 1
    if event.pairing_system != "swiss" or (event.rounds is not None and number > event.rounds) \
            or any(b.round == number and b.player_id == me.id for b in state.byes):
        raise Refusal("bye_not_now")
    text = present.texts(service.table.catalog, ctx.language)("tournament.bye.half", name=me.display_name,
                                                               round=number, id=event.id)
    return await _change(service, ctx, event, [_reply(ctx, text)], byes=[Bye(number, me.id, "half")])


# --- the organizer's -----------------------------------------------------------------------------

async def start_now(service: TournamentService, ctx: Context) -> list[Reply]:
    """``tournament start``: starts the event now (with too few players it is refused and the
    event stays open); its first round is paired once the chat's lock is released."""
    event = await _organized(service, ctx)
    if event.status != "announced":
        raise Refusal("tournament_started", id=event.id)
    state = await service.storage.tournament_state(event.id)
    short = rounds.too_few(state)
    if short is not None:  # too early: the event stays open for more to join (a scheduled start cancels)
        raise Refusal("tournament_too_few", id=event.id, count=short[0], needed=short[1])
    replies = await rounds.start(service, state, ctx=ctx)
    service.poke(event.id)
    return replies


async def cancel(service: TournamentService, ctx: Context) -> list[Reply]:
    event = await _organized(service, ctx)
    text = present.texts(service.table.catalog, ctx.language)("tournament.cancelled", id=event.id)
    return await _change(service, ctx, event, [_reply(ctx, text)], changes={"status": "cancelled", "next_at": None},
                         also=calendar.unscheduled(ctx.language, event))


async def forbid(service: TournamentService, ctx: Context) -> list[Reply]:
    event = await _organized(service, ctx)
    if len(ctx.msg.mentions) != 2 or ctx.msg.mentions[0].id == ctx.msg.mentions[1].id:
        raise Refusal("forbid_needs_two")
    a = await service.table.player(ctx, ctx.msg.mentions[0])
    b = await service.table.player(ctx, ctx.msg.mentions[1])
    text = present.texts(service.table.catalog, ctx.language)("tournament.forbidden", white=a.display_name,
                                                               black=b.display_name, id=event.id)
    return await _change(service, ctx, event, [_reply(ctx, text)], forbidden=[(min(a.id, b.id), max(a.id, b.id))])


# --- helpers -----------------------------------------------------------------------------------

async def _organized(service: TournamentService, ctx: Context) -> Tournament:
    event = await reading.open_event(service, ctx)
    me = await service.table.player(ctx)
    if not may_organize(event, me.id, ctx.msg):
        raise Refusal("not_organizer", id=event.id)
    return event


async def _change(service: TournamentService, ctx: Context, event: Tournament, replies: list[Reply], *,
                  changes: Mapping[str, object] | None = None, entrants: Sequence[EntrantRow] = (),
                  byes: Sequence[Bye] = (), forbidden: Sequence[tuple[int, int]] = (),
                  also: Sequence[NewNotice] = ()) -> list[Reply]:
    """Stores a change of ``event`` with its answer (``replies``) and any other notices (``also``)."""
    rows, shown = service.table.answers(ctx, replies)
    await service.storage.change_tournament(event.id, event.version, changes, entrants=entrants, byes=byes,
                                            forbidden=forbidden, notices=[*rows, *also])
    return shown


def _reply(ctx: Context, text: str) -> Reply:
    return Reply(kind="tournament", text=text, language=ctx.language)
