"""Start-up on SQLite: schema creation, upgrades from every earlier version (what was done said
in the log), refusal of foreign files."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from storage import (
    ChannelSettings,
    GameChanges,
    IncompatibleDatabase,
    NewNotice,
    NoticeCounts,
    PlayerRating,
    StorageError,
    migrate,
    open_storage,
)
from storage import _migrations as history


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT type, name, sql FROM sqlite_schema").fetchall())
    finally:
        conn.close()


def header(path: Path) -> tuple[int, int]:
    conn = sqlite3.connect(path)
    try:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        return app, conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_at_version(path: Path, version: int) -> None:
    """A database as an older release left it: migrated only up to `version`."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        assert migrate.upgrade(conn, str(path), target=version).after == version
        if version < 8:  # ratings in players' own columns
            conn.execute(
                """INSERT INTO players (platform, user_id, display_name, rating, deviation,
                       volatility, created, updated)
                   VALUES ('line', 'U1', 'Old Timer', 1620, 80, 0.06, '2025-01-01T00:00:00.000000Z',
                       '2025-01-01T00:00:00.000000Z')"""
            )
        else:
            conn.execute(
                """INSERT INTO players (platform, user_id, display_name, created, updated)
                   VALUES ('line', 'U1', 'Old Timer', '2025-01-01T00:00:00.000000Z',
                       '2025-01-01T00:00:00.000000Z')"""
            )
            speed = ("", "") if version < 11 else (", speed", ", 'correspondence'")  # 0011: per speed
            conn.execute(
                f"""INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games_played{speed[0]})
                    SELECT id, 'makruk', 1620, 80, 0.06, 0{speed[1]} FROM players"""
            )
    finally:
        conn.close()


def test_there_are_several_migrations_numbered_in_order() -> None:
    assert migrate.latest_version() == history.latest_version() >= 2
    assert [m.version for m in history.MIGRATIONS] == list(range(1, migrate.latest_version() + 1))


def test_the_first_migration_stamps_the_application_id(db_path: Path) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        assert migrate.upgrade(conn, str(db_path), target=1).after == 1
    finally:
        conn.close()
    assert header(db_path) == (migrate.APPLICATION_ID, 1)


async def test_new_file_gets_the_latest_schema_and_journal_settings(db_path: Path) -> None:
    async with await open_storage(db_path) as storage:
        db = storage._db
        assert (await (await db.execute("PRAGMA journal_mode")).fetchone()) == ("wal",)
        assert (await (await db.execute("PRAGMA synchronous")).fetchone()) == (2,)  # FULL
        assert (await (await db.execute("PRAGMA foreign_keys")).fetchone()) == (1,)
        assert (await (await db.execute("PRAGMA busy_timeout")).fetchone()) == (5000,)
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())


async def test_empty_file_is_treated_as_new(db_path: Path) -> None:
    db_path.write_bytes(b"")
    async with await open_storage(db_path):
        pass
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())


async def test_missing_parent_directory_is_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "deeper" / "makruk.db"
    async with await open_storage(path):
        pass
    assert path.exists()


async def test_reopening_keeps_data_and_changes_nothing(db_path: Path) -> None:
    async with await open_storage(db_path) as storage:
        await storage.get_or_create_player("console", "me", "Me")
    schema = schema_of(db_path)
    async with await open_storage(db_path) as storage:
        assert await storage.find_player("console", "me") is not None
    assert schema_of(db_path) == schema


@pytest.mark.parametrize("version", range(1, migrate.latest_version()))
async def test_upgrade_from_every_earlier_version(tmp_path: Path, version: int) -> None:
    fresh = tmp_path / "fresh.db"
    async with await open_storage(fresh):
        pass
    old = tmp_path / "old.db"
    build_at_version(old, version)
    assert header(old) == (migrate.APPLICATION_ID, version)

    async with await open_storage(old) as storage:
        kept = await storage.find_player("line", "U1")
        assert kept is not None
        assert await storage.get_rating(kept.id, "makruk") == PlayerRating(kept.id, "makruk", 1620, 80, 0.06, 0)
        assert await storage.mark_event_processed("after-upgrade")  # newest table works
    assert header(old) == (migrate.APPLICATION_ID, migrate.latest_version())
    assert schema_of(old) == schema_of(fresh)


async def test_upgrade_from_0004_adds_the_outbox_and_keeps_settings(db_path: Path) -> None:
    build_at_version(db_path, 4)
    conn = sqlite3.connect(db_path)
    conn.execute(
        """INSERT INTO channel_settings (platform, channel, language, move_seconds, updated)
           VALUES ('line', 'Cgroup', 'th', 600, '2025-01-01T00:00:00.000000Z')"""
    )
    conn.commit()
    conn.close()

    async with await open_storage(db_path) as storage:
        settings = await storage.get_channel_settings("line", "Cgroup")
        assert settings == ChannelSettings("line", "Cgroup", "th", move_seconds=600)
        assert settings.push_notices is None  # None: on
        assert await storage.notice_counts() == NoticeCounts(pending=0, dead=0)
        await storage.add_notices([NewNotice("line", "Cgroup", "k1", "reply", "{}")])
        assert [n.key for n in await storage.pending_notices("line", "Cgroup")] == ["k1"]
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())


