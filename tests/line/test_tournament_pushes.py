"""Tournaments in a LINE group on the fake LINE API: the group is not flooded and the quota
lasts (docs/line.md, Tournaments). A 5-round Swiss played by messages, on a fake clock: at
most one push a round (rounds + 1 with the final standings, and the reminders before a start),
every other notice riding on a reply; a game's moves and result one line without a picture;
results the clock makes ride on the next reply or are said again by the next round's
standings; the standings picture served by its URL."""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot.adapters.line.main import LineDoor
from bot.adapters.line.standings import ORIGINAL, PREVIEW
from bot.app import open_app
from bot.engines import RandomMover
from bot.messages import Incoming, User
from storage.records import Game

from .support import GROUP, PEOPLE, boards, free_socket, png_size, texts

LIFF_ID = "1234567890-AbCdEfGh"
MORE = {"Ueve000005": "Eve", "Ufrank0006": "Frank"}
PLAYERS = [*PEOPLE, *MORE]
ROUNDS = 5
START_REMINDERS = 3  # a day (correspondence), an hour and 5 minutes before a start


@pytest.fixture
def line_settings() -> dict[str, object]:
    return {"liff_id": LIFF_ID, "line_login_channel_id": "1234567890"}


@pytest.fixture
def group(line):
    line.fake.members[GROUP].update(MORE)
    return line


async def say(line, user: str, text: str) -> list[dict]:
    return await line.say(user, text, group=GROUP)


def outbox(line, kind: str) -> list[tuple[str, int, str | None]]:
    """(key, push, sent) of the group's notices of ``kind``."""
    with sqlite3.connect(line.db) as conn:
        return list(conn.execute("SELECT key, push, sent FROM outbox WHERE channel = ? AND kind = ? ORDER BY id",
                                 (f"group:{GROUP}", kind)))


async def event_state(line):
    event = await line.app.storage.open_tournament("line", f"group:{GROUP}")
    if event is None:  # finished
        with sqlite3.connect(line.db) as conn:
            (event_id,) = conn.execute("SELECT max(id) FROM tournaments").fetchone()
        return await line.app.storage.tournament_state(event_id)
    return await line.app.storage.tournament_state(event.id)


async def open_games(line) -> list[tuple[Game, str, str]]:
    """The games of the event's last round still being played: (game, White's id, Black's id)."""
    state = await event_state(line)
    games = []
    for board in state.boards:
        if board.round == state.tournament.last_round and board.game_id is not None:
            game = await line.app.storage.get_game(board.game_id)
            if game.is_open:
                players = await line.app.storage.get_players([board.white, board.black])
                games.append((game, players[board.white].user_id, players[board.black].user_id))
    return games


def pushed(line) -> list[dict]:
    """The pushes LINE took for the group (each counted once per member)."""
    return [p.body for p in line.fake.delivered if p.body is not None and p.body["to"] == GROUP]


async def start_swiss(line, spec: str) -> list[dict]:
    await say(line, PLAYERS[0], f"/tournament new {spec}")
    for user in PLAYERS:
        await say(line, user, "join")
    return await say(line, PLAYERS[0], "tournament start")


