"""Databases made by an older release open with nothing lost, and play goes on in them.

The fixtures (tests/storage/fixtures/, README.md there) were made by make_legacy.py at main's
commit 265ed4a: a SQLite file at schema version 10 and a PostgreSQL dump at version 5. Each
test opens a copy with `open_storage`, which upgrades it in place (nothing to do for the
release that made them; every later migration must keep these tests passing), then
`check_legacy` reads it through the public API on either backend: everything the fixture held
(legacy-expected.json, compared field by field, so a record may gain fields but never lose or
change one), and the same facts spelled out. The other tests write: a move in the open game,
and the queues (inbox, outbox, claims, puzzles) and new rows going on from where they were.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from collections.abc import AsyncIterator
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from makruk import Board, CountEvent
from storage import (
    Color,
    GameChanges,
    NewEvent,
    NewGame,
    NewMove,
    NewNotice,
    Puzzle,
    PuzzleAlreadyPosted,
    RatingUpdate,
    Seat,
    Storage,
    VersionConflict,
    open_storage,
)
from storage import _migrations as history

from ..conftest import BACKENDS
from ..pgserver import PgServer
from .fixtures.legacy_state import (
    DISCORD_BOT,
    DISCORD_CHALLENGE,
    DISCORD_GAMES,
    EVENT_DONE,
    EVENT_OLD,
    EVENT_STARTED,
    EVENT_WAITING,
    EXPECTED,
    GONE,
    HOLDER,
    LEASE_PREFIX,
    LINE_GAMES,
    LINE_INBOX,
    LINE_PUZZLES,
    LINE_WAITING,
    OPEN_CHAT,
    PLAYERS,
    POSTGRES_FIXTURE,
    POSTGRES_VERSION,
    SQLITE_FIXTURE,
    SQLITE_VERSION,
    snapshot,
)
from .schema_catalog import restore
from .storage_helpers import FakeClock

MANIFEST: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
MADE_AT = datetime.fromisoformat(MANIFEST["now"])  # the fixture clock's time when they were made


@pytest.fixture(params=BACKENDS)
async def legacy(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh copy of the backend's fixture, not opened yet: a file path or a postgresql:// URL."""
    if request.param == "sqlite":
        path = tmp_path / "legacy.db"
        shutil.copyfile(SQLITE_FIXTURE, path)
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SQLITE_VERSION
        conn.close()
        return str(path)
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.new_database("legacy")
    restore(url, POSTGRES_FIXTURE)
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT version FROM schema_version") == POSTGRES_VERSION
    finally:
        await conn.close()
    return url


@pytest.fixture
def clock() -> FakeClock:
    made = FakeClock()
    made.now = MADE_AT + timedelta(minutes=1)
    return made


@pytest.fixture
async def storage(legacy: str, clock: FakeClock) -> AsyncIterator[Storage]:
    async with await open_storage(legacy, clock=clock) as opened:
        yield opened