async def test_upgrade_from_0007_keeps_ratings_as_makruk_ratings(db_path: Path) -> None:
    build_at_version(db_path, 7)
    conn = sqlite3.connect(db_path)
    conn.execute(
        """INSERT INTO players (platform, user_id, display_name, rating, deviation, volatility,
               games_played, created, updated)
           VALUES ('discord', '42', 'Regular', 1712.5, 64.25, 0.0588, 37,
               '2025-01-01T00:00:00.000000Z', '2025-06-01T00:00:00.000000Z')"""
    )
    conn.commit()
    conn.close()

    async with await open_storage(db_path) as storage:
        regular = await storage.find_player("discord", "42")
        assert regular is not None and regular.display_name == "Regular"
        assert await storage.get_rating(regular.id, "makruk") == PlayerRating(
            regular.id, "makruk", 1712.5, 64.25, 0.0588, 37
        )
        assert await storage.get_rating(regular.id, "sittuyin") == PlayerRating.initial(regular.id, "sittuyin")
        top = await storage.top_players("discord", "makruk")
        assert [(s.player.display_name, s.rating.games_played) for s in top] == [("Regular", 37)]
        assert await storage.top_players("discord", "sittuyin") == []
    conn = sqlite3.connect(db_path)
    try:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(players)")]
    finally:
        conn.close()
    assert "rating" not in columns and "games_played" not in columns  # only in `ratings` now


async def test_upgrade_from_0010_keeps_ratings_as_correspondence_ratings_and_games_without_clocks(
    db_path: Path,
) -> None:
    build_at_version(db_path, 10)
    conn = sqlite3.connect(db_path)
    regular = conn.execute(
        """INSERT INTO players (platform, user_id, display_name, language, created, updated)
           VALUES ('discord', '42', 'Regular', NULL, '2025-01-01T00:00:00.000000Z', '2025-06-01T00:00:00.000000Z')"""
    ).lastrowid
    assert regular is not None
    conn.execute(
        """INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games_played)
           VALUES (?, 'makruk', 1712.5, 64.25, 0.0588, 37), (?, 'sittuyin', 1400.0, 200.0, 0.06, 3)""",
        (regular, regular),
    )
    conn.execute(
        """INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds,
               white_engine, black_engine, rated, start_fen, status, created, updated)
           VALUES ('line', 'Cgroup', 'makruk', 'forced', 'forbid', 600, 1, 2, 0, '', 'active',
               '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z')"""
    )
    conn.commit()
    conn.close()

    async with await open_storage(db_path) as storage:
        assert await storage.get_rating(regular, "makruk") == PlayerRating(regular, "makruk", 1712.5, 64.25, 0.0588, 37)
        assert (await storage.get_rating(regular, "sittuyin", "correspondence")).games_played == 3
        assert await storage.get_rating(regular, "makruk", "live") == PlayerRating.initial(regular, "makruk", "live")
        assert await storage.top_players("discord", "makruk", speed="live") == []
        top = await storage.top_players("discord", "makruk")
        assert [(s.player.id, s.rating.speed) for s in top] == [(regular, "correspondence")]
        game = await storage.get_game(1)
        assert game.time_control is None and game.clocks is None and game.speed == "correspondence"
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())


async def test_upgrade_from_0013_keeps_games_with_black_not_marked_present(db_path: Path) -> None:
    build_at_version(db_path, 13)
    conn = sqlite3.connect(db_path)
    conn.execute(
        """INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds,
               white_engine, black_engine, rated, start_fen, status, created, updated)
           VALUES ('line', 'Cgroup', 'makruk', 'forced', 'forbid', 600, 1, 2, 0, '', 'active',
               '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z')"""
    )
    conn.commit()
    conn.close()

    async with await open_storage(db_path) as storage:
        game = await storage.get_game(1)
        assert game.black_present is False and game.berserk is None
        game = await storage.update_game(1, game.version, GameChanges(black_present=True))
        assert (await storage.get_game(1)).black_present is True is game.black_present
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("SELECT black_present FROM games WHERE id = 1").fetchone() == (1,)
        for value in (2, "b", None):  # a flag, 0 or 1, never unknown
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute("UPDATE games SET black_present = ? WHERE id = 1", (value,))
    finally:
        conn.close()
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())


def test_an_upgrade_says_from_which_version_to_which_by_which_migrations(db_path: Path) -> None:
    build_at_version(db_path, 7)
    latest = migrate.latest_version()
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        done = migrate.upgrade(conn, str(db_path))
        assert done == history.Upgrade(str(db_path), 7, latest, history.MIGRATIONS[7:])
        assert str(done).startswith(
            f"upgraded the database {db_path} from version 7 to {latest} (migrations 0008_ratings, 0009_")
        assert migrate.upgrade(conn, str(db_path)) == history.Upgrade(str(db_path), latest, latest)
    finally:
        conn.close()