@pytest.mark.parametrize("scheduled", [False, True], ids=["tournament-start", "in-2h"])
async def test_a_five_round_swiss_pushes_once_a_round_at_most_and_results_ride_on_replies(group, scheduled):
    line = group
    rng = random.Random(25)
    reminders = 0
    if not scheduled:
        started = await start_swiss(line, f"swiss {ROUNDS} rounds 3+2")
        # Round 1's notice rides on the answer to `tournament start`: nothing pushed.
        ((_key, push, sent),) = outbox(line, "tournament_pairings")
        assert push and sent is not None and pushed(line) == []
        assert any(m["type"] == "textV2" for m in started)  # the pairings mention the players
    else:
        await say(line, PLAYERS[0], f"/tournament new swiss {ROUNDS} rounds 3+2 in 2h")
        for user in PLAYERS:
            await say(line, user, "join")
        # The hour's and the 5 minutes' reminders (a live event has no day's), then the start,
        # in a silent group: round 1's notice is pushed, the start itself is not.
        for step in ({"hours": 1, "seconds": 1}, {"minutes": 55}, {"minutes": 5}):
            line.clock.advance(**step)
            await line.door.scheduler.run_once()
        reminders = START_REMINDERS - 1
        assert len(pushed(line)) == reminders + 1
    seen_one_line = seen_result_line = False
    for number in range(1, ROUNDS + 1):
        games = await open_games(line)
        assert games and (await event_state(line)).tournament.last_round == number
        late = []
        for game, white, black in games:
            outcome = rng.choice(["resign", "resign", "draw", "forfeit"])
            if outcome == "forfeit" and number in (2, 4):
                late.append(game)
                await say(line, black, "board")  # Black is there; White never comes
                continue
            moved = await say(line, white, "e3e4")
            # A move in an event game: one line with the clocks, the web board a tap away, no picture.
            assert boards(moved) == [] and len(moved) >= 1
            assert "\n" not in moved[0]["text"]
            quick = moved[-1]["quickReply"]["items"][0]["action"]
            assert quick["type"] == "uri" and quick["uri"].endswith(f"/g/{game.id}")
            seen_one_line = True
            if outcome == "draw":
                await say(line, black, "draw")
                ended = await say(line, white, "accept")
            else:
                ended = await say(line, black, "resign")
            assert boards(ended) == [] or any("/standings/" in b["originalContentUrl"] for b in boards(ended))
            notice = next((m for m in ended if m["type"] == "textV2"), None)
            if notice is not None:  # the next round's notice rode on it: players mentioned in the pairings
                pairings = notice["text"].split("\n\n")[-1]
                assert all("{" + key + "}" in pairings for key in notice["substitution"])
            seen_result_line = True
        if late:
            # White never came to these boards: the clock ends them (a forfeit after 60 s), and their
            # results, not pushed, are said again by the next round's notice or the final one.
            line.clock.advance(seconds=61)
            await line.door.scheduler.run_once()
            await line.door.scheduler.run_once()
    assert seen_one_line and seen_result_line
    state = await event_state(line)
    assert state.tournament.status == "finished" and state.tournament.last_round == ROUNDS

    # The budget: at most one push a round and the final standings (no reminders: no start time).
    notices = pushed(line)
    assert len(notices) - reminders <= ROUNDS + 1
    for body in notices:
        assert len(body["messages"]) <= 5
        assert all(m["type"] != "imagemap" for m in body["messages"])  # never a game's board
    # Only round notices and the final standings were ever allowed to push.
    with sqlite3.connect(line.db) as conn:
        kinds = {kind for (kind,) in conn.execute(
            "SELECT kind FROM outbox WHERE channel = ? AND push", (f"group:{GROUP}",))}
    assert kinds <= {"tournament_pairings", "tournament_standings", "tournament_reminder", "answer"}
    # Results the clock made were never pushed; each rode on a reply or was superseded.
    results = outbox(line, "tournament_result")
    assert results and all(not push and sent is not None for _, push, sent in results)
    assert all(sent is not None for _, _, sent in outbox(line, "tournament_started"))
    # Round notices: one per round and the final standings, each sent once.
    rounds = outbox(line, "tournament_pairings")
    assert len(rounds) == ROUNDS and all(push and sent is not None for _, push, sent in rounds)
    (final,) = outbox(line, "tournament_standings")
    assert final[1] and final[2] is not None
    # Each push was counted once per member of the group.
    assert line.fake.quota_used == len(notices) * len(line.fake.members[GROUP])
    # Rounds 2 and 4 ended by the clock: the notices after them had no reply to ride on; with a
    # start time, the two reminders and round 1's notice too.
    assert len(notices) == 2 + (reminders + 1 if scheduled else 0) <= ROUNDS + 1 + START_REMINDERS


async def test_the_board_command_still_draws_an_event_game(group):
    line = group
    await start_swiss(line, "swiss 2 rounds 3+2")
    _game, white, _ = (await open_games(line))[0]
    drawn = await say(line, white, "board")
    assert boards(drawn)  # asked for: the picture (tap-to-move for the player to move)
    moved = await say(line, white, "e3e4")
    assert boards(moved) == [] and len(texts(moved).splitlines()) == 1


