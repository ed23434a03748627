"""Reading an event: a finished one by its ID with its final standings (the permanent link its
final post names), only in its own server or group; standings of a closed round with their picture."""

from __future__ import annotations

from bot.clock import FakeClock
from bot.messages import Incoming, User
from storage import Storage

from .tournament_support import Event, start_event

PNG = b"\x89PNG\r\n\x1a\n"


async def _finish_two_rounds(event: Event) -> int:
    first = (await start_event(event, "swiss 2 rounds 3+2", ["alice", "bob", "cy", "dan"]))[0]
    for pair in first["pairs"]:
        await event.ok(pair["black"], "resign")
    second = (await event.data("tournament_pairings"))[0]
    for pair in second["pairs"]:
        await event.ok(pair["white"], "resign")
    await event.notices()
    return int(first["tournament"])


async def test_a_finished_event_read_by_its_id_shows_its_final_standings(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    number = await _finish_two_rounds(event)
    assert await storage.open_tournament("console", "c1") is None
    replies = await event.ok("eve", f"tournament {number}")
    assert [r.kind for r in replies] == ["tournament", "tournament_standings"]
    final = replies[1].data
    assert final is not None and final["final"] is True and final["tournament"] == number
    assert [row["rank"] for row in final["rows"]][:1] == [1] and len(final["rows"]) == 4


async def test_another_communitys_event_is_not_found(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    number = await _finish_two_rounds(event)
    for text in (f"tournament {number}", f"export {number} trf"):
        elsewhere = Incoming("console", "c9", User("zed", "zed"), text, community="another")
        replies = await event.games.handle(elsewhere)
        assert [r.error for r in replies] == ["no_such_tournament"], text
    here = await event.ok("eve", f"export {number} trf")
    assert here[0].kind == "tournament_trf" and "alice" in here[0].text


async def test_a_closed_rounds_standings_come_with_their_picture(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "swiss 3 rounds 3+2", ["alice", "bob", "cy", "dan"]))[0]
    running = await event.ok("alice", "standings 1")
    assert running[0].image is None  # round 1 is still being played: its standings may change
    for pair in first["pairs"]:
        await event.ok(pair["black"], "resign")
    await event.notices()
    closed = await event.ok("alice", "standings 1")
    assert closed[0].image is not None and closed[0].image.startswith(PNG)


async def test_a_player_withdrawn_for_two_forfeits_may_rejoin_and_play_on(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    players = ["alice", "bob", "cy", "dan", "eve", "fay"]  # an even field: dan plays the first two rounds
    pairings = (await start_event(event, "swiss 4 rounds 3+2", players))[0]
    for _ in (1, 2):  # dan never makes a first move, twice
        for pair in pairings["pairs"]:
            if "dan" in (pair["white"], pair["black"]):
                if pair["black"] == "dan":
                    await event.ok(pair["white"], "e3e4")
            else:
                await event.ok(pair["black"], "resign")
        clock.advance(seconds=61)
        told = await event.notices()
        pairings = next(n.reply.data or {} for n in told if n.reply.kind == "tournament_pairings")
    dan = await storage.find_player("console", "dan")
    assert dan is not None
    state = await event.event_state()
    forfeited = sum(1 for b in state.boards if dan.id in (b.white, b.black) and b.reason == "forfeit")
    assert forfeited == 2
    assert next(e for e in state.entrants if e.player_id == dan.id).withdrawn
    await event.ok("dan", "join")  # back, with the missed round as an absence
    for pair in pairings["pairs"]:  # round 3, without dan
        await event.ok(pair["black"], "resign")
    fourth = next(n.reply.data or {} for n in await event.notices() if n.reply.kind == "tournament_pairings")
    state = await event.event_state()
    assert not next(e for e in state.entrants if e.player_id == dan.id).withdrawn
    assert "dan" in {p["white"] for p in fourth["pairs"]} | {p["black"] for p in fourth["pairs"]} | {fourth["bye"]}
