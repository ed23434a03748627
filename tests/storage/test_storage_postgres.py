"""PostgreSQL itself: the schema and its migrations, refusing foreign or newer databases,
connection errors, and what several processes (several pools) do at once.

Everything else about PostgresStorage is tested by the backend-neutral storage tests."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest

from storage import (
    ChannelSettings,
    GameChanges,
    IncompatibleDatabase,
    NewGame,
    NewMove,
    NewNotice,
    PlayerRating,
    PostgresStorage,
    Seat,
    StorageError,
    open_storage,
)
from storage import _migrations as history
from storage.postgres import migrate as pg_migrate
from storage.postgres._sql import drive
from storage.queries.outbox import insert_notices

from ..pgserver import PgServer, free_port
from .storage_helpers import START_FEN, FakeClock


def notice(key: str, channel: str) -> NewNotice:
    return NewNotice("line", channel, key, "bot_move", "{}")


async def fetch(url: str, sql: str, *args: object) -> list[tuple[object, ...]]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def execute(url: str, sql: str, *args: object) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql, *args)
    finally:
        await conn.close()


async def columns_of(url: str) -> dict[str, list[tuple[str, str]]]:
    rows = await fetch(
        url,
        """SELECT table_name, column_name, data_type FROM information_schema.columns
           WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position""",
    )
    tables: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in rows:
        tables.setdefault(str(table), []).append((str(column), str(kind)))
    return tables


async def schema_of(url: str) -> list[tuple[object, ...]]:
    """Tables, columns, indexes and the schema version: what a refused open must leave alone."""
    return sorted(
        await fetch(url, "SELECT table_name, column_name FROM information_schema.columns"
                         " WHERE table_schema = current_schema()")
        + await fetch(url, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"),
        key=repr,
    )


async def legacy_database(url: str, version: int) -> None:
    """A database as a release of PostgreSQL's former numbering left it at `version`: the one
    history up to version + 5, the same schema (test_one_history.py), kept the way it was then."""
    conn = await asyncpg.connect(url)
    try:
        made = await pg_migrate.upgrade(conn, "test", target=version + history.LEGACY_POSTGRES_OFFSET)
        assert made.after == version + history.LEGACY_POSTGRES_OFFSET
        await conn.execute("ALTER TABLE schema_version DROP COLUMN legacy_version")
        await conn.execute("UPDATE schema_version SET version = $1", version)
    finally:
        await conn.close()


# Schema and migrations


async def test_a_new_database_gets_the_latest_schema(pg_url: str) -> None:
    async with await open_storage(pg_url) as storage:
        assert isinstance(storage, PostgresStorage)
    assert await fetch(pg_url, "SELECT application, version, legacy_version FROM schema_version") == [
        ("makruk-bot", history.latest_version(), None)
    ]
    schema = await schema_of(pg_url)
    async with await open_storage(pg_url) as storage:
        await storage.get_or_create_player("console", "me", "Me")
    assert await schema_of(pg_url) == schema  # reopening changes nothing


async def test_the_tables_and_columns_are_sqlite_s_so_data_can_be_copied(
    pg_url: str, tmp_path: Path
) -> None:
    async with await open_storage(pg_url):
        pass
    async with await open_storage(tmp_path / "same.db"):
        pass
    conn = sqlite3.connect(tmp_path / "same.db")
    try:
        sqlite_tables = {
            table: [column for _, column, *_ in conn.execute(f"PRAGMA table_info({table})")]
            for (table,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
        }
    finally:
        conn.close()
    pg_tables = {
        table: [column for column, _ in columns]
        for table, columns in (await columns_of(pg_url)).items()
        if table != "schema_version"  # PRAGMA user_version and application_id in SQLite
    }
    assert pg_tables == sqlite_tables


async def test_columns_have_postgresql_types(pg_url: str) -> None:
    async with await open_storage(pg_url):
        pass
    tables = {table: dict(columns) for table, columns in (await columns_of(pg_url)).items()}
    assert tables["games"]["id"] == "bigint"
    assert tables["games"]["created"] == "timestamp with time zone"
    assert tables["games"]["rated"] == "boolean"
    assert tables["games"]["black_present"] == "boolean"
    assert tables["games"]["counting"] == "json"
    assert tables["outbox"]["payload"] == "json"
    assert tables["ratings"]["rating"] == "double precision"
    assert tables["subscriptions"]["local_time"] == "time without time zone"
    assert tables["puzzle_posts"]["local_date"] == "date"
    assert tables["leases"]["until"] == "timestamp with time zone"


@pytest.mark.parametrize("legacy", range(1, 6))
async def test_a_database_of_the_former_numbering_is_adopted_and_upgraded(pg_url: str, legacy: int) -> None:
    await legacy_database(pg_url, legacy)
    await execute(pg_url, "INSERT INTO leases VALUES ('game:1', 'old-process', now() + interval '1 hour')")
    async with await open_storage(pg_url) as storage:
        assert await storage.lease_holders("old-") == {"old-process"}
    assert await fetch(pg_url, "SELECT application, version, legacy_version FROM schema_version") == [
        ("makruk-bot", history.latest_version(), legacy)
    ]
    # What a release of the former numbering reads: one row of ours, newer than the 5 it knows.
    assert await fetch(pg_url, "SELECT application, version FROM schema_version") == [
        ("makruk-bot", history.latest_version())
    ]
    assert history.latest_version() > 5


async def test_an_upgrade_keeps_ratings_as_makruk_ratings(pg_url: str) -> None:
    await legacy_database(pg_url, 2)  # before ratings per variant
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute(
            """INSERT INTO players (platform, user_id, display_name, rating, deviation, volatility,
                   games_played, created, updated)
               VALUES ('line', 'U1', 'Old Timer', 1620.5, 80.25, 0.0601, 12, now(), now())"""
        )
    finally:
        await conn.close()
    async with await open_storage(pg_url) as storage:
        kept = await storage.find_player("line", "U1")
        assert kept is not None and kept.display_name == "Old Timer"
        assert await storage.get_rating(kept.id, "makruk") == PlayerRating(kept.id, "makruk", 1620.5, 80.25, 0.0601, 12)
        assert await storage.get_rating(kept.id, "sittuyin") == PlayerRating.initial(kept.id, "sittuyin")
        assert [s.player.id for s in await storage.top_players("line", "makruk")] == [kept.id]
    assert await fetch(pg_url, "SELECT version FROM schema_version") == [(history.latest_version(),)]
    players = dict((await columns_of(pg_url))["players"])
    assert "rating" not in players and "games_played" not in players  # only in `ratings` now


async def test_an_upgrade_keeps_settings_with_the_default_notation(pg_url: str) -> None:
    await legacy_database(pg_url, 3)  # before notation and archive
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute(
            """INSERT INTO channel_settings (platform, channel, language, promotion, perpetual,
                   move_seconds, coordinates, orientation, push_notices, updated)
               VALUES ('line', 'Cgroup', 'th', 'optional', 'draw', 600, 'thai', 'mover', false, now())"""
        )
        for status, result in (("finished", "1-0"), ("aborted", None), ("finished", "0-1"), ("active", None)):
            await conn.execute(  # games played before the upgrade are in the archive
                """INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds,
                       white_engine, black_engine, rated, start_fen, status, result, created, updated)
                   VALUES ('line', 'Cgroup', 'makruk', 'forced', 'forbid', 0, 1, 2, false, '', $1, $2,
                       now(), now())""",
                status, result,
            )
    finally:
        await conn.close()
    async with await open_storage(pg_url) as storage:
        settings = await storage.get_channel_settings("line", "Cgroup")
        assert settings == ChannelSettings(
            "line", "Cgroup", "th", "optional", "draw", 600, "thai", "mover", push_notices=False
        )
        assert settings.notation is None  # the bot's default
        assert [(g.id, g.result) for g in await storage.channel_games("line", "Cgroup")] == [(3, "0-1"), (1, "1-0")]
        await storage.set_channel_settings(replace(settings, notation="thai"))
        assert await storage.get_channel_settings("line", "Cgroup") == replace(settings, notation="thai")
    assert await fetch(pg_url, "SELECT version FROM schema_version") == [(history.latest_version(),)]


async def test_an_upgrade_from_0013_keeps_games_with_black_not_marked_present(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        await pg_migrate.upgrade(conn, "test", target=13)  # before games.black_present
        await conn.execute(
            """INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds,
                   white_engine, black_engine, rated, start_fen, status, created, updated)
               VALUES ('line', 'Cgroup', 'makruk', 'forced', 'forbid', 600, 1, 2, false, '', 'active', now(), now())""")
    finally:
        await conn.close()
    async with await open_storage(pg_url) as storage:
        game = await storage.get_game(1)
        assert game.black_present is False
        game = await storage.update_game(1, game.version, GameChanges(black_present=True))
        assert (await storage.get_game(1)).black_present is True is game.black_present
    assert await fetch(pg_url, "SELECT black_present FROM games") == [(True,)]
    with pytest.raises(asyncpg.NotNullViolationError):
        await execute(pg_url, "UPDATE games SET black_present = NULL")
    assert await fetch(pg_url, "SELECT version FROM schema_version") == [(history.latest_version(),)]


async def test_a_page_of_the_archive_can_read_the_finished_games_index(pg_url: str) -> None:
    async with await open_storage(pg_url):
        pass
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("SET enable_seqscan = off")  # an empty table would be scanned anyway
        plan = "\n".join(
            row[0] for row in await conn.fetch(
                """EXPLAIN SELECT * FROM games
                   WHERE platform = $1 AND channel = $2 AND status = 'finished' AND id < $3
                   ORDER BY id DESC LIMIT $4""",
                "line", "Cgroup", 100, 10,
            )
        )
    finally:
        await conn.close()
    assert "Index Scan Backward using games_finished_per_channel" in plan, plan


async def test_concurrent_first_starts_migrate_once(pg_url: str) -> None:
    opened = await asyncio.gather(*(open_storage(pg_url) for _ in range(4)))
    for storage in opened:
        await storage.close()
    assert await fetch(pg_url, "SELECT version FROM schema_version") == [(history.latest_version(),)]


async def test_a_failing_migration_is_rolled_back_whole(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await open_storage(pg_url):
        pass
    broken = history.Migration(
        history.latest_version() + 1, "broken", "CREATE TABLE half (a int); SELECT * FROM nowhere;"
    )
    monkeypatch.setattr(history, "MIGRATIONS", (*history.MIGRATIONS, broken))
    with pytest.raises(StorageError, match="nowhere"):
        await open_storage(pg_url)
    monkeypatch.undo()
    assert await fetch(pg_url, "SELECT version FROM schema_version") == [(history.latest_version(),)]
    assert await fetch(pg_url, "SELECT to_regclass('half')") == [(None,)]


async def test_a_newer_database_is_refused_untouched(pg_url: str) -> None:
    async with await open_storage(pg_url):
        pass
    await execute(pg_url, "UPDATE schema_version SET version = version + 1")
    schema = await schema_of(pg_url)
    with pytest.raises(IncompatibleDatabase, match="newer than this code") as refused:
        await open_storage(pg_url)
    assert "newer release" in str(refused.value)
    assert await schema_of(pg_url) == schema


async def test_another_application_s_database_is_refused_untouched(pg_url: str) -> None:
    await execute(pg_url, "CREATE TABLE notes (id serial PRIMARY KEY, body text)")
    await execute(pg_url, "INSERT INTO notes (body) VALUES ('someone else''s data')")
    schema = await schema_of(pg_url)
    with pytest.raises(IncompatibleDatabase, match="another application") as refused:
        await open_storage(pg_url)
    assert "DATABASE_URL" in str(refused.value)
    assert await schema_of(pg_url) == schema
    assert await fetch(pg_url, "SELECT body FROM notes") == [("someone else's data",)]


async def test_a_schema_version_of_another_application_is_refused(pg_url: str) -> None:
    await execute(pg_url, "CREATE TABLE schema_version (application text, version integer)")
    await execute(pg_url, "INSERT INTO schema_version VALUES ('wiki', 3)")
    with pytest.raises(IncompatibleDatabase, match="not this application"):
        await open_storage(pg_url)


# Connections


async def test_no_server_is_a_storage_error_without_the_password() -> None:
    url = f"postgresql://bot:s3cret@127.0.0.1:{free_port()}/makruk"
    with pytest.raises(StorageError, match="cannot connect") as failed:
        await open_storage(url)
    assert "s3cret" not in str(failed.value) and "bot:***@" in str(failed.value)
    assert not isinstance(failed.value, asyncpg.PostgresError | OSError)


async def test_a_missing_database_is_a_storage_error(pg_server: PgServer) -> None:
    with pytest.raises(StorageError, match="cannot connect"):
        await open_storage(pg_server.url("no_such_database"))


async def test_the_postgres_scheme_names_postgresql_too(pg_url: str) -> None:
    async with await open_storage(pg_url.replace("postgresql://", "postgres://", 1)) as storage:
        assert isinstance(storage, PostgresStorage)


async def test_a_connection_lost_mid_call_is_a_storage_error_and_the_pool_recovers(
    pg_url: str, clock: FakeClock
) -> None:
    async with await open_storage(pg_url, clock=clock, pool_size=1) as storage:
        me = await storage.get_or_create_player("console", "me", "Me")
        other = await asyncpg.connect(pg_url)
        try:
            async with other.transaction():
                await other.execute("LOCK TABLE players IN EXCLUSIVE MODE")
                waiting = asyncio.create_task(storage.update_player(me.id, display_name="Ma"))
                await asyncio.sleep(0.2)
                await other.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
        finally:
            await other.close()
        with pytest.raises(StorageError) as lost:
            await waiting
        assert type(lost.value) is StorageError
        assert await storage.get_player(me.id) == me


async def test_a_closed_storage_raises_storage_error(pg_url: str) -> None:
    storage = await open_storage(pg_url)
    await storage.close()
    with pytest.raises(StorageError):
        await storage.find_player("console", "me")


# Several processes at once


async def test_one_open_game_per_channel_is_enforced_by_the_database(
    pg_url: str, clock: FakeClock
) -> None:
    async with await open_storage(pg_url, clock=clock) as storage:
        await storage.mark_event_processed("schema is there")
    await execute(
        pg_url,
        """INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds,
               rated, start_fen, status, created, updated)
           VALUES ('line', 'C1', 'makruk', 'forced', 'forbid', 60, false, 'fen', 'challenge', now(), now())""",
    )
    with pytest.raises(asyncpg.UniqueViolationError, match="games_open_per_channel"):
        await execute(
            pg_url,
            """INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds,
                   rated, start_fen, status, created, updated)
               SELECT platform, channel, variant, promotion, perpetual, move_seconds, rated,
                   start_fen, 'challenge', created, updated FROM games""",
        )


async def test_an_event_id_is_new_to_exactly_one_of_several_processes(
    pg_url: str, clock: FakeClock
) -> None:
    stores = [await open_storage(pg_url, clock=clock) for _ in range(3)]
    try:
        seen = await asyncio.gather(
            *(stores[i % 3].mark_event_processed(f"evt-{i % 5}") for i in range(30))
        )
    finally:
        for store in stores:
            await store.close()
    assert sum(seen) == 5


async def test_a_notice_never_overtakes_an_earlier_one_still_being_written(
    pg_url: str, clock: FakeClock
) -> None:
    """Ids are handed out at insert, not at commit: while another process's transaction has
    written a chat's notice but not committed it, a later notice of that chat waits, or the
    deliverer would send the later one first. Other chats do not wait."""
    async with await open_storage(pg_url, clock=clock) as storage:
        writer = await asyncpg.connect(pg_url)
        try:
            async with writer.transaction():
                await drive(writer, insert_notices([notice("first", "C1")], clock.now))
                later = asyncio.create_task(storage.add_notices([notice("second", "C1")]))
                await storage.add_notices([notice("elsewhere", "C2")])  # not held up
                await asyncio.sleep(0.3)
                assert not later.done()
                assert [n.key for n in await storage.due_notices("line", clock.now)] == ["elsewhere"]
            await later
        finally:
            await writer.close()
        due = await storage.due_notices("line", clock.now)
        assert [n.key for n in due] == ["first", "elsewhere"]  # "second" waits behind "first"
        assert [n.key for n in await storage.pending_notices("line", "C1")] == ["first", "second"]


async def test_moves_race_across_pools_without_a_move_cache(pg_url: str, clock: FakeClock) -> None:
    """Without cached move lists every append takes the transaction path: the ply is read
    after the compare-and-set, and still exactly one append wins each version."""
    stores = [await open_storage(pg_url, clock=clock, move_cache=0) for _ in range(3)]
    try:
        me = await stores[0].get_or_create_player("console", "me", "Me")
        game = await stores[0].create_game(NewGame(
            platform="console", channel="tty", white=Seat.human(me.id), black=Seat.engine(1),
            start_fen=START_FEN, promotion="forced", perpetual="forbid", move_seconds=0,
            status="active",
        ))
        for round_ in range(5):
            results = await asyncio.gather(
                *(stores[i % 3].append_move(game.id, game.version, NewMove(f"r{round_}m{i}", "x", "w"))
                  for i in range(30)),
                return_exceptions=True,
            )
            winners = [r for r in results if not isinstance(r, BaseException)]
            assert len(winners) == 1, results
            game = winners[0]
        assert [m.ply for m in game.moves] == [1, 2, 3, 4, 5]
        assert await stores[2].get_game(game.id) == game
    finally:
        for store in stores:
            await store.close()


async def test_a_move_is_one_round_trip(pg_url: str, clock: FakeClock) -> None:
    """The usual move (its game's moves cached) is one statement, with its changes and notice,
    and a connection goes back to the pool without a reset query."""
    async with await open_storage(pg_url, clock=clock, pool_size=1) as storage:
        assert isinstance(storage, PostgresStorage)
        me = await storage.get_or_create_player("console", "me", "Me")
        game = await storage.create_game(NewGame(
            platform="console", channel="tty", white=Seat.human(me.id), black=Seat.engine(1),
            start_fen=START_FEN, promotion="forced", perpetual="forbid", move_seconds=0,
            status="active",
        ))
        game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"),
                                         notices=[notice("warm-up", "tty")])
        queries: list[str] = []
        async with storage._pool.acquire() as conn:
            conn.add_query_logger(lambda record: queries.append(record.query))
        changes = GameChanges(deadline=clock.now, draw_offer=None)
        game = await storage.append_move(game.id, game.version, NewMove("d6d5", "d5", "b"), changes,
                                         notices=[notice("bot-move", "tty")])
        assert len(queries) == 1, queries
        assert await storage.active_game("console", "tty") == game
        assert len(queries) == 2, queries