async def test_a_correspondence_round_notice_rides_on_a_reply_within_its_grace(group):
    line = group
    await start_swiss(line, "swiss 2 rounds 1d")
    games = await open_games(line)
    for _game, white, black in games[:-1]:
        await say(line, white, "e3e4")
        await say(line, black, "resign")
    _, white, black = games[-1]
    await say(line, white, "e3e4")
    ended = await say(line, black, "resign")  # the round is over: round 2 is paired ...
    assert "2" in texts(ended)  # ... and its notice rides on this very reply
    await line.door.scheduler.run_once()
    assert pushed(line) == []
    # Round 2 ends by messages too: the final standings ride on the last reply.
    games = await open_games(line)
    for _game, white, black in games:
        await say(line, white, "e3e4")
        await say(line, black, "resign")
    state = await event_state(line)
    assert state.tournament.status == "finished"
    (final,) = outbox(line, "tournament_standings")
    assert final[2] is not None and pushed(line) == []  # the last resignation's reply carried it


async def test_an_unanswered_correspondence_notice_is_pushed_after_the_grace(group):
    line = group
    await start_swiss(line, "swiss 2 rounds 1d")
    games = await open_games(line)
    for _game, white, _black in games:
        await say(line, white, "e3e4")
    # Black never answers: the per-move limit ends each game (unpushed results), round 2 follows.
    line.clock.advance(days=1, seconds=1)
    await line.door.scheduler.run_once()
    await line.door.scheduler.run_once()
    assert (await event_state(line)).tournament.last_round == 2
    assert pushed(line) == []  # within the grace nobody wrote: nothing pushed yet
    line.clock.advance(minutes=10, seconds=1)
    await line.door.scheduler.run_once()
    (notice,) = pushed(line)  # then round 2's notice, once: standings after round 1, pairings of round 2
    pictures = [m for m in notice["messages"] if m["type"] == "image"]
    assert len(pictures) == 1 and "/standings/" in pictures[0]["originalContentUrl"]
    assert all(sent is not None for _, _, sent in outbox(line, "tournament_result"))  # superseded


async def test_the_standings_picture_is_served_by_any_process_and_only_when_settled(group):
    line = group
    await start_swiss(line, "swiss 3 rounds 3+2")
    for _game, white, black in await open_games(line):
        await say(line, white, "e3e4")
        await say(line, black, "resign")
    state = await event_state(line)
    assert state.tournament.last_round == 2
    original, preview = line.door.standings.urls(state.tournament.id, 1, "th")
    status, kind, png = await line.fetch(original)
    assert (status, kind) == (200, "image/png") and png_size(png)[0] == 1080
    again = await line.app.tournaments.standings_png(state.tournament.id, 1, "th")
    assert again == png  # a closed round's standings: the same bytes, drawn again
    status, _, small = await line.fetch(preview)
    assert status == 200 and png_size(small)[0] == 240
    current, _ = line.door.standings.urls(state.tournament.id, 2, "th")
    assert (await line.fetch(current))[0] == 404  # round 2 is being played: its standings may change
    tampered = original.replace(f"/{state.tournament.id}-1-th-", f"/{state.tournament.id}-2-th-")
    assert (await line.fetch(tampered))[0] == 404
    assert (await line.fetch(original.replace(ORIGINAL, "x.png")))[0] == 404
    assert PREVIEW in preview


async def test_a_correspondence_event_nobody_talks_in_pushes_its_whole_budget_and_no_more(group):
    line = group
    await say(line, PLAYERS[0], "/tournament new swiss 2 rounds 1d in 2d")
    for user in PLAYERS:
        await say(line, user, "join")
    # Past the day's, the hour's and the 5 minutes' reminder before the start, then the start.
    for step in ({"hours": 24, "seconds": 1}, {"hours": 23}, {"minutes": 55}, {"minutes": 5}):
        line.clock.advance(**step)
        await line.door.scheduler.run_once()
    assert (await event_state(line)).tournament.last_round == 1
    assert len(pushed(line)) == START_REMINDERS  # the start itself is not pushed: round 1 says it
    for _ in range(2):  # nobody moves: each game is lost on the first move's limit
        line.clock.advance(days=1, minutes=11)
        await line.door.scheduler.run_once()
        await line.door.scheduler.run_once()
        line.clock.advance(minutes=11)
        await line.door.scheduler.run_once()
    state = await event_state(line)
    assert state.tournament.status == "finished" and state.tournament.last_round == 2
    notices = pushed(line)
    assert len(notices) == START_REMINDERS + 2 + 1  # reminders, each round, the final standings
    assert all(sent is not None and not push for _, push, sent in outbox(line, "tournament_result"))


