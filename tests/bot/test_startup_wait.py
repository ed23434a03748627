"""A process started while the database is away waits for it, with backoff and a limit, then
starts; if it never comes, one line says why. Real PostgreSQL servers, stopped, started and held
in recovery by the tests (a server of this module's own, so the session's server is left alone).

Pauses are taken by the tests' own `sleep`, which records what was asked and brings the server
back at a chosen try: which try fails is decided by the test, never by the wall clock.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.app import configure_logging, open_app
from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, Reply, User
from bot.observability.metrics import Metrics
from bot.services.games import GameService
from storage import (
    IncompatibleDatabase,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    open_storage,
    wait_for_storage,
)

from ..pgserver import PgServer, free_port
from .support import no_image

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def own_cluster() -> Iterator[PgServer]:
    """A server for this module alone: its tests stop it and hold it in recovery."""
    server = PgServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def own_pg(own_cluster: PgServer) -> PgServer:
    """This module's server, running and taking connections (whatever a failed test left)."""
    if (own_cluster.data / "standby.signal").exists():
        own_cluster.promote()
    elif not (own_cluster.data / "postmaster.pid").exists():
        own_cluster.start_server()
    return own_cluster


class Pauses:
    """A `sleep` that records each pause asked for, runs `at_try[n]` before the n-th pause
    (1-based) and then yields briefly: the server comes back when the test says."""

    def __init__(self, at_try: dict[int, Callable[[], None]] | None = None) -> None:
        self.asked: list[float] = []
        self.at_try = at_try or {}

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        action = self.at_try.get(len(self.asked))
        if action is not None:
            await asyncio.to_thread(action)
        await asyncio.sleep(0.01)


class FakeTime:
    """A monotonic timer that moves only by the pauses taken."""

    def __init__(self) -> None:
        self.now = 0.0
        self.asked: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        self.now += seconds


def settings_for(url: str, *, wait: int = 60) -> Settings:
    return Settings(database_url=url, database_wait_seconds=wait, language="en")


async def new_bot_game(games: GameService) -> list[Reply]:
    return await games.handle(Incoming("line", "C1", User("U1", "Alice"), "new bot"))


