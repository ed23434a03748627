"""Fixtures most test folders share: a fake clock, a real SQLite file opened with it, and a
real PostgreSQL server started for the session (tests/pgserver.py), a new database per test.

A folder's own conftest overrides what it needs (the puzzle tests start on a Monday, the
storage tests open the database with the clock itself). `database` is parametrized over both
backends: a test that takes it runs once on SQLite and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.clock import FakeClock
from storage import Storage, open_storage

from .pgserver import PgServer

BACKENDS = ("sqlite", "postgres")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


@pytest.fixture
async def storage(database: str, clock: FakeClock) -> AsyncIterator[Storage]:
    """The test's database, opened: each test that takes it runs on SQLite and on PostgreSQL."""
    store = await open_storage(database, clock=clock.now)
    yield store
    await store.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL cluster for the whole run; a missing server is an error, not a skip."""
    server = PgServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database for this test."""
    return await pg_server.new_database()


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """Where a test's database lives, on each backend in turn: the SQLite file `db_path` or a
    postgresql:// URL (what open_storage and DATABASE_URL take) of a new database already at
    today's schema."""
    if request.param == "sqlite":
        return str(db_path)
    server: PgServer = request.getfixturevalue("pg_server")
    return await server.migrated_database()