async def test_moves_made_on_the_web_board_in_an_event_game_are_not_pushed(group):
    line = group
    await start_swiss(line, "swiss 2 rounds 3+2")
    game, white, _ = (await open_games(line))[0]
    player = await line.app.storage.find_player("line", white)
    assert player is not None
    msg = Incoming("line", f"group:{GROUP}", User(white, player.display_name), "e3e4", community=GROUP,
                   event="web-0001", shown=False, pictures=False, game=game.id)
    (reply,) = await line.app.games.handle(msg)
    assert reply.error is None
    await line.door.scheduler.run_once()
    assert pushed(line) == []
    ((_key, push, sent),) = outbox(line, "tournament_move")
    assert not push and sent is None  # it waits for a reply to ride on ...
    carried = await say(line, white, "pairings")
    assert "จ๔" in texts(carried)  # ... and the next one in the group carries it
    assert outbox(line, "tournament_move")[0][2] is not None


async def test_a_result_the_clock_makes_rides_on_the_next_reply_in_the_group(group):
    line = group
    await start_swiss(line, "swiss 2 rounds 3+2")
    (_, white, black), (_, white2, black2), (absent, _, there) = await open_games(line)
    for mover in (white, black, white2, black2):  # two games under way; White never comes to the third
        await say(line, mover, "e3e4" if mover in (white, white2) else "e6e5")
    await say(line, there, "board")  # its Black is there
    line.clock.advance(seconds=61)
    await line.door.scheduler.run_once()
    assert (await line.app.storage.get_game(absent.id)).reason == "forfeit"
    assert pushed(line) == []
    ((_, push, sent),) = outbox(line, "tournament_result")
    assert not push and sent is None
    answer = await say(line, white, "resign")
    assert len(answer) == 2 and boards(answer) == []  # the resignation's line, then the forfeit's
    assert all("\n" not in m["text"] for m in answer)
    assert outbox(line, "tournament_result")[0][2] is not None


async def test_standings_of_a_closed_round_come_with_their_picture(group):
    line = group
    await start_swiss(line, "swiss 3 rounds 3+2")
    for _, white, black in await open_games(line):
        await say(line, white, "e3e4")
        await say(line, black, "resign")
    closed = await say(line, PLAYERS[0], "standings 1")
    (picture,) = boards(closed)
    assert "/standings/" in picture["originalContentUrl"]
    assert (await line.fetch(picture["originalContentUrl"]))[0] == 200
    assert boards(await say(line, PLAYERS[0], "standings")) == []  # round 2 is being played: text only


async def test_another_process_of_the_channel_draws_the_same_standings_picture(group, settings_for, clock):
    line = group
    await start_swiss(line, "swiss 3 rounds 3+2")
    for _, white, black in await open_games(line):
        await say(line, white, "e3e4")
        await say(line, black, "resign")
    event_id = (await event_state(line)).tournament.id
    original, _ = line.door.standings.urls(event_id, 1, "en")
    sock = free_socket()
    port = sock.getsockname()[1]
    settings = settings_for(port)  # the same database and channel secret, another server
    async with (open_app(settings, clock=clock, engine=RandomMover(seed=1)) as app,
                LineDoor(settings, app, scheduler_interval=3600) as door):
        await door.listen(sock=sock)
        status, _, theirs = await line.fetch(original.replace(line.base_url, f"http://127.0.0.1:{port}"))
    status_here, _, ours = await line.fetch(original)
    assert status == status_here == 200 and theirs == ours
