"""The tournament service (docs/tournaments.md 2): organizers, entries, rounds on a fake clock,
absent players, windows, round robins, ratings; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.clock import FakeClock
from storage import Storage

from .tournament_support import Event, start_event

FOUR = ["alice", "bob", "cy", "dan"]


@pytest.fixture
def event(storage: Storage, clock: FakeClock) -> Event:
    return Event(storage, clock)


def boards_of(pairings: dict) -> set[frozenset[str]]:
    return {frozenset((p["white"], p["black"])) for p in pairings["pairs"]}


async def play_round(event: Event, pairings: dict, *, loser: str = "black") -> None:
    """Each board's game ends: the player of colour ``loser`` resigns."""
    for pair in pairings["pairs"]:
        if pair["game"] is not None:
            await event.ok(pair[loser], "resign")


async def test_only_the_organizer_or_a_manager_starts_or_cancels(event: Event) -> None:
    await event.ok("alice", "tournament new swiss 3 rounds 3+2")
    for name in FOUR:
        await event.ok(name, "join")
    await event.refused("bob", "tournament start", "not_organizer")
    await event.refused("bob", "tournament cancel", "not_organizer")
    assert (await event.event_state()).tournament.status == "announced"
    started = await event.ok("bob", "tournament start", manager=True)  # Discord's Manage Server
    assert started[0].kind == "tournament_started"
    assert len((await event.data("tournament_pairings"))[0]["pairs"]) == 2
    await event.refused("alice", "tournament start", "tournament_started")


async def test_the_maker_cancels_and_a_private_line_chat_holds_no_event(storage, clock) -> None:
    event = Event(storage, clock)
    await event.ok("alice", "tournament new swiss 3 rounds 3+2")
    await event.refused("alice", "tournament new swiss", "tournament_open")
    await event.ok("alice", "tournament cancel")
    assert await storage.open_tournament("console", "c1") is None
    line = Event(storage, clock, platform="line", channel="user:U123")
    await line.refused("alice", "tournament new swiss 3 rounds 3+2", "tournament_in_groups")


async def test_too_few_players_refuse_the_start_and_the_event_stays_open(event: Event) -> None:
    await event.ok("alice", "tournament new roundrobin 3+2")
    await event.ok("alice", "join")
    await event.ok("bob", "join")
    await event.refused("alice", "tournament start", "tournament_too_few")
    still = await event.storage.open_tournament("console", "c1")
    assert still is not None and still.status == "announced"
    await event.ok("carol", "join")
    replies = await event.ok("alice", "tournament start")
    assert "has started with 3 players" in replies[0].text


async def test_a_late_entry_gets_half_point_byes_until_half_the_rounds_have_started(event: Event) -> None:
    first = await start_event(event, "swiss 4 rounds 3+2", FOUR)
    late = await event.ok("eve", "join")
    assert "half-point bye" in late[0].text
    await play_round(event, first[0])
    await event.notices()
    state = await event.event_state()
    eve = await event.storage.find_player("console", "eve")
    assert eve is not None
    assert [(b.round, b.kind) for b in state.byes if b.player_id == eve.id] == [(1, "half")]
    assert state.tournament.last_round == 2
    assert any(eve.id in (b.white, b.black) for b in state.boards if b.round == 2) or \
        any(b.round == 2 and b.player_id == eve.id for b in state.byes)
    await event.refused("fay", "join", "entries_closed")  # two of four rounds have started


async def test_a_half_point_bye_asked_for_is_shown_with_the_rounds_pairings(event: Event) -> None:
    first = (await start_event(event, "swiss 3 rounds 3+2", [*FOUR, "eve"]))[0]
    await event.ok("dan", "tournament bye")
    await play_round(event, first)
    posted = [n.reply for n in await event.notices() if n.reply.kind == "tournament_pairings"]
    second = [r.data or {} for r in posted]
    assert [d["round"] for d in second] == [2]
    assert "dan" not in {p["white"] for p in second[0]["pairs"]} | {p["black"] for p in second[0]["pairs"]}
    asked_for = "Bye: dan (½ pts)"
    assert asked_for in posted[0].text
    assert asked_for in (await event.ok("bob", "pairings"))[0].text
    assert asked_for not in (await event.ok("bob", "pairings 1"))[0].text


