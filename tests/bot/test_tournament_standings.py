"""The standings the chat is told: after a round they count exactly the rounds up to it (never
a bye asked for the next one), ``standings`` says which round a table is after, and an arena's
standings are its arena points, never "after round N"."""

from __future__ import annotations

from bot.clock import FakeClock
from bot.services.tournaments import picture, present
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


async def test_on_line_the_round_notice_tells_the_same_standings_as_its_picture(storage: Storage,
                                                                                  clock: FakeClock) -> None:
    event = Event(storage, clock, platform="line", channel="group:C1")
    first = (await start_event(event, "swiss 3 rounds 3+2", FIVE))[0]
    await event.ok(first["pairs"][0]["black"], "tournament bye")
    await play_round(event, first)
    [notice] = [n.reply for n in await event.notices() if n.reply.kind == "tournament_pairings"]
    assert notice.data is not None and notice.data["picture"]["round"] == 1
    asked = (await event.ok("bob", "standings 1"))[0]
    assert notice.text.startswith(asked.text + "\n\n")  # the text is the table the picture draws (round 1's)


async def test_standings_say_whether_they_are_after_a_round_or_during_it(storage: Storage,
                                                                          clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "swiss 3 rounds 3+2", FIVE))[0]
    during_first = (await event.ok("bob", "standings"))[0]
    assert during_first.text.startswith("Tournament #1, standings during round 1 (its games are still being played):")
    assert during_first.data is not None and (during_first.data["round"], during_first.data["final"]) == (1, False)
    await play_round(event, first)
    await event.notices()
    after = (await event.ok("bob", "standings 1"))[0]
    assert after.text.startswith("Tournament #1, standings after round 1:")
    assert after.data is not None and after.data["round"] == 1
    during = (await event.ok("bob", "standings"))[0]  # round 2 is being played
    assert during.text.startswith("Tournament #1, standings during round 2")
    assert during.data is not None and (during.data["round"], during.data["final"]) == (2, False)
    assert during.data == (await event.ok("bob", "standings 2"))[0].data


async def test_an_arenas_standings_are_its_points_and_a_round_number_is_refused(storage: Storage,
                                                                                clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "arena 30m 3+2", ["alice", "bob", "cy", "dan"]))[0]
    await event.ok(first["pairs"][0]["black"], "resign")
    await event.notices()
    shown = (await event.ok("bob", "standings"))[0]
    assert "after round" not in shown.text and shown.text.startswith("Tournament #1, standings so far:")
    assert shown.data is not None and shown.data["rows"][0]["points"] == 2.0  # a win's arena points
    refused = await event.refused("bob", "standings 1", "arena_no_rounds")
    assert "points of tournament #1" in refused.text


async def test_ids_and_rounds_beyond_any_number_are_refused_as_not_found(storage: Storage,
                                                                         clock: FakeClock) -> None:
    event = Event(storage, clock)
    await start_event(event, "swiss 3 rounds 3+2", FIVE)
    huge = "99999999999999999999999"
    for text in (f"tournament {huge}", f"tournament rules {huge}", f"export {huge} trf", f"tournament #{huge}"):
        refused = await event.refused("bob", text, "no_such_tournament")
        assert refused.text == "There is no tournament #999999999999.", text
    await event.refused("bob", f"pairings {huge}", "no_round")
    await event.refused("bob", f"standings {huge}", "no_round")
    for word in ("x", "²"):  # no number, a superscript two
        refused = await event.refused("bob", f"pairings {word}", "bad_round")
        assert refused.text.startswith(f"{word} is not a round number")
        await event.refused("bob", f"standings {word}", "bad_round")
    await event.refused("bob", "tournament ²", "bad_option")
    # A full-width one, as a Japanese keyboard types it, is the digit one.
    assert (await event.ok("bob", "pairings １"))[0].text == (await event.ok("bob", "pairings 1"))[0].text


async def test_a_finished_event_stays_readable_by_pairings_and_standings(storage: Storage,
                                                                           clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "swiss 1 rounds 3+2", ["alice", "bob"]))[0]
    await play_round(event, first)
    await event.notices()
    assert await storage.open_tournament("console", "c1") is None
    final = (await event.ok("cy", "standings"))[0]
    assert final.data is not None and final.data["final"] is True and final.data["round"] == 1
    assert final.text.startswith("Tournament #1 has finished.\nTournament #1, final standings:")
    pairings = (await event.ok("cy", "pairings"))[0]
    assert pairings.text.startswith("Tournament #1 has finished.\n")
    assert pairings.data is not None and pairings.data["round"] == 1
    await event.ok("alice", "tournament new swiss 3+2")  # a new one, open: it is the one read
    await event.refused("cy", "pairings", "no_round")


async def test_whatever_is_read_of_a_finished_event_says_it_is_over(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    pairings = (await start_event(event, "swiss 2 rounds 3+2", ["alice", "bob", "cy", "dan"]))[0]
    for _ in (1, 2):
        assert not (await event.ok("eve", "standings"))[0].text.startswith("Tournament #1 has finished.")
        await play_round(event, pairings)
        told = await event.notices()
        pairings = next((n.reply.data or {} for n in told if n.reply.kind == "tournament_pairings"), {})
    for asked in ("pairings", "pairings 1", "standings", "standings 1"):
        assert (await event.ok("eve", asked))[0].text.startswith("Tournament #1 has finished.\n"), asked
    arena = Event(storage, clock, channel="c2")
    await start_event(arena, "arena 30m 3+2", ["fay", "gus"])
    clock.advance(minutes=31)
    await arena.notices()
    assert (await arena.ok("eve", "standings"))[0].text.startswith("Tournament #2 has finished.\n")


async def test_a_running_arena_says_when_it_ends_and_how_long_is_left(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    await start_event(event, "arena 30m 3+2", ["alice", "bob"])
    clock.advance(minutes=10)
    shown = (await event.ok("cy", "tournament"))[0].text
    assert "Under way until Thursday 1 Jan, 07:30 (Asia/Bangkok): 20 minutes left" in shown
    await event.ok("alice", "lang th")
    assert "เหลืออีก 20 นาที" in (await event.ok("cy", "tournament"))[0].text


async def test_the_standings_picture_names_the_tiebreaks_it_has_no_column_for(storage: Storage,
                                                                               clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "swiss 3 rounds 3+2", FIVE))[0]
    await play_round(event, first)
    await event.notices()
    state = await event.event_state()
    names = await event.tournaments.names(state)
    t = present.texts(event.games.catalog, "ja")
    view = picture.standings_view(t, state, 1, "ja", names)
    assert [column.abbreviation for column in view.tiebreaks] == ["BH-1", "BH", "SB"]
    assert view.order == "同点はこの順で決めます：BH-1, BH, SB, 直接対決, 勝数（表の列は最初の3つ）"
    assert all(len(row.tiebreaks) == 3 for row in view.rows)
