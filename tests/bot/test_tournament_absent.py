"""Both players absent from a tournament game (docs/tournaments.md 2.8): White makes no first
move and Black never wrote to the game either, so neither came. It is a double forfeit, 0-0F,
a forfeit loss for each (two withdraw a player), in a Swiss, an arena and a correspondence
event alike; a Black who wrote to the game keeps the point White's absence gives."""

from __future__ import annotations

import logging

import pytest

from bot.clock import FakeClock
from bot.i18n import Catalog
from bot.messages import Incoming, User
from bot.services.tournaments import history
from storage import Storage, StorageError

from .tournament_support import Event, start_event

SIX = ["alice", "bob", "cy", "dan", "eve", "fay"]
CATALOG = Catalog.load()
CHECK_IN = CATALOG.text("en", "tournament.round.black_check_in")


def board_of(pairings: dict, name: str) -> dict:
    return next(p for p in pairings["pairs"] if name in (p["white"], p["black"]))


async def test_neither_player_coming_is_a_double_forfeit_and_two_withdraw(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    pairings = (await start_event(event, "swiss 3 rounds 3+2", SIX))[0]
    absent = board_of(pairings, "alice")
    absentees = {absent["white"], absent["black"]}
    for number in (1, 2):
        for pair in pairings["pairs"]:
            away = absentees & {pair["white"], pair["black"]}
            if away == {pair["white"], pair["black"]}:
                continue  # nobody comes to this board
            if not away:
                await event.ok(pair["black"], "resign")
            elif pair["white"] in away:
                await event.ok(pair["black"], "board")  # Black is there, White is not
            else:
                await event.ok(pair["white"], "e3e4")  # White is there, Black is not
        clock.advance(seconds=61)
        told = await event.notices()
        if number == 1:
            game = await storage.get_game(absent["game"])
            assert (game.status, game.reason, game.result) == ("aborted", "double_forfeit", None)
            over = next(n.reply for n in told if n.reply.game is not None and n.reply.game.id == absent["game"])
            assert f"Neither {absent['white']} nor {absent['black']} came to the board" in over.text
            state = await event.event_state()
            assert [history.score_of(b) for b in state.boards if b.game_id == absent["game"]] == ["0-0F"]
            ids = {p.id for p in (await storage.get_players([e.player_id for e in state.entrants])).values()
                   if p.display_name in absentees}
            assert {p: n for p, n in history.forfeits(state).items() if p in ids} == dict.fromkeys(ids, 1)
            standings = (await event.ok("cy", "standings 1"))[0].data
            assert standings is not None
            assert {r["player"]: r["points"] for r in standings["rows"] if r["player"] in absentees} == \
                dict.fromkeys(absentees, 0.0)
        pairings = next(n.reply.data or {} for n in told if n.reply.kind == "tournament_pairings")
    state = await event.event_state()
    names = await event.tournaments.names(state)
    withdrawn = {names[e.player_id] for e in state.entrants if e.withdrawn}
    assert withdrawn == absentees  # two forfeits each: both withdrawn
    assert not absentees & {p for pair in pairings["pairs"] for p in (pair["white"], pair["black"])}


async def test_black_who_wrote_to_the_game_wins_when_white_never_comes(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    pair = (await start_event(event, "swiss 2 rounds 3+2", ["alice", "bob"]))[0]["pairs"][0]
    await event.refused(pair["black"], "e6e5", "not_your_turn")  # a move typed too early shows Black is there
    clock.advance(seconds=61)
    await event.notices()
    game = await storage.get_game(pair["game"])
    assert (game.status, game.result, game.reason, game.rated) == ("finished", "0-1", "forfeit", False)


async def test_an_arena_scores_a_double_forfeit_nothing_for_either(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    pair = (await start_event(event, "arena 30m 3+2", ["alice", "bob"]))[0]["pairs"][0]
    clock.advance(seconds=61)
    await event.notices()
    assert (await storage.get_game(pair["game"])).reason == "double_forfeit"
    standings = (await event.ok("alice", "standings"))[0].data
    assert standings is not None and {r["player"]: r["points"] for r in standings["rows"]} == {"alice": 0.0,
                                                                                               "bob": 0.0}
    assert sorted(history.forfeits(await event.event_state()).values()) == [1, 1]


async def test_a_correspondence_game_neither_player_came_to_is_a_double_forfeit(storage: Storage,
                                                                                  clock: FakeClock) -> None:
    event = Event(storage, clock)
    pair = (await start_event(event, "swiss 2 rounds 1d", ["alice", "bob"]))[0]["pairs"][0]
    clock.advance(days=1, seconds=1)
    await event.notices()
    game = await storage.get_game(pair["game"])
    assert (game.status, game.reason) == ("aborted", "double_forfeit")


async def test_a_check_in_the_database_fails_leaves_the_answer_as_it_was(
    storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    event = Event(storage, clock)
    pair = (await start_event(event, "swiss 2 rounds 3+2", ["alice", "bob"]))[0]["pairs"][0]
    black = pair["black"]

    async def broken(*args: object, **kwargs: object) -> None:
        raise StorageError("the disk is full")

    with monkeypatch.context() as patched, caplog.at_level(logging.WARNING):
        patched.setattr(storage, "update_game", broken)  # the check-in's write fails
        board = await event.ok(black, "board")  # the answer, not an internal error
        assert board and board[0].game is not None and board[0].game.id == pair["game"]
        await event.refused(black, "e6e5", "not_your_turn")  # a refusal stays that refusal
        msg = Incoming("console", event.chat.channel, User(black, black), "board", community="guild", event="ev1",
                       redeliverable=True)
        assert [r.error for r in await event.games.handle(msg)] == [None]  # answered, not handed in again
    assert caplog.text.count("could not record Black at the board") == 3
    assert "the disk is full" in caplog.text

    async def bug(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    with monkeypatch.context() as patched:
        patched.setattr(storage, "update_game", bug)  # only the database's errors are let go
        assert [r.error for r in await event.say(black, "board")] == ["internal"]
    assert not (await storage.get_game(pair["game"])).black_present  # not stored...
    await event.ok(black, "board")
    assert (await storage.get_game(pair["game"])).black_present  # ...until Black's next message


async def test_each_game_s_notice_tells_black_how_to_show_they_came(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock, "discord", "42")
    pairings = (await start_event(event, "swiss 2 rounds 3+2", ["alice", "bob", "cy", "dan"]))[0]
    games = [n.reply for n in event.delivered if n.reply.kind == "tournament_game"]
    assert len(games) == 2 and all(g.text.endswith("\n" + CHECK_IN) for g in games)
    (round_notice,) = [n.reply for n in event.delivered if n.reply.kind == "tournament_pairings"]
    assert CHECK_IN not in round_notice.text  # each game's notice (its thread's first post) says it
    assert CHECK_IN not in (await event.ok("alice", "pairings"))[0].text  # nor when the pairings are read
    assert list(pairings) == ["tournament", "round", "pairs", "bye"]  # the console's contract, as it was
    assert [list(pair) for pair in pairings["pairs"]] == [["white", "black", "game"]] * 2


@pytest.mark.parametrize("spec", ["swiss 2 rounds 3+2", "arena 30m 3+2"])
async def test_on_line_the_round_s_one_message_tells_black(storage: Storage, clock: FakeClock, spec: str) -> None:
    event = Event(storage, clock, platform="line", channel="group:G1")
    await event.ok("alice", f"tournament new {spec}")
    for name in ["alice", "bob", "cy", "dan"]:
        await event.ok(name, "join")
    await event.ok("alice", "tournament start")
    waiting = await storage.pending_notices("line", "group:G1")
    assert not [n for n in waiting if n.kind == "tournament_game"]  # no notice per game on LINE
    clock.advance(seconds=21)  # an arena's batch waits 20 s for a reply to carry it
    (round_notice,) = [n.reply for n in await event.notices() if n.reply.kind == "tournament_pairings"]
    told = CATALOG.text("th", "tournament.round.black_check_in")  # a LINE group's language unless set
    assert round_notice.text.endswith("\n" + told) and round_notice.text.count(told) == 1
