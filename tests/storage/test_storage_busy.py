"""A database locked by another writer: StorageBusy after the busy timeout, nothing changed."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import date
from datetime import time as clock_time
from pathlib import Path

import pytest

from storage import (
    ChannelSettings,
    GameChanges,
    NewMove,
    NewNotice,
    NoticeCounts,
    Puzzle,
    SqliteStorage,
    StorageBusy,
    StorageError,
    migrate,
    open_storage,
)

from .storage_helpers import FakeClock, MakeGame

SHORT_MS = 100


@contextmanager
def write_locked(path: Path) -> Iterator[None]:
    """Another process's writer holding the file's write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


@pytest.fixture
async def impatient(
    storage: SqliteStorage, db_path: Path, clock: FakeClock
) -> AsyncIterator[SqliteStorage]:
    """A second storage on the same (migrated) file that waits only SHORT_MS for a lock."""
    async with await open_storage(db_path, clock=clock, busy_timeout_ms=SHORT_MS) as opened:
        yield opened


def test_storage_busy_is_a_storage_error_that_says_to_try_again() -> None:
    busy = StorageBusy("database is locked")
    assert isinstance(busy, StorageError)
    assert str(busy) == "the database is busy (locked by another writer); try again (database is locked)"


async def test_a_locked_database_raises_storage_busy_and_changes_nothing(
    impatient: SqliteStorage, storage: SqliteStorage, db_path: Path, make_game: MakeGame
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
    with write_locked(db_path):
        for write in writes:
            started = time.monotonic()
            with pytest.raises(StorageBusy, match="try again"):
                await write
            assert time.monotonic() - started >= SHORT_MS / 1000 * 0.9  # it did wait
        # Readers are not blocked by a writer (WAL).
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
    with write_locked(db_path), pytest.raises(StorageBusy):
        await open_storage(db_path, busy_timeout_ms=SHORT_MS)
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == migrate.latest_version() - 1
    conn.close()
    async with await open_storage(db_path):
        pass


async def test_the_default_busy_timeout_stays_five_seconds(storage: SqliteStorage) -> None:
    cursor = await storage._db.execute("PRAGMA busy_timeout")
    assert await cursor.fetchone() == (5000,)