async def test_withdraw_and_rejoin(event: Event) -> None:
    first = (await start_event(event, "swiss 3 rounds 3+2", FOUR))[0]
    await event.ok("dan", "withdraw")
    await event.refused("dan", "withdraw", "not_entered")
    await play_round(event, first)
    second = (await event.data("tournament_pairings"))[0]
    assert "dan" not in {p["white"] for p in second["pairs"]} | {p["black"] for p in second["pairs"]} | {second["bye"]}
    back = await event.ok("dan", "join")
    assert "absences" in back[0].text
    await play_round(event, second)
    third = (await event.data("tournament_pairings"))[0]
    assert "dan" in {p["white"] for p in third["pairs"]} | {p["black"] for p in third["pairs"]} | {third["bye"]}
    state = await event.event_state()
    dan = await event.storage.find_player("console", "dan")
    assert dan is not None
    assert [(b.round, b.kind) for b in state.byes if b.player_id == dan.id] == [(2, "zero")]


async def test_a_forbidden_pair_is_never_paired(event: Event) -> None:
    await event.ok("alice", "tournament new swiss 3 rounds 3+2")
    for name in FOUR:
        await event.ok(name, "join")
    await event.refused("bob", "tournament forbid @alice @bob", "not_organizer", "alice", "bob")
    await event.ok("alice", "tournament forbid @alice @bob", "alice", "bob")
    await event.ok("alice", "tournament start")
    for _ in range(3):
        pairings = await event.data("tournament_pairings")
        if not pairings:
            break
        assert frozenset(("alice", "bob")) not in boards_of(pairings[0])
        await play_round(event, pairings[0], loser="white")


async def test_no_first_move_in_60_seconds_is_an_unrated_forfeit_and_two_withdraw(event: Event) -> None:
    pairings = (await start_event(event, "swiss 3 rounds 3+2", FOUR))[0]
    for _ in (1, 2):
        pair = next(p for p in pairings["pairs"] if "dan" in (p["white"], p["black"]))
        if pair["black"] == "dan":
            await event.ok(pair["white"], "e3e4")  # dan's opponent is there; dan is not
        else:
            await event.ok(pair["black"], "board")  # Black, there, writes to the game before White's move
        for other in pairings["pairs"]:
            if other is not pair:
                await event.ok(other["black"], "resign")
        event.clock.advance(seconds=59)
        await event.notices()
        assert (await event.storage.get_game(pair["game"])).status == "active"  # 60 s, not the casual 30
        event.clock.advance(seconds=2)
        pairings = next(n.reply.data or {} for n in await event.notices() if n.reply.kind == "tournament_pairings")
        game = await event.storage.get_game(pair["game"])
        assert game.status == "finished" and game.reason == "forfeit" and not game.rated
        assert game.result == ("0-1" if pair["white"] == "dan" else "1-0")
    dan = await event.storage.find_player("console", "dan")
    assert dan is not None
    assert (await event.storage.get_rating(dan.id, "makruk", "live")).games_played == 0
    state = await event.event_state()
    assert state.tournament.last_round == 3
    assert next(e for e in state.entrants if e.player_id == dan.id).withdrawn
    assert all(dan.id not in (b.white, b.black) for b in state.boards if b.round == 3)
    assert any("two games by forfeit" in n.reply.text for n in event.delivered)


@pytest.mark.parametrize(("window_end", "result"), [("draw", "1/2-1/2"), ("loss", "1-0")])
async def test_a_round_window_ends_the_games_still_running(event: Event, window_end, result) -> None:
    first = (await start_event(event, f"swiss 2 rounds 1d window 1d window-end {window_end}", FOUR))[0]
    event.clock.advance(hours=1)
    one, two = first["pairs"]
    await event.ok(one["white"], "e3e4")  # White moved: Black is to move when the window closes
    await event.ok(two["black"], "resign")
    event.clock.advance(hours=23, seconds=1)
    told = await event.notices()
    assert any(n.reply.kind == "game_over" and n.reply.game and n.reply.game.id == one["game"] for n in told)
    game = await event.storage.get_game(one["game"])
    assert game.status == "finished" and game.reason == "round_window" and game.result == result
    assert not game.rated
    assert (await event.event_state()).tournament.last_round == 2


async def test_a_correspondence_round_reminds_a_day_before_its_window_closes(event: Event) -> None:
    first = (await start_event(event, "swiss 2 rounds 1d window 3d", FOUR))[0]
    assert (await event.event_state()).tournament.next_at == event.clock.now() + timedelta(days=2)
    await event.ok(first["pairs"][1]["black"], "resign")
    event.clock.advance(days=2, seconds=1)
    for name in (first["pairs"][0]["white"], first["pairs"][0]["black"]):  # moving keeps the game alive
        await event.ok(name, "e3e4" if name == first["pairs"][0]["white"] else "e6e5")
    reminders = [n for n in await event.notices() if n.reply.kind == "tournament_reminder"]
    assert len(reminders) == 1 and "round 1 closes in a day" in reminders[0].reply.text
    assert {u.name for u in reminders[0].reply.mentions} == {first["pairs"][0]["white"], first["pairs"][0]["black"]}
    assert not [n for n in await event.notices() if n.reply.kind == "tournament_reminder"]


