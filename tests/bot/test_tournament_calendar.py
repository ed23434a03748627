"""A Discord event with a start time goes into the server's calendar once, and out of it when
cancelled (docs/tournaments.md 3.1); chats of other platforms get no calendar notice."""

from __future__ import annotations

from datetime import datetime

from bot.clock import FakeClock
from storage import Storage

from .tournament_support import Event


async def test_a_discord_event_with_a_start_is_scheduled_and_unscheduled(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock, platform="discord", channel="42")
    await event.ok("alice", "tournament new arena 90m 3+2 in 2h")
    scheduled = [n for n in await event.notices() if n.reply.kind == "tournament_scheduled"]
    assert len(scheduled) == 1
    data = scheduled[0].reply.data
    assert data is not None
    opened = await storage.open_tournament("discord", "42")
    assert opened is not None and opened.starts is not None
    assert data["tournament"] == opened.id
    start, end = datetime.fromisoformat(data["start"]), datetime.fromisoformat(data["end"])
    assert start == opened.starts
    assert (end - start).total_seconds() == 90 * 60  # an arena's length
    assert f"#{opened.id}" in data["name"] and data["description"]
    assert not [n for n in await event.notices() if n.reply.kind == "tournament_scheduled"]  # once

    await event.ok("alice", "tournament cancel")
    gone = [n for n in await event.notices() if n.reply.kind == "tournament_unscheduled"]
    assert [n.reply.data for n in gone] == [{"tournament": opened.id}]


async def test_no_calendar_without_a_start_or_off_discord(storage: Storage, clock: FakeClock) -> None:
    discord = Event(storage, clock, platform="discord", channel="43")
    await discord.ok("alice", "tournament new swiss 3 rounds 3+2")  # waits for `tournament start`
    line = Event(storage, clock, platform="line", channel="group:G1")
    await line.ok("alice", "tournament new swiss 3 rounds 3+2 in 2h")
    kinds = {n.reply.kind for n in [*await discord.notices(), *await line.notices()]}
    assert not kinds & {"tournament_scheduled", "tournament_unscheduled"}


async def test_a_weekly_rotas_event_goes_into_the_calendar_once(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock, platform="discord", channel="44")
    await event.ok("alice", "tournament weekly thursday 20:00 arena 3+2 90m", manager=True)
    told = await event.notices()
    assert [n.reply.kind for n in told].count("tournament") == 1  # the announcement
    scheduled = [n for n in told if n.reply.kind == "tournament_scheduled"]
    opened = await storage.open_tournament("discord", "44")
    assert opened is not None and [n.reply.data["tournament"] for n in scheduled if n.reply.data] == [opened.id]
    assert not [n for n in await event.notices() if n.reply.kind == "tournament_scheduled"]
