"""A database locked by another writer: StorageBusy after the busy timeout, nothing changed.

On SQLite another connection holds the file's write lock; on PostgreSQL another transaction
holds locks on the tables that only readers may share."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from datetime import time as clock_time
from pathlib import Path

import asyncpg
import pytest

from storage import (
    ChannelSettings,
    GameChanges,
    NewMove,
    NewNotice,
    NoticeCounts,
    PostgresStorage,
    Puzzle,
    SqliteStorage,
    Storage,
    StorageBusy,
    StorageError,
    is_database_url,
    migrate,
    open_storage,
)
from storage.postgres import migrate as pg_migrate

from .storage_helpers import FakeClock, MakeGame, postgres_only, sqlite_only

SHORT_MS = 100
# Every table a write of the test below touches.
WRITTEN_TABLES = "games, moves, outbox, players, puzzle_posts, subscriptions, channel_settings"


@asynccontextmanager
async def write_locked(database: str) -> AsyncIterator[None]:
    """Another process's writer holding the database's write lock(s); readers may go on."""
    if is_database_url(database):
        other = await asyncpg.connect(database)
        try:
            async with other.transaction():
                await other.execute(f"LOCK TABLE {WRITTEN_TABLES} IN EXCLUSIVE MODE")
                yield
        finally:
            await other.close()
        return
    conn = sqlite3.connect(database, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield
        conn.execute("ROLLBACK")
    finally:
        conn.close()


@pytest.fixture
async def impatient(
    storage: Storage, database: str, clock: FakeClock
) -> AsyncIterator[Storage]:
    """A second storage on the same (migrated) database that waits only SHORT_MS for a lock."""
    async with await open_storage(database, clock=clock, busy_timeout_ms=SHORT_MS) as opened:
        yield opened


def test_storage_busy_is_a_storage_error_that_says_to_try_again() -> None:
    busy = StorageBusy("database is locked")
    assert isinstance(busy, StorageError)
    assert str(busy) == "the database is busy (locked by another writer); try again (database is locked)"


async def test_a_locked_database_raises_storage_busy_and_changes_nothing(
    impatient: Storage, storage: Storage, database: str, make_game: MakeGame
) -> None:
    game = await make_game()
    notice = NewNotice("discord", "chan-1", "n1", "bot_move", "{}")
    await storage.add_notices([NewNotice("discord", "chan-1", "n0", "reply", "{}")])
    await storage.upsert_puzzles([Puzzle("p1", "fen", ("e3e4",))])
    daily = await storage.subscribe("discord", "chan-1", clock_time(8, 30), "Asia/Bangkok")

    writes = [
        impatient.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"), notices=[notice]),
        impatient.update_game(game.id, game.version, GameChanges(status="aborted"), notices=[notice]),
        impatient.add_notices([notice]),
        impatient.mark_notices_sent(["n0"]),
        impatient.bury_notice("n0", error="x"),
        impatient.record_post(daily.id, date(2026, 11, 30), "p1", notices=[notice]),
        impatient.set_channel_settings(ChannelSettings("discord", "chan-1", push_notices=False)),
        impatient.get_or_create_player("discord", "999", "Newcomer"),
    ]
    async with write_locked(database):
        for write in writes:
            started = time.monotonic()
            with pytest.raises(StorageBusy, match="try again"):
                await write
            assert time.monotonic() - started >= SHORT_MS / 1000 * 0.9  # it did wait
        # Readers are not blocked by a writer (WAL; MVCC).
        assert await impatient.get_game(game.id) == game

    assert await storage.get_game(game.id) == game
    assert [n.key for n in await storage.pending_notices("discord", "chan-1")] == ["n0"]
    assert await storage.notice_counts() == NoticeCounts(pending=1, dead=0)
    assert await storage.latest_post("discord", "chan-1") is None
    assert await storage.get_channel_settings("discord", "chan-1") == ChannelSettings("discord", "chan-1")
    assert await storage.find_player("discord", "999") is None
    # Once the lock is gone the same storage works again.
    moved = await impatient.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"),
                                        notices=[notice])
    assert moved.version == game.version + 1


async def test_a_migration_blocked_by_a_lock_is_busy_and_leaves_the_file_as_it_was(
    db_path: Path,
) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    migrate.upgrade(conn, str(db_path), target=migrate.latest_version() - 1)
    conn.close()
    async with write_locked(str(db_path)):
        with pytest.raises(StorageBusy):
            await open_storage(db_path, busy_timeout_ms=SHORT_MS)
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == migrate.latest_version() - 1
    conn.close()
    async with await open_storage(db_path):
        pass


async def test_a_migration_waiting_for_another_process_is_busy_and_changes_nothing(
    pg_url: str,
) -> None:
    """Another process upgrading the schema holds the migration lock for longer than we wait."""
    other = await asyncpg.connect(pg_url)
    try:
        await other.execute("SELECT pg_advisory_lock($1)", pg_migrate.MIGRATION_LOCK)
        with pytest.raises(StorageBusy):
            await open_storage(pg_url, busy_timeout_ms=SHORT_MS)
        assert await other.fetchval("SELECT to_regclass('schema_version')") is None
        await other.execute("SELECT pg_advisory_unlock($1)", pg_migrate.MIGRATION_LOCK)
    finally:
        await other.close()
    async with await open_storage(pg_url):
        pass


@sqlite_only
async def test_the_default_busy_timeout_stays_five_seconds(storage: SqliteStorage) -> None:
    cursor = await storage._db.execute("PRAGMA busy_timeout")
    assert await cursor.fetchone() == (5000,)


@postgres_only
async def test_the_default_lock_timeout_is_five_seconds(storage: PostgresStorage) -> None:
    async with storage._pool.acquire() as conn:
        assert await conn.fetchval("SHOW lock_timeout") == "5s"
