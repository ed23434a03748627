"""The storage additions for puzzles: per-player progress (migration 4) and recent posts,
on each backend (SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
from datetime import date, time

import pytest

from storage import NotFound, open_storage
from storage.migrate import latest_version

from .support import FLOW_PUZZLES, MATE1, MATE2


@pytest.fixture
async def storage(database, clock):
    async with await open_storage(database, clock=clock.now) as opened:
        yield opened


@pytest.fixture
async def store(storage):
    await storage.upsert_puzzles(FLOW_PUZZLES)
    return storage


async def test_progress_is_saved_per_post_and_player(store, clock):
    post = await store.record_extra_post("discord", "c", MATE2.id)
    alice = await store.get_or_create_player("discord", "1", "Alice")
    bob = await store.get_or_create_player("discord", "2", "Bob")
    assert await store.get_progress(post.id, alice.id) is None
    saved = await store.save_progress(post.id, alice.id, 2)
    assert (saved.ply, saved.gave_up, saved.updated) == (2, False, clock.now())
    clock.advance(minutes=5)
    again = await store.save_progress(post.id, alice.id, 2, gave_up=True)
    assert again.gave_up and again.updated == clock.now()
    assert await store.get_progress(post.id, alice.id) == again
    assert await store.get_progress(post.id, bob.id) is None
    with pytest.raises(NotFound):
        await store.save_progress(post.id + 100, alice.id, 0)


async def test_recent_posts_newest_first(store):
    sub = await store.subscribe("line", "g", time(8), "Asia/Bangkok")
    first = await store.record_post(sub.id, date(2026, 11, 30), MATE1.id)
    extra = await store.record_extra_post("line", "g", MATE2.id)
    second = await store.record_post(sub.id, date(2026, 12, 1), FLOW_PUZZLES[1].id)
    assert await store.recent_posts("line", "g") == [second, extra, first]
    assert await store.recent_posts("line", "g", limit=1) == [second]
    assert await store.recent_posts("line", "other") == []


async def test_the_migration_is_additive(db_path, clock):
    async with await open_storage(db_path, clock=clock.now):
        pass
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version() >= 4
        columns = [row[1] for row in conn.execute("PRAGMA table_info(puzzle_progress)")]
        assert columns == ["post_id", "player_id", "ply", "gave_up", "updated"]
    finally:
        conn.close()