def tries_again(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The WARNING lines of the wait, one for each try that failed but the last."""
    return [record.getMessage() for record in caplog.records
            if record.levelno == logging.WARNING and "trying again" in record.getMessage()]


# PostgreSQL away at start-up


async def test_start_up_waits_for_a_stopped_postgresql_and_then_works(
    own_pg: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    url = await own_pg.new_database()
    own_pg.stop_server()
    pauses = Pauses({2: lambda: own_pg.start_server(wait=False)})  # back during the second pause
    caplog.set_level(logging.WARNING)
    async with open_app(settings_for(url), clock=FakeClock(), engine=RandomMover(seed=1), render=no_image,
                        card_render=no_image, metrics=Metrics(), sleep=pauses) as app:
        replies = await new_bot_game(app.games)
        assert replies and not any(reply.error for reply in replies)
        assert await app.storage.active_game("line", "C1") is not None
    assert pauses.asked[:2] == [0.25, 0.5]  # backoff: doubling from a quarter of a second
    said = tries_again(caplog)
    assert len(said) == len(pauses.asked)  # every try again is logged
    assert "connection refused" in said[0] and "trying again in 0.25 s" in said[0]
    assert not any("locked by another writer" in line for line in said)


async def test_start_up_waits_while_postgresql_refuses_connections_in_recovery(
    own_pg: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    url = await own_pg.new_database()
    own_pg.stop_server(immediate=True)
    own_pg.start_in_recovery()  # up, but every connection gets 57P03, as while starting up
    pauses = Pauses({3: own_pg.promote})
    caplog.set_level(logging.WARNING)
    async with await wait_for_storage(url, sleep=pauses) as storage:
        assert await storage.get_or_create_player("line", "U1", "Alice")
    said = tries_again(caplog)
    assert len(said) >= 3 and pauses.asked[:3] == [0.25, 0.5, 1.0]
    assert re.search(r"the database system is (not accepting connections|starting up)", said[0]), said[0]
    assert "\n" not in said[0] and "locked by another writer" not in " ".join(said)


async def test_postgresql_that_never_comes_ends_in_one_clear_error_after_the_limit(
    caplog: pytest.LogCaptureFixture,
) -> None:
    port = free_port()  # nothing listens there
    url = f"postgresql://bot:s3cret@127.0.0.1:{port}/makruk"
    time = FakeTime()
    caplog.set_level(logging.WARNING)
    with pytest.raises(StorageUnavailable) as gave_up:
        await wait_for_storage(url, limit=3, sleep=time.sleep, timer=time)
    assert str(gave_up.value) == (
        f"could not reach the database at postgresql://bot:***@127.0.0.1:{port}/makruk (connection refused) for 3 s"
    )
    assert isinstance(gave_up.value, StorageBusy)  # callers that answer "busy" answer this too
    assert time.asked == [0.25, 0.5, 1.0, 1.25]  # doubling, the last pause cut to the limit
    assert len(tries_again(caplog)) == 4 and "s3cret" not in caplog.text


async def test_the_pauses_stop_growing_at_five_seconds() -> None:
    time = FakeTime()
    with pytest.raises(StorageUnavailable, match="for 30 s"):
        await wait_for_storage(f"postgresql://bot@127.0.0.1:{free_port()}/makruk", limit=30, sleep=time.sleep,
                               timer=time)
    assert time.asked == [0.25, 0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0, 5.0, 2.25]


def test_makruk_bot_exits_with_one_line_when_the_database_never_comes(tmp_path: Path) -> None:
    port = free_port()
    env = {name: value for name, value in os.environ.items() if not name.startswith(("DATABASE_", "LOG_"))}
    env |= {"DATABASE_WAIT_SECONDS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", f"postgresql://bot@127.0.0.1:{port}/makruk"],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr.splitlines()[-1] == (
        f"makruk-bot: could not reach the database at postgresql://bot@127.0.0.1:{port}/makruk "
        "(connection refused) for 1 s"
    )
    assert "trying again" in done.stderr and "locked by another writer" not in done.stderr


# What waiting does not mend


@pytest.mark.parametrize("content", ["not a database", "foreign tables"])
async def test_a_foreign_sqlite_file_is_refused_at_once_never_tried_again(tmp_path: Path, content: str) -> None:
    path = tmp_path / "other.db"
    if content == "not a database":
        path.write_bytes(b"these are somebody's notes, not SQLite" * 10)
    else:
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE wiki (page TEXT)")
        conn.close()
    before = path.read_bytes()
    time = FakeTime()
    with pytest.raises(IncompatibleDatabase):
        await wait_for_storage(path, sleep=time.sleep, timer=time)
    assert time.asked == [] and path.read_bytes() == before


async def test_a_missing_postgresql_database_is_not_waited_for(pg_server: PgServer) -> None:
    time = FakeTime()
    with pytest.raises(StorageError, match="does not exist") as refused:
        await wait_for_storage(pg_server.url("no_such_database"), sleep=time.sleep, timer=time)
    assert not isinstance(refused.value, StorageBusy) and time.asked == []


# A SQLite file locked by another process at start-up


async def test_a_locked_sqlite_file_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")  # another writer, e.g. a backup restoring the file
    pauses = Pauses({1: holder.close})
    async with await wait_for_storage(path, busy_timeout_ms=20, sleep=pauses) as storage:
        assert await storage.get_or_create_player("console", "me", "Me")
    assert pauses.asked == [0.25]


# PostgreSQL away while the bot runs


async def test_a_message_while_postgresql_is_away_gets_busy_and_the_next_works(
    own_pg: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    url = await own_pg.new_database()
    async with open_app(settings_for(url), clock=FakeClock(), engine=RandomMover(seed=1), render=no_image,
                        card_render=no_image, metrics=Metrics()) as app:
        configure_logging("WARNING")  # as main() does: asyncpg's reconnects logged in one line
        await asyncio.to_thread(own_pg.stop_server, immediate=True)  # the loop hears its connections cut
        caplog.set_level(logging.WARNING)
        replies = await new_bot_game(app.games)
        assert [reply.error for reply in replies] == ["busy"]
        assert not any(record.exc_info for record in caplog.records)  # a warning, no traceback
        with pytest.raises(StorageUnavailable, match="connection refused"):
            await app.storage.active_game("line", "C1")
        await asyncio.to_thread(own_pg.start_server)
        replies = await new_bot_game(app.games)
        assert replies and not any(reply.error for reply in replies)


def test_the_wait_is_a_setting() -> None:
    assert Settings.from_env({}, None).database_wait_seconds == 60
    assert Settings.from_env({"DATABASE_WAIT_SECONDS": "5"}, None).database_wait_seconds == 5
    assert Settings.from_env({"DATABASE_WAIT_SECONDS": "0"}, None).database_wait_seconds == 0
    with pytest.raises(ValueError, match="DATABASE_WAIT_SECONDS"):
        Settings.from_env({"DATABASE_WAIT_SECONDS": "-1"}, None)


async def test_open_storage_alone_does_not_wait() -> None:
    url = f"postgresql://bot@127.0.0.1:{free_port()}/makruk"
    with pytest.raises(StorageUnavailable, match=r"^cannot connect to the database at .* \(connection refused\)$"):
        await open_storage(url)