def assert_holds(expected: Any, actual: Any, path: str = "") -> None:
    """`actual` has every field of `expected` with the same value (and maybe more fields)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: {actual!r} is not a record"
        for key, value in expected.items():
            assert key in actual, f"{path}/{key}: missing"
            assert_holds(value, actual[key], f"{path}/{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: {actual!r} != {expected!r}"
        for i, (want, got) in enumerate(zip(expected, actual, strict=True)):
            assert_holds(want, got, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


async def check_legacy(storage: Storage) -> None:
    """Everything the fixture was made with is there, read through the public API."""
    assert_holds(MANIFEST["state"], await snapshot(storage, MADE_AT, MANIFEST["notice_keys"]))
    # The same, spelled out: the players, with their names as last seen and their ratings per variant.
    ids = {}
    for platform, user_id, name, language in PLAYERS:
        player = await storage.find_player(platform, user_id)
        assert player is not None and (player.display_name, player.language) == (name, language)
        ids[name] = player.id
    rated = {v: [(await storage.get_rating(i, v)).games_played for i in ids.values()]
             for v in ("makruk", "makpong", "cambodian", "asean", "sittuyin", "karouk")}
    assert {v: sum(games) for v, games in rated.items()} == {
        "makruk": 5, "makpong": 2, "cambodian": 2, "asean": 2, "sittuyin": 2, "karouk": 0}
    alice = await storage.get_rating(ids["Alice"], "makruk")
    assert alice.rating > 1500 and alice.deviation < 350
    assert [s.player.display_name for s in await storage.top_players("discord", "asean")] == ["Alice", "Chai"]
    # The finished games, one in every variant, whose moves replay legally to their end.
    finished = [*await storage.channel_games(*DISCORD_GAMES), *await storage.channel_games(*LINE_GAMES)]
    assert sorted(g.variant for g in finished) == sorted(
        ["makruk", "makpong", "asean", "makruk", "cambodian", "karouk", "sittuyin", "makruk"])
    assert {g.reason for g in finished} == {"resignation", "agreement", "timeout", "counting"}
    for done in finished:
        assert done.status == "finished" and done.result is not None and done.deadline is None
        assert [m.ply for m in done.moves] == list(range(1, len(done.moves) + 1))
        board = Board(done.start_fen, variant=done.variant)
        board.replay([m.uci for m in done.moves], CountEvent.load_all(done.counting))
        if done.reason == "counting":
            outcome = board.outcome()
            assert outcome is not None and (outcome.result, outcome.reason) == (done.result, "counting")
            assert done.counting == '{"events": [[0, "count"]]}' and done.start_fen.startswith("8/8/8/4k3")
    assert [g.reason for g in await storage.finished_games(ids["Ek"])] == ["counting", "resignation", "timeout"]
    # The open game: a day a move, its clock running from the last move, and its chat's state.
    game = await storage.active_game(*OPEN_CHAT)
    assert game is not None and game.status == "active" and len(game.moves) == 9 and game.variant == "makruk"
    assert game.deadline == game.moves[-1].at + timedelta(days=1) > MADE_AT
    assert game.remind_at == game.moves[-1].at + timedelta(days=0.8) and not game.reminded
    state = await storage.chat_state(*OPEN_CHAT, PLAYERS[4][1])
    assert state.game == game and state.sender is not None and state.sender.id == ids["Ek"]
    assert set(state.players) == {ids["ดาว"], ids["Ek"]}
    assert (state.settings.language, state.settings.notation, state.settings.move_seconds) == ("th", "thai", 86400)
    challenge = await storage.active_game(*DISCORD_CHALLENGE)
    assert challenge is not None and challenge.status == "challenge" and challenge.white is None
    bot_game = await storage.active_game(*DISCORD_BOT)  # against the engine, reminded already
    assert bot_game is not None and bot_game.white == Seat.engine(5) and bot_game.reminded
    assert [g.id for g in await storage.engine_games()] == [bot_game.id]
    # The outbox: the open game's reminder waits for its time, a reply rides along, one waits to be retried.
    pending = await storage.pending_notices(*OPEN_CHAT)
    assert [(n.key, n.kind, n.push, n.due) for n in pending] == [
        ("fx-remind", "reminder", True, game.remind_at), ("fx-later", "reply", False, pending[1].created)]
    assert [n.key for n in await storage.due_notices("line", MADE_AT)] == ["fx-daily-2"]
    assert [n.key for n in await storage.due_notices("line", game.remind_at)] == ["fx-daily-2", "fx-remind", "fx-retry"]
    counts = await storage.notice_counts()
    assert (counts.pending, counts.dead) == (4, 1)
    # Puzzles: two daily posts and an extra one, a streak of two days, who solved most.
    subscription = await storage.get_subscription(*LINE_PUZZLES)
    assert subscription is not None and (subscription.local_time, subscription.timezone) == (time(8), "Asia/Bangkok")
    assert len(await storage.posted_puzzle_ids(*LINE_PUZZLES)) == 3
    streak = await storage.get_streak(*LINE_PUZZLES, ids["ดาว"])
    assert (streak.current, streak.best) == (2, 2)
    assert [s.display_name for s in await storage.puzzle_leaderboard(*LINE_PUZZLES)][:2] == ["ดาว", "ฝน"]
    # The inbox: one chat's event nobody took, another's started by a process; claims held.
    assert await storage.waiting_chats("line", received_before=MADE_AT, stale_before=MADE_AT - timedelta(hours=1)) \
        == [LINE_WAITING[1]]
    assert await storage.event_holders(LEASE_PREFIX) == {HOLDER}
    assert await storage.lease_holders(LEASE_PREFIX) == {HOLDER}


async def test_a_legacy_database_opens_with_everything_in_it(
    legacy: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="storage.migrate")
    async with await open_storage(legacy, clock=clock) as storage:
        await check_legacy(storage)
    latest = history.latest_version()
    assert await version_of(legacy) == (latest, None if legacy.endswith(".db") else POSTGRES_VERSION)
    async with await open_storage(legacy, clock=clock) as storage:  # opened again: still all there
        await check_legacy(storage)
    # SQLite goes on with its numbering; PostgreSQL's former 5 is the one history's 10.
    said = [record.getMessage() for record in caplog.records if record.name == "storage.migrate"]
    adopted = "" if legacy.endswith(".db") else \
        f", after reading its version {POSTGRES_VERSION} of PostgreSQL's former numbering as 10"
    since = ", ".join(str(m) for m in history.MIGRATIONS[10:])  # the migrations after that release's
    assert said == [f"upgraded the database {legacy} from version 10 to {latest} (migrations {since}){adopted}",
                    f"the database {legacy} is up to date at version {latest}"]


async def version_of(location: str) -> tuple[int, int | None]:
    """The schema version (SQLite: user_version), and on PostgreSQL the former one it was adopted at."""
    if location.endswith(".db"):
        with sqlite3.connect(location) as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.close()
        return version, None
    conn = await asyncpg.connect(location)
    try:
        row = await conn.fetchrow("SELECT version, legacy_version FROM schema_version")
        return row["version"], row["legacy_version"]
    finally:
        await conn.close()


async def test_the_open_game_goes_on(storage: Storage, clock: FakeClock) -> None:
    game = await storage.active_game(*OPEN_CHAT)
    assert game is not None and game.white is not None and game.black is not None
    board = Board(game.start_fen, variant=game.variant)
    board.replay([m.uci for m in game.moves], CountEvent.load_all(game.counting))
    move = min(board.legal_moves(), key=lambda m: m.uci())
    by: Color = "w" if board.turn else "b"
    now = clock.advance(600)
    changes = GameChanges(deadline=now + timedelta(days=1), remind_at=now + timedelta(days=0.8), reminded=False)
    notice = NewNotice(*OPEN_CHAT, "fx-playon", "game", '{"text": "played on"}')
    played = await storage.append_move(game.id, game.version, NewMove(move.uci(), board.san(move), by), changes,
                                       notices=[notice])
    assert played == game.after(changes, move=NewMove(move.uci(), board.san(move), by), at=now)
    assert await storage.get_game(game.id) == played and played.moves[-1].ply == 10
    assert (played.moves[-1].uci, played.moves[-1].by, played.moves[-1].at) == (move.uci(), by, now)
    assert [n.key for n in await storage.pending_notices(*OPEN_CHAT)] == ["fx-remind", "fx-later", "fx-playon"]
    with pytest.raises(VersionConflict):
        await storage.append_move(game.id, game.version, NewMove(move.uci(), "x", by))
    board.play(move)
    # The game ends, rated: both players' Makruk ratings move, and it joins the chat's archive.
    white = await storage.get_rating(game.white.player_id or 0, "makruk")
    black = await storage.get_rating(game.black.player_id or 0, "makruk")
    ratings = [RatingUpdate.after_game(white, white.rating + 20, 300, 0.06),
               RatingUpdate.after_game(black, black.rating - 20, 300, 0.06)]
    ended = await storage.update_game(played.id, played.version, GameChanges(
        status="finished", result="1-0", reason="resignation", deadline=None, remind_at=None), ratings=ratings)
    assert [g.id for g in await storage.channel_games(*OPEN_CHAT)] == [ended.id]
    assert (await storage.get_rating(white.player_id, "makruk")).games_played == white.games_played + 1
    # The chat takes a new game, numbered after every old one.
    new = await storage.create_game(NewGame(platform="line", channel=OPEN_CHAT[1], white=game.black, black=game.white,
                                            start_fen=game.start_fen, promotion="forced", perpetual="forbid",
                                            move_seconds=86400, status="active"))
    assert new.id > max(int(i) for i in MANIFEST["state"]["games"])


async def test_the_queues_go_on_where_they_were(storage: Storage, clock: FakeClock) -> None:
    now = clock.now
    # The inbox: the waiting event is taken; the started one is busy until its holder goes quiet.
    stale = now - timedelta(minutes=10)
    taken = await storage.take_event(*LINE_WAITING, "new-holder", stale_before=stale)
    assert taken.event is not None and (taken.event.event_id, taken.event.tries) == (EVENT_WAITING, 1)
    assert json.loads(taken.event.body)["message"]["text"] == "ดูกระดาน"
    assert (await storage.take_event(*LINE_INBOX, "new-holder", stale_before=stale)).busy
    again = await storage.take_event(*LINE_INBOX, "new-holder", stale_before=now)
    assert again.event is not None and (again.event.event_id, again.event.tries) == (EVENT_STARTED, 2)
    # Ids seen before are still known: a redelivery is dropped.
    sent = now - timedelta(minutes=1)
    assert await storage.receive_events([NewEvent(*LINE_INBOX, EVENT_DONE, sent, "{}")]) == []
    assert not await storage.mark_event_processed(EVENT_OLD)
    # Claims: the live one stays its holder's, the one that ran out is taken.
    assert await storage.claim(["outbox:line", "reminders:line"], "new-holder", until=now + timedelta(hours=1)) \
        == {"reminders:line"}
    assert await storage.release_holder(GONE) == 0
    # The outbox: the due notice is sent; the next of the chat comes after it, the dead one stays dead.
    await storage.mark_notices_sent(["fx-daily-2"])
    assert await storage.due_notices("line", now) == []
    await storage.add_notices([NewNotice(*LINE_GAMES, "fx-new", "reply", "{}")])
    rows = await storage.notices_with_keys(["fx-retry", "fx-new", "fx-dead"])
    assert [n.key for n in rows] == ["fx-retry", "fx-dead", "fx-new"] and rows[1].dead is not None
    # Puzzles: a day posted already stays taken, a puzzle shown stays shown, the streak goes on.
    subscription = await storage.get_subscription(*LINE_PUZZLES)
    assert subscription is not None and subscription.last_posted is not None
    shown = sorted(await storage.posted_puzzle_ids(*LINE_PUZZLES))
    await storage.upsert_puzzles([Puzzle("fx-next", Board().fen(), ("e3e4",))])
    assert await storage.record_post(subscription.id, subscription.last_posted, "fx-next") is None
    with pytest.raises(PuzzleAlreadyPosted):
        await storage.record_post(subscription.id, subscription.last_posted + timedelta(days=1), shown[0])
    post = await storage.record_post(subscription.id, subscription.last_posted + timedelta(days=1), "fx-next")
    assert post is not None
    dao = await storage.find_player(*PLAYERS[3][:2])
    assert dao is not None
    await storage.record_attempt(post.id, dao.id, True)
    assert (await storage.get_streak(*LINE_PUZZLES, dao.id)).current == 3
    # A new player gets a new id.
    newcomer = await storage.get_or_create_player("line", "U0000000000000000000000000000a004", "Noi")
    assert newcomer.id > max(p["player"]["id"] for p in MANIFEST["state"]["players"].values())
