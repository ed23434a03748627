"""The standings the chat is told: after a round they count exactly the rounds up to it (never
a bye asked for the next one), ``standings`` says which round a table is after, and an arena's
standings are its arena points, never "after round N"."""

from __future__ import annotations

from bot.clock import FakeClock
from storage import Storage

from .tournament_support import Event, start_event

FIVE = ["alice", "bob", "cy", "dan", "eve"]


async def play_round(event: Event, pairings: dict) -> None:
    for pair in pairings["pairs"]:
        if pair["game"] is not None:
            await event.ok(pair["black"], "resign")


async def test_the_standings_after_a_round_leave_out_a_bye_asked_for_the_next(storage: Storage,
                                                                               clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "swiss 3 rounds 3+2", FIVE))[0]
    asker = first["pairs"][0]["black"]  # loses round 1, then asks for a half-point bye in round 2
    await event.ok(asker, "tournament bye")
    await play_round(event, first)
    told = [n.reply for n in await event.notices() if n.reply.kind == "tournament_standings"]
    assert len(told) == 1 and told[0].data is not None and told[0].data["round"] == 1
    row = next(r for r in told[0].data["rows"] if r["player"] == asker)
    assert row["points"] == 0.0  # not the ½ of round 2's bye
    asked = (await event.ok("bob", "standings 1"))[0]
    assert asked.data == told[0].data and asked.text == told[0].text  # one table for one round
