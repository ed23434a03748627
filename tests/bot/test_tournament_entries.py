"""Who may do what across chats: a weekly rota is replaced or stopped only by its maker (or, on
Discord, a server manager); a player is in one unfinished event at a time on a platform."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.i18n import Catalog
from storage import Storage

from .tournament_support import Event

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