async def test_a_round_robin_player_who_withdraws_loses_the_rest_unplayed(event: Event) -> None:
    first = (await start_event(event, "roundrobin 3+2", FOUR))[0]
    assert len(first["pairs"]) == 2 and first["bye"] is None
    await event.ok("dan", "withdraw")
    await play_round(event, first)
    second = (await event.data("tournament_pairings"))[0]
    unplayed = [p for p in second["pairs"] if "dan" in (p["white"], p["black"])]
    assert len(unplayed) == 1 and unplayed[0]["game"] is None
    state = await event.event_state()
    board = next(b for b in state.boards if b.round == 2 and b.game_id is None)
    dan = await event.storage.find_player("console", "dan")
    assert dan is not None
    assert board.score == ("0-1F" if board.white == dan.id else "1-0F")
    await event.refused("eve", "join", "entries_closed")


async def test_ratings_move_for_the_events_variant_and_speed(event: Event) -> None:
    first = (await start_event(event, "swiss 1 rounds 3+2 ouk", ["alice", "bob"]))[0]
    pair = first["pairs"][0]
    await event.ok(pair["white"], "resign")
    winner = await event.storage.find_player("console", pair["black"])
    assert winner is not None
    assert (await event.storage.get_rating(winner.id, "cambodian", "live")).games_played == 1
    assert (await event.storage.get_rating(winner.id, "makruk", "live")).games_played == 0
    assert (await event.storage.get_rating(winner.id, "cambodian", "correspondence")).games_played == 0
    final = await event.data("tournament_standings")
    assert final[0]["final"] and final[0]["rows"][0]["player"] == pair["black"]
    assert (await event.storage.tournament(final[0]["tournament"])).status == "finished"


async def test_an_entrant_of_the_running_event_cannot_start_a_casual_game(event: Event) -> None:
    await start_event(event, "swiss 3 rounds 3+2", ["alice", "bob", "cy"])
    await event.refused("cy", "new @zed", "in_tournament", "zed")
    await event.ok("zed", "new @yan", "yan")  # a spectator's casual game goes on beside the event


async def test_a_correspondence_player_who_never_moves_loses_by_forfeit(event: Event) -> None:
    first = (await start_event(event, "swiss 2 rounds 1d", ["alice", "bob"]))[0]
    pair = first["pairs"][0]
    await event.ok(pair["black"], "board")  # Black is there; White never moves
    event.clock.advance(days=1, seconds=1)
    await event.notices()
    game = await event.storage.get_game(pair["game"])
    assert game.reason == "forfeit" and game.result == "0-1" and not game.rated


async def test_a_lost_poke_is_found_by_the_scheduler(event: Event) -> None:
    first = (await start_event(event, "swiss 2 rounds 3+2", FOUR))[0]
    desk, event.games.table.desk = event.games.table.desk, None  # the process died before it advanced
    await play_round(event, first)
    event.games.table.desk = desk
    # The next tick finds it: a running event without an open game is due (due_tournaments),
    # before its live round's sweep (rounds.LIVE_SWEEP) comes.
    assert [p["round"] for p in await event.data("tournament_pairings")] == [2]


async def test_reminders_an_hour_and_5_minutes_before_once_each_then_the_start(event: Event) -> None:
    await event.ok("alice", "tournament new swiss 3 rounds 3+2 in 2h")
    for name in FOUR:
        await event.ok(name, "join")
    assert (await event.event_state()).tournament.next_at == event.clock.now() + timedelta(hours=1)
    event.clock.advance(hours=1)
    hour = [n.reply.text for n in await event.notices() if n.reply.kind == "tournament_reminder"]
    assert len(hour) == 1 and "in an hour" in hour[0]
    assert not [n for n in await event.notices() if n.reply.kind == "tournament_reminder"]
    event.clock.advance(minutes=55)
    five = [n.reply.text for n in await event.notices() if n.reply.kind == "tournament_reminder"]
    assert len(five) == 1 and "5 minutes" in five[0]
    event.clock.advance(minutes=5)
    assert len(await event.data("tournament_pairings")) == 1


async def test_a_bot_that_was_down_sends_only_the_nearest_reminder(event: Event) -> None:
    await event.ok("alice", "tournament new swiss 3 rounds 3+2 in 2h")
    event.clock.advance(hours=1, minutes=56)
    sent = [n.reply.text for n in await event.notices() if n.reply.kind == "tournament_reminder"]
    assert len(sent) == 1 and "5 minutes" in sent[0]


