"""Who may do what across chats: a weekly rota is replaced or stopped only by its maker (or, on
Discord, a server manager); a player is in one unfinished event at a time on a platform."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.clock import FakeClock
from bot.i18n import Catalog
from bot.messages import Incoming, User
from storage import Storage

from .tournament_support import Event, start_event

CATALOG = Catalog.load()
ROTA = "tournament weekly thursday 20:00 arena 3+2 90m"


@pytest.mark.parametrize(("platform", "channel"), [("console", "c1"), ("line", "group:C1")])
async def test_only_its_maker_replaces_or_stops_a_weekly_rota(storage: Storage, clock: FakeClock, platform: str,
                                                               channel: str) -> None:
    event = Event(storage, clock, platform=platform, channel=channel)  # type: ignore[arg-type]
    refused = await event.refused("bob", "tournament weekly off", "no_rota")
    assert refused.text == CATALOG.text(refused.language, "error.no_rota")
    await event.ok("alice", ROTA)
    refused = await event.refused("bob", "tournament weekly off", "not_rota_keeper")
    assert refused.text == CATALOG.text(refused.language, "error.not_rota_keeper", name="alice")
    await event.refused("bob", ROTA.replace("arena 3+2 90m", "swiss 5+3"), "not_rota_keeper")
    await event.ok("bob", "tournament weekly friday 19:00 swiss 5+3")  # a rota of bob's own
    await event.ok("alice", "tournament weekly off")
    [left] = await storage.active_rotas(platform, channel)  # type: ignore[arg-type]
    bob = await storage.find_player(platform, "bob")  # type: ignore[arg-type]
    assert bob is not None and left.created_by == bob.id and left.weekday == 4
    await event.refused("alice", "tournament weekly off", "not_rota_keeper")


async def test_a_discord_manager_keeps_every_rota_and_others_make_none(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock, platform="discord", channel="42")
    await event.refused("bob", ROTA, "rota_managers_only")
    await event.ok("alice", ROTA, manager=True)
    await event.ok("bob", "tournament weekly friday 19:00 swiss 5+3", manager=True)
    await event.ok("cy", "tournament weekly off", manager=True)
    assert await storage.active_rotas("discord", "42") == []


async def test_a_player_is_in_one_unfinished_event_at_a_time(storage: Storage, clock: FakeClock) -> None:
    here, there = Event(storage, clock, channel="c1"), Event(storage, clock, channel="c2")
    await here.ok("alice", "tournament new swiss 3 rounds 3+2")
    await there.ok("bob", "tournament new swiss 3 rounds 3+2")
    await here.ok("cy", "join")
    refused = await there.refused("cy", "join", "in_other_tournament_here")
    assert refused.text == CATALOG.text("en", "error.in_other_tournament_here", id=1, chat="c1")
    elsewhere = Incoming("console", "c9", User("cy", "cy"), "tournament new arena 3+2 30m", community="another")
    await there.games.handle(elsewhere)  # tournament #3, in another community
    replies = await there.games.handle(dataclasses.replace(elsewhere, text="join"))
    assert [(r.error, r.text) for r in replies] == [("in_other_tournament", CATALOG.text(
        "en", "error.in_other_tournament", id=1))]  # its chat is not named outside its community
    await here.ok("cy", "withdraw")
    await there.ok("cy", "join")  # withdrawn there: free to play here
    await here.refused("cy", "join", "in_other_tournament_here")


async def test_two_joins_at_the_same_moment_in_two_chats_enter_one_event(storage: Storage, clock: FakeClock) -> None:
    here, there = Event(storage, clock, channel="c1"), Event(storage, clock, channel="c2")
    await here.ok("alice", "tournament new swiss 3 rounds 3+2")
    await there.ok("bob", "tournament new swiss 3 rounds 3+2")
    replies = await asyncio.gather(here.say("cy", "join"), there.say("cy", "join"))
    assert sorted(r.error or r.kind for chat in replies for r in chat) == ["in_other_tournament_here", "tournament"]
    joined, refused = (1, 2) if replies[0][0].error is None else (2, 1)
    named = CATALOG.text("en", "error.in_other_tournament_here", id=joined, chat=f"c{joined}")
    assert [(r.error, r.text) for chat in replies for r in chat if r.error] == [("in_other_tournament_here", named)]
    for event_id in (joined, refused):
        entered = [e.player_id for e in (await storage.tournament_state(event_id)).entrants if not e.withdrawn]
        assert len(entered) == (event_id == joined), event_id


async def test_on_discord_the_other_events_channel_is_linked(storage: Storage, clock: FakeClock) -> None:
    here, there = Event(storage, clock, "discord", "42"), Event(storage, clock, "discord", "43")
    first = (await start_event(here, "swiss 1 rounds 3+2", ["alice", "bob"]))[0]
    await there.ok("cy", "tournament new swiss 3 rounds 3+2")
    refused = await there.refused("alice", "join", "in_other_tournament_here")
    assert "#1 in <#42>" in refused.text
    await here.ok(first["pairs"][0]["black"], "resign")  # the only round: the event finishes
    await here.notices()
    await there.ok("alice", "join")
