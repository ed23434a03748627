"""Weekly events (docs/tournaments.md 2.7): ``tournament weekly DAY HH:MM [Area/City] SYSTEM ...``
keeps a rota; a day ahead of each date the rota's event is announced (once a date: the
database's ``UNIQUE (rota_id, rota_date)``). While the chat has another open event it tries
again each tick; once the start has passed, that week is skipped.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from storage import TournamentBusy
from storage.records import NewNotice, NewTournament, Rota, TimeControl, Tournament

from ...messages import Platform, Reply
from ..errors import Refusal
from ..games.context import Context
from . import calendar, events, grammar, notices, present, reminders
from .organizers import may_keep_rota, may_organize_rota

if TYPE_CHECKING:
    from .service import TournamentService

log = logging.getLogger(__name__)

AHEAD = timedelta(days=1)  # a rota's event is announced this long before it starts


async def zone_of(service: TournamentService, ctx: Context) -> str:
    """The chat's time zone: its puzzle subscription's, else Asia/Bangkok."""
    sub = await service.storage.get_subscription(ctx.msg.platform, ctx.msg.channel)
    return sub.timezone if sub is not None else grammar.DEFAULT_ZONE


async def weekly(service: TournamentService, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    """``tournament weekly DAY HH:MM ...`` makes (or changes) a rota; ``tournament weekly off``
    stops the sender's. Another's rota is neither replaced nor stopped (but by a manager)."""
    service.groups_only(ctx)
    table = service.table
    me = await table.player(ctx)
    if not may_organize_rota(me.id, ctx.msg):
        raise Refusal("rota_managers_only")
    spec = grammar.parse_rota(table.catalog, args, now=table.clock.now(), zone=await zone_of(service, ctx))
    rotas = await service.storage.active_rotas(ctx.msg.platform, ctx.msg.channel)
    t = present.texts(table.catalog, ctx.language)
    if spec is None:
        return await _stop(service, ctx, me.id, rotas, t)
    held = next((r for r in rotas if (r.weekday, r.local_time) == (spec.weekday, spec.time)
                 and not may_keep_rota(r, me.id, ctx.msg)), None)
    if held is not None:
        raise Refusal("not_rota_keeper", name=await _maker(service, held))
    reply = Reply(kind="tournament", text=present.rota_text(t, spec), language=ctx.language)
    rows, shown = table.answers(ctx, [reply])
    await service.storage.add_rota(ctx.msg.platform, ctx.msg.channel, spec.weekday, spec.time, spec.zone,
                                   json.dumps(_spec_json(spec.event)), me.id,
                                   community=ctx.msg.community or ctx.msg.channel, notices=rows)
    return shown


async def _stop(service: TournamentService, ctx: Context, player_id: int, rotas: Sequence[Rota],
                t: present.Text) -> list[Reply]:
    """``tournament weekly off``: the sender's rotas stopped (a manager's: all of the chat's)."""
    if not rotas:
        raise Refusal("no_rota")
    if not any(may_keep_rota(r, player_id, ctx.msg) for r in rotas):
        raise Refusal("not_rota_keeper", name=await _maker(service, rotas[0]))
    reply = Reply(kind="tournament", text=t("tournament.rota.stopped"), language=ctx.language)
    rows, shown = service.table.answers(ctx, [reply])
    await service.storage.stop_rota(ctx.msg.platform, ctx.msg.channel,
                                    created_by=None if ctx.msg.manager else player_id, notices=rows)
    return shown


async def _maker(service: TournamentService, rota: Rota) -> str:
    maker = (await service.storage.get_players([rota.created_by])).get(rota.created_by)
    return maker.display_name if maker is not None else "?"


def _spec_json(spec: grammar.EventSpec) -> dict[str, object]:
    data = asdict(spec)
    control = spec.time_control
    data["time_control"] = [control.initial, control.increment] if control else None
    data["starts"] = None
    return data


def next_date(rota: Rota, now: datetime) -> tuple[date, datetime]:
    """The rota's next date whose start is still ahead of ``now``, and that start."""
    zone = ZoneInfo(rota.timezone)
    local = now.astimezone(zone)
    day = local.date() + timedelta(days=(rota.weekday - local.weekday()) % 7)
    starts = datetime.combine(day, rota.local_time, zone)
    if starts <= now:
        day += timedelta(days=7)
        starts = datetime.combine(day, rota.local_time, zone)
    return day, starts


async def tick(service: TournamentService, platform: Platform | None) -> None:
    """Announces each rota's next event once it is a day ahead."""
    now = service.table.clock.now()
    for rota in await service.storage.due_rotas(now, platform=platform):
        day, starts = next_date(rota, now)
        if starts - now > AHEAD:
            continue
        announce = await _announcement(service, rota)
        try:
            await service.storage.rota_event(rota.id, day, _event_of(rota, starts, now), answer=announce)
        except TournamentBusy:
            log.info("rota %d: the chat has an open event; tried again next tick", rota.id)


async def _announcement(service: TournamentService, rota: Rota) -> Callable[[Tournament | None], list[NewNotice]]:
    """The chat hears of the rota's event in the transaction that makes it (none if another
    process made it): a crash in between can neither lose the announcement nor make it twice."""
    language = await service.language_of(rota.platform, rota.channel)
    t = present.texts(service.table.catalog, language)
    organizer = (await service.storage.get_players([rota.created_by])).get(rota.created_by)
    sub = await service.storage.get_subscription(rota.platform, rota.channel)

    def announce(event: Tournament | None) -> list[NewNotice]:
        if event is None:
            return []
        view = present.EventView(event.id, notices.spec_of(event), organizer.display_name if organizer else "?",
                                 rounds=event.rounds, zone=sub.timezone if sub else grammar.DEFAULT_ZONE)
        reply = Reply(kind="tournament", text=present.announcement(t, view), language=language,
                      data={"role": event.role} if event.role else None)
        told = notices.notice(event, "tournament_announced", reply, "a")
        return [told, *calendar.scheduled(t, language, event, view)]  # Discord's calendar too

    return announce


def _event_of(rota: Rota, starts: datetime, now: datetime) -> NewTournament:
    data = json.loads(rota.spec)
    control = TimeControl(*data["time_control"]) if data.get("time_control") else None
    spec = grammar.EventSpec(**{**data, "time_control": control, "starts": starts})
    return events.new_tournament(spec, platform=rota.platform, channel=rota.channel, community=rota.community,
                                 salt=secrets.token_hex(3), created_by=rota.created_by, rota_id=rota.id,
                                 rota_date=starts.date(),
                                 next_at=reminders.first_next_at(control is not None, starts, now))