async def test_a_weekly_rota_announces_its_event_a_day_ahead(event: Event) -> None:
    # The fake clock starts on Thursday 2026-01-01, 07:00 in Bangkok.
    made = await event.ok("alice", "tournament weekly thursday 20:00 swiss 3+2")
    assert "Every" in made[0].text
    told = [n.reply.text for n in await event.notices()]
    assert len(told) == 1 and "announced tournament" in told[0]
    announced = await event.storage.open_tournament("console", "c1")
    assert announced is not None and announced.rota_id is not None
    assert announced.starts is not None and announced.starts.hour == 13  # 20:00 in Bangkok
    await event.notices()
    assert (await event.storage.open_tournament("console", "c1")) == announced  # once a date
    await event.ok("alice", "tournament weekly off")


async def test_export_trf_gives_the_event_as_a_fide_report(event: Event) -> None:
    first = (await start_event(event, "swiss 1 rounds 3+2", ["alice", "bob"]))[0]
    await event.ok(first["pairs"][0]["white"], "resign")
    replies = await event.ok("bob", "export 1 trf")
    lines = replies[0].text.splitlines()
    assert replies[0].kind == "tournament_trf" and lines[0].startswith("012 ")
    assert sum(1 for line in lines if line.startswith("001")) == 2
    await event.refused("bob", "export 99 trf", "no_such_tournament")


async def test_a_line_group_gets_the_pairings_without_a_notice_per_game(storage, clock) -> None:
    event = Event(storage, clock, platform="line", channel="group:C1")
    await start_event(event, "swiss 3 rounds 3+2", FOUR)
    kinds = [n.reply.kind for n in event.delivered]
    assert kinds.count("tournament_pairings") == 1 and "tournament_game" not in kinds


async def test_an_event_another_process_holds_is_looked_at_again_next_tick(event: Event) -> None:
    first = (await start_event(event, "swiss 2 rounds 3+2", FOUR))[0]
    tournament = first["tournament"]
    other = "elsewhere/1/abc"
    until = event.clock.now() + timedelta(minutes=2)
    assert await event.storage.claim([f"tournament:{tournament}"], other, until=until)
    await play_round(event, first)  # the last game's end finds the event claimed
    assert not await event.data("tournament_pairings")
    await event.storage.release([f"tournament:{tournament}"], other)
    assert [p["round"] for p in await event.data("tournament_pairings")] == [2]  # the next tick, not 5 minutes later


def test_a_berserk_side_gains_no_increment() -> None:
    from dataclasses import replace as changed

    from bot.services.games import live
    from storage.records import Clocks, Game, MoveRecord, TimeControl

    start = FakeClock().now()
    moves = (MoveRecord(1, "e3e4", "e4", "w", start), MoveRecord(2, "e6e5", "e5", "b", start))
    game = Game(1, "console", "c1", None, "makruk", "forced", "forbid", 60, None, None, True, None,
                "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "active", None, None, None, None, None,
                None, None, False, start, start, 1, moves, time_control=TimeControl(180, 2),
                clocks=Clocks(90_000, 180_000, start), tournament_id=1, berserk="w")
    later = start + timedelta(seconds=10)
    assert live.after_move(game, "w", later).clocks.white_ms == 80_000  # type: ignore[union-attr]
    assert live.after_move(changed(game, berserk=None), "w", later).clocks.white_ms == 82_000  # type: ignore[union-attr]


async def test_on_line_a_window_result_waits_for_a_reply_and_the_standings_supersede_it(storage, clock) -> None:
    event = Event(storage, clock, platform="line", channel="group:C1")
    await start_event(event, "swiss 2 rounds 1d window 1d", FOUR)
    event.clock.advance(minutes=10)  # the round's grace on LINE
    first = (await event.data("tournament_pairings"))[0]
    event.clock.advance(minutes=50)
    for pair in first["pairs"]:
        await event.ok(pair["white"], "e3e4")
    event.clock.advance(hours=23, seconds=1)
    kinds = [n.reply.kind for n in await event.notices()]
    assert "tournament_pairings" not in kinds  # round 2's grace
    event.clock.advance(minutes=10)
    kinds += [n.reply.kind for n in await event.notices()]
    assert "game_over" not in kinds and "tournament_pairings" in kinds  # no result pushed on its own
    assert {(await storage.get_game(pair["game"])).reason for pair in first["pairs"]} == {"round_window"}
    assert not [n for n in await storage.pending_notices("line", "group:C1") if n.kind == "tournament_result"]


async def test_a_line_groups_correspondence_round_is_pushed_after_a_grace(storage, clock) -> None:
    event = Event(storage, clock, platform="line", channel="group:C1")
    assert not await start_event(event, "swiss 3 rounds 1d", FOUR)
    event.clock.advance(minutes=10)
    assert [p["round"] for p in await event.data("tournament_pairings")] == [1]
