"""storage.transfer: a SQLite file filled through the Storage API, copied into a real
PostgreSQL database and read back through the Storage API; runs repeated, changes carried
over, refusals that leave the target alone."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import (
    ChannelSettings,
    Clocks,
    GameChanges,
    NewGame,
    NewMove,
    NewNotice,
    Platform,
    Puzzle,
    RatingUpdate,
    Seat,
    Storage,
    TimeControl,
    migrate,
    open_storage,
)
from storage.transfer import TransferError, TransferReport, transfer

from .storage_helpers import START_FEN, FakeClock

MOVES = (NewMove("e3e4", "e4", "w"), NewMove("d6d5", "d5", "b"), NewMove("e4d5", "exd5", "w"))


async def fill(store: Storage, clock: FakeClock) -> dict[str, Any]:
    """A bit of everything, written the way the bot writes it; the ids to look things up by."""
    alice = await store.get_or_create_player("discord", "100", "Alice")
    bob = await store.get_or_create_player("discord", "200", "Bob")
    carol = await store.get_or_create_player("line", "U300", "Carol")
    await store.update_player(carol.id, language="th")

    finished = await store.create_game(NewGame(
        platform="discord", channel="chan-1", community="guild-1", white=Seat.human(alice.id),
        black=Seat.human(bob.id), start_fen=START_FEN, promotion="forced", perpetual="forbid",
        move_seconds=300, rated=True, created_by=alice.id, status="active",
        deadline=clock.now + timedelta(minutes=5), remind_at=clock.now + timedelta(minutes=4),
    ))
    for move in MOVES:
        clock.advance(30)
        finished = await store.append_move(finished.id, finished.version, move, GameChanges(draw_offer=None))
    finished = await store.update_game(
        finished.id, finished.version,
        GameChanges(status="finished", result="1-0", reason="resign", counting='{"board": 64, "by": "w"}'),
        ratings=[RatingUpdate.after_game(await store.get_rating(alice.id, "makruk"), 1620.5, 290.25, 0.0599),
                 RatingUpdate.after_game(await store.get_rating(bob.id, "makruk"), 1379.5, 290.25, 0.0601)],
    )
    await store.update_ratings(
        [RatingUpdate.after_game(await store.get_rating(carol.id, "sittuyin"), 1555.5, 301.0, 0.06)]
    )
    active = await store.create_game(
        NewGame(platform="line", channel="C1", white=Seat.human(carol.id), black=Seat.engine(3),
                start_fen=START_FEN, promotion="optional", perpetual="draw", move_seconds=86400,
                status="active", deadline=clock.now + timedelta(days=1)),
        notices=[NewNotice("line", "C1", "start-1", "bot_move", '{"uci": null}')],
    )
    for move in MOVES:
        clock.advance(1)
        active = await store.append_move(active.id, active.version, move, GameChanges(takeback_offer="b"))
    challenge = await store.create_game(NewGame(
        platform="discord", channel="chan-2", white=Seat.human(bob.id), black=None, start_fen=START_FEN,
        promotion="forced", perpetual="forbid", move_seconds=600, created_by=bob.id,
    ))
    live = await store.create_game(NewGame(  # a live game, lost on time: its clocks and live ratings
        platform="discord", channel="chan-3", community="guild-1", white=Seat.human(alice.id),
        black=Seat.human(bob.id), start_fen=START_FEN, promotion="forced", perpetual="forbid",
        move_seconds=300, rated=True, created_by=alice.id, status="active", time_control=TimeControl(180, 2),
        clocks=Clocks(180_000, 180_000, clock.now), deadline=clock.now + timedelta(seconds=30),
    ))
    clock.advance(2.5)
    live = await store.append_move(live.id, live.version, MOVES[0], GameChanges(
        clocks=Clocks(180_000, 179_250, clock.now), deadline=clock.now + timedelta(seconds=30)))
    live = await store.update_game(
        live.id, live.version, GameChanges(status="finished", result="1-0", reason="timeout"),
        ratings=[RatingUpdate.after_game(await store.get_rating(alice.id, "makruk", "live"), 1510.25, 330.5, 0.06),
                 RatingUpdate.after_game(await store.get_rating(bob.id, "makruk", "live"), 1489.75, 330.5, 0.06)],
    )

    await store.upsert_puzzles([
        Puzzle("p1", START_FEN, ("e3e4", "d6d5"), 1200, ("mate", "short"), "test"),
        Puzzle("p2", START_FEN, ("a3a4",)),
    ])
    subscription = await store.subscribe("line", "C1", time(9, 30), "Asia/Bangkok", "th")
    daily = await store.record_post(
        subscription.id, date(2026, 11, 30), "p1",
        notices=[NewNotice("line", "C1", "daily-1", "daily_puzzle", '{"puzzle": "p1"}')],
    )
    assert daily is not None
    extra = await store.record_extra_post("discord", "chan-1", "p2")
    await store.record_attempt(daily.id, carol.id, False)
    clock.advance(60)
    await store.record_attempt(daily.id, carol.id, True)
    await store.record_attempt(extra.id, alice.id, False)
    await store.save_progress(daily.id, alice.id, 1)
    await store.save_progress(extra.id, bob.id, 0, gave_up=True)

    await store.set_channel_settings(ChannelSettings(
        "discord", "chan-1", language="th", promotion="optional", perpetual="draw", move_seconds=600,
        coordinates="thai", orientation="black", push_notices=False, notation="playok",
    ))
    await store.set_channel_settings(ChannelSettings("line", "C1", push_notices=True))
    await store.add_notices([
        NewNotice("discord", "chan-1", "later-1", "reminder", '{"game": 1}', due=clock.now + timedelta(hours=1)),
        NewNotice("discord", "chan-1", "reply-1", "reply", '{"text": "สวัสดี"}', push=False),
        NewNotice("discord", "chan-2", "sent-1", "timeout", "[]"),
        NewNotice("discord", "chan-2", "dead-1", "timeout", "{}"),
    ])
    await store.mark_notices_sent(["sent-1"])
    await store.bury_notice("dead-1", error="403 Forbidden")
    await store.retry_notice("daily-1", due=clock.now + timedelta(minutes=2), error="429")
    await store.mark_event_processed("event-1")
    await store.claim(["game:1"], "host-a", until=clock.now + timedelta(hours=1))
    return {"players": [alice.id, bob.id, carol.id], "games": [finished.id, active.id, challenge.id, live.id],
            "posts": [daily.id, extra.id], "alice": alice.id, "bob": bob.id, "carol": carol.id}


async def contents(store: Storage, ids: dict[str, Any], clock: FakeClock) -> dict[str, Any]:
    """What the bot can read back, through the Storage API."""
    later = clock.now + timedelta(days=2)
    chats: list[tuple[Platform, str]] = [("discord", "chan-1"), ("discord", "chan-2"), ("line", "C1")]
    return {
        "games": [await store.get_game(i) for i in ids["games"]],
        "players": [await store.get_player(i) for i in ids["players"]],
        "top": [await store.top_players(p, v, min_games=0)
                for p in ("discord", "line") for v in ("makruk", "sittuyin")],
        "ratings": [await store.get_rating(i, v, s) for i in ids["players"] for v in ("makruk", "sittuyin")
                    for s in ("correspondence", "live")],
        "top live": await store.top_players("discord", "makruk", speed="live"),
        "finished": await store.finished_games(ids["alice"]),
        "channel games": [await store.channel_games(p, c) for p, c in chats],
        "chat players": [await store.channel_players(p, c) for p, c in chats],
        "active": [await store.active_game(p, c) for p, c in chats],
        "engine games": await store.engine_games(),
        "settings": [await store.get_channel_settings(p, c) for p, c in chats],
        "puzzles": [await store.get_puzzle(i) for i in ("p1", "p2")],
        "subscriptions": await store.subscriptions(),
        "posts": [await store.get_post(i) for i in ids["posts"]],
        "posted": [await store.posted_puzzle_ids(p, c) for p, c in chats],
        "attempts": [await store.get_attempt(post, player) for post in ids["posts"] for player in ids["players"]],
        "progress": [await store.get_progress(post, player) for post in ids["posts"] for player in ids["players"]],
        "streak": await store.get_streak("line", "C1", ids["carol"]),
        "leaderboard": [await store.puzzle_leaderboard(p, c) for p, c in chats],
        "daily board": await store.puzzle_leaderboard("line", "C1", local_date=date(2026, 11, 30)),
        "pending": [await store.pending_notices(p, c) for p, c in chats],
        "due": [await store.due_notices(p, later) for p in ("discord", "line")],
        "notice counts": await store.notice_counts(),
    }


@pytest.fixture
async def source(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """The SQLite file to move (the shared `storage` fixture runs on every backend)."""
    async with await open_storage(db_path, clock=clock) as opened:
        yield opened


@pytest.fixture
async def filled(source: Storage, clock: FakeClock) -> dict[str, Any]:
    return await fill(source, clock)


async def test_everything_reads_back_equal(
    source: Storage, db_path: Path, pg_url: str, clock: FakeClock, filled: dict[str, Any]
) -> None:
    report = await transfer(db_path, pg_url, batch=2)  # several batches per table

    assert {t.table for t in report.tables} == sqlite_tables(db_path)
    for table in report.tables:
        assert table.source == table.inserted == table.target, table
        assert (table.updated, table.removed) == (0, 0), table
    assert report.copied == sum(t.source for t in report.tables) > 30
    async with await open_storage(pg_url, clock=clock) as pg:
        assert await contents(pg, filled, clock) == await contents(source, filled, clock)
        assert (await pg.get_channel_settings("discord", "chan-1")).notation == "playok"
        assert [g.id for g in await pg.channel_games("discord", "chan-1")] == [filled["games"][0]]
        assert not await pg.mark_event_processed("event-1")  # seen before the move
        assert await pg.claim(["game:1"], "host-b", until=clock.now + timedelta(minutes=1)) == set()


async def test_tables_are_copied_parents_first(
    source: Storage, db_path: Path, pg_url: str, filled: dict[str, Any]
) -> None:
    report = await transfer(db_path, pg_url)
    order = [t.table for t in report.tables]
    assert sorted(order) == sorted(sqlite_tables(db_path))
    with sqlite3.connect(db_path) as conn:
        for table in order:
            for fk in conn.execute(f"PRAGMA foreign_key_list({table})"):
                assert order.index(fk[2]) < order.index(table), (fk[2], table)


async def test_a_second_run_copies_nothing_and_writes_nothing(
    source: Storage, db_path: Path, pg_url: str, filled: dict[str, Any]
) -> None:
    first = await transfer(db_path, pg_url)
    before = await row_versions(pg_url, [t.table for t in first.tables])

    second = await transfer(db_path, pg_url)

    assert second.copied == 0
    assert all(t.removed == 0 for t in second.tables)
    assert [(t.table, t.source, t.target) for t in second.tables] == [
        (t.table, t.source, t.target) for t in first.tables
    ]
    assert await row_versions(pg_url, [t.table for t in first.tables]) == before


async def test_changes_made_in_the_source_meanwhile_reach_the_target(
    source: Storage, db_path: Path, pg_url: str, clock: FakeClock, filled: dict[str, Any]
) -> None:
    await transfer(db_path, pg_url)
    _, active_id, challenge_id, _ = filled["games"]
    active = await source.get_game(active_id)
    await source.undo_moves(active.id, active.version, 2, GameChanges(takeback_offer=None))  # a take-back
    challenge = await source.get_game(challenge_id)
    await source.update_game(challenge.id, challenge.version, GameChanges(status="aborted", reason="expired"))
    dave = await source.get_or_create_player("discord", "400", "Dave")
    await source.update_player(filled["bob"], display_name="Bobby")
    await source.update_ratings([  # a changed Makruk rating, a first Sittuyin one
        RatingUpdate.after_game(await source.get_rating(filled["alice"], "makruk"), 1630.0, 280.0, 0.0599),
        RatingUpdate.after_game(await source.get_rating(filled["bob"], "sittuyin"), 1500.5, 300.0, 0.06),
    ])
    await source.set_channel_settings(ChannelSettings("line", "C1", language="en", notation="thai"))
    await source.mark_notices_sent(["later-1", "reply-1"])
    await source.prune_events(clock.now + timedelta(days=1))  # deletions elsewhere are not repeated

    report = await transfer(db_path, pg_url)

    counts = {t.table: t for t in report.tables}
    assert (counts["moves"].removed, counts["moves"].target) == (2, 5)  # the live game keeps its one
    assert counts["games"].updated == 2 and counts["games"].inserted == 0
    assert (counts["players"].inserted, counts["players"].updated) == (1, 1)
    assert (counts["ratings"].inserted, counts["ratings"].updated) == (1, 1)
    assert counts["outbox"].updated == 2
    assert counts["channel_settings"].updated == 1
    assert (counts["processed_events"].source, counts["processed_events"].target) == (0, 1)
    ids = {**filled, "players": [*filled["players"], dave.id]}
    async with await open_storage(pg_url, clock=clock) as pg:
        assert await contents(pg, ids, clock) == await contents(source, ids, clock)
        assert len((await pg.get_game(active_id)).moves) == 1
        assert (await pg.get_channel_settings("line", "C1")).notation == "thai"


async def test_new_rows_in_postgres_get_ids_above_the_copied_ones(
    source: Storage, db_path: Path, pg_url: str, clock: FakeClock, filled: dict[str, Any]
) -> None:
    await transfer(db_path, pg_url)
    async with await open_storage(pg_url, clock=clock) as pg:
        player = await pg.get_or_create_player("discord", "500", "Erin")
        game = await pg.create_game(
            NewGame(platform="discord", channel="chan-9", white=Seat.human(player.id), black=Seat.engine(1),
                    start_fen=START_FEN, promotion="forced", perpetual="forbid", move_seconds=60, status="active"),
            notices=[NewNotice("discord", "chan-9", "new-1", "bot_move", "{}")],
        )
        subscription = await pg.subscribe("discord", "chan-9", time(8, 0), "UTC")
        post = await pg.record_extra_post("discord", "chan-9", "p1")
        notice = (await pg.pending_notices("discord", "chan-9"))[0]
    with sqlite3.connect(db_path) as conn:
        copied = {t: conn.execute(f"SELECT max(id) FROM {t}").fetchone()[0]
                  for t in ("players", "games", "subscriptions", "puzzle_posts", "outbox")}
    assert player.id == copied["players"] + 1
    assert game.id == copied["games"] + 1
    assert subscription.id == copied["subscriptions"] + 1
    assert post.id == copied["puzzle_posts"] + 1
    assert notice.id == copied["outbox"] + 1


async def test_a_target_without_a_table_or_column_is_refused_untouched(
    source: Storage, db_path: Path, pg_url: str, filled: dict[str, Any]
) -> None:
    async with await open_storage(pg_url):
        pass
    await pg_execute(pg_url, "ALTER TABLE games DROP COLUMN reason; DROP TABLE leases")

    with pytest.raises(TransferError) as refused:
        await transfer(db_path, pg_url)

    assert "column games.reason is missing" in str(refused.value)
    assert "table leases is missing" in str(refused.value)
    assert await pg_fetchval(pg_url, "SELECT count(*) FROM players") == 0


async def test_a_target_that_loses_rows_fails_and_keeps_nothing(
    source: Storage, db_path: Path, pg_url: str, filled: dict[str, Any]
) -> None:
    async with await open_storage(pg_url):
        pass
    await pg_execute(pg_url, """
        CREATE FUNCTION drop_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
        CREATE TRIGGER drop_events BEFORE INSERT ON processed_events FOR EACH ROW EXECUTE FUNCTION drop_row();
    """)

    with pytest.raises(TransferError, match=r"fewer rows than the source: processed_events \(0 of 1\)") as failed:
        await transfer(db_path, pg_url)

    assert failed.value.report is not None
    assert [t.table for t in failed.value.report.short] == ["processed_events"]
    assert await pg_fetchval(pg_url, "SELECT count(*) FROM games") == 0  # rolled back whole


async def test_a_value_that_does_not_fit_is_named(
    source: Storage, db_path: Path, pg_url: str, filled: dict[str, Any]
) -> None:
    with sqlite3.connect(db_path) as conn:  # a flag that SQLite's CHECK would refuse, but older files...
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("UPDATE games SET reminded = 2 WHERE id = ?", (filled["games"][0],))

    with pytest.raises(TransferError, match=r"games\.reminded = 2 \(id=1\) does not fit boolean"):
        await transfer(db_path, pg_url)


async def test_an_old_source_is_upgraded_in_place_first(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate.upgrade(conn, str(path), target=4)
    conn.execute("INSERT INTO processed_events (event_id, at) VALUES ('e1', '2026-11-30T09:00:00.000000Z')")
    conn.close()

    report = await transfer(path, pg_url)

    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == migrate.latest_version()
    assert {"outbox", "leases"} <= {t.table for t in report.tables}
    assert await pg_fetchval(pg_url, "SELECT at FROM processed_events") == datetime(2026, 11, 30, 9, tzinfo=UTC)


async def test_where_from_and_where_to_are_checked(tmp_path: Path, pg_url: str) -> None:
    missing = tmp_path / "missing.db"
    with pytest.raises(TransferError, match="no SQLite database at"):
        await transfer(missing, pg_url)
    assert not missing.exists()  # not created by the attempt
    with pytest.raises(TransferError, match="must be a postgresql:// URL"):
        await transfer(missing, str(tmp_path / "other.db"))
    with pytest.raises(TransferError, match="source must be a SQLite file"):
        await transfer(pg_url, pg_url)


def test_the_report_is_a_small_table() -> None:
    from storage.transfer import TableCount

    report = TransferReport((TableCount("players", 12, 2, 1, 0, 12), TableCount("moves", 1500, 0, 0, 3, 1500)))
    assert report.lines() == [
        "table    source  new  updated  removed  target",
        "players      12    2        1        0      12",
        "moves      1500    0        0        3    1500",
        "total      1512    2        1        3    1512",
    ]
    assert str(report) == "\n".join(report.lines())
    assert report.copied == 3 and report.short == ()


def sqlite_tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
        return {row[0] for row in rows}


async def row_versions(url: str, tables: list[str]) -> dict[str, list[tuple[str, str]]]:
    """Each row's place and the transaction that wrote it: equal only if nothing was rewritten."""
    conn = await asyncpg.connect(url)
    try:
        return {t: [tuple(r) for r in await conn.fetch(f'SELECT ctid::text, xmin::text FROM "{t}" ORDER BY ctid')]
                for t in tables}
    finally:
        await conn.close()


async def pg_execute(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def pg_fetchval(url: str, sql: str) -> Any:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()