async def test_upgrade_from_0008_keeps_settings_with_the_default_notation(db_path: Path) -> None:
    build_at_version(db_path, 8)
    conn = sqlite3.connect(db_path)
    conn.execute(
        """INSERT INTO channel_settings (platform, channel, language, promotion, perpetual,
               move_seconds, coordinates, orientation, push_notices, updated)
           VALUES ('line', 'Cgroup', 'th', 'optional', 'draw', 600, 'thai', 'mover', 0,
               '2025-01-01T00:00:00.000000Z')"""
    )
    for status, result in (("finished", "1-0"), ("aborted", None), ("finished", "0-1"), ("active", None)):
        conn.execute(  # games played before the upgrade are in the archive
            """INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds,
                   white_engine, black_engine, rated, start_fen, status, result, created, updated)
               VALUES ('line', 'Cgroup', 'makruk', 'forced', 'forbid', 0, 1, 2, 0, '', ?, ?,
                   '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z')""",
            (status, result),
        )
    conn.commit()
    conn.close()

    async with await open_storage(db_path) as storage:
        settings = await storage.get_channel_settings("line", "Cgroup")
        assert settings == ChannelSettings(
            "line", "Cgroup", "th", "optional", "draw", 600, "thai", "mover", push_notices=False
        )
        assert settings.notation is None  # the bot's default
        assert [(g.id, g.result) for g in await storage.channel_games("line", "Cgroup")] == [(3, "0-1"), (1, "1-0")]
        await storage.set_channel_settings(replace(settings, notation="thai"))
        assert await storage.get_channel_settings("line", "Cgroup") == replace(settings, notation="thai")
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())


async def test_two_processes_worth_of_openers_migrate_once(db_path: Path) -> None:
    first, second = await asyncio.gather(open_storage(db_path), open_storage(db_path))
    await first.close()
    await second.close()
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())


async def test_a_failing_migration_is_rolled_back_whole(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await open_storage(db_path):
        pass
    broken = history.Migration(
        migrate.latest_version() + 1, "broken", "CREATE TABLE half (a);\nSELECT * FROM nowhere;\n"
    )
    monkeypatch.setattr(history, "MIGRATIONS", (*history.MIGRATIONS, broken))
    with pytest.raises(StorageError, match="nowhere"):
        await open_storage(db_path)
    monkeypatch.undo()
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version())
    assert "half" not in {name for _, name, _ in schema_of(db_path)}


def test_foreign_sqlite_database_is_refused_untouched(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('someone else''s data')")
    conn.commit()
    conn.close()
    before = digest(db_path)

    with pytest.raises(IncompatibleDatabase, match="another application") as refused:
        asyncio.run(open_storage(db_path))
    assert "DATABASE_PATH" in str(refused.value)
    assert digest(db_path) == before


def test_foreign_database_without_tables_but_with_a_version_is_refused(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    before = digest(db_path)
    with pytest.raises(IncompatibleDatabase, match="another application"):
        asyncio.run(open_storage(db_path))
    assert digest(db_path) == before


def test_non_sqlite_file_is_refused_untouched(db_path: Path) -> None:
    db_path.write_bytes(b"name,rating\nsomchai,1500\n" * 100)
    before = digest(db_path)
    with pytest.raises(IncompatibleDatabase, match="not a SQLite database"):
        asyncio.run(open_storage(db_path))
    assert digest(db_path) == before


def test_newer_database_is_refused_untouched(db_path: Path) -> None:
    asyncio.run(_create_and_close(db_path))
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {migrate.latest_version() + 1}")
    conn.close()
    before = digest(db_path)

    with pytest.raises(IncompatibleDatabase, match="newer than this code") as refused:
        asyncio.run(open_storage(db_path))
    assert "newer release" in str(refused.value)
    assert digest(db_path) == before
    assert header(db_path) == (migrate.APPLICATION_ID, migrate.latest_version() + 1)


async def _create_and_close(path: Path) -> None:
    async with await open_storage(path):
        pass


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    script = """
    -- a comment
    CREATE TABLE t (a);
    CREATE TRIGGER t_guard BEFORE INSERT ON t BEGIN
        SELECT RAISE(ABORT, 'no; never');
    END;
    -- trailing comment
    """
    statements = migrate.split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_split_statements_rejects_an_unterminated_statement() -> None:
    with pytest.raises(ValueError, match="unterminated"):
        migrate.split_statements("CREATE TABLE t (a)")


async def test_in_memory_database_for_quick_experiments() -> None:
    async with await open_storage(":memory:") as storage:
        player = await storage.get_or_create_player("console", "me", "Me")
        assert await storage.get_player(player.id) == player
