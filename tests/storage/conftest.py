"""Fixtures for the storage tests: a real database on each backend in turn (a SQLite file in
a temp dir, a fresh PostgreSQL database) and a fake clock.

A test that takes `storage` or `database` runs once per backend; on SQLite the file is
`db_path`, which the tests about SQLite files look at (those run on SQLite alone, see
storage_helpers.sqlite_only)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Game, NewGame, Player, Seat, Storage, open_storage

from .storage_helpers import START_FEN, FakeClock, MakeGame


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "makruk.db"


@pytest.fixture
async def storage(database: str, clock: FakeClock) -> AsyncIterator[Storage]:
    async with await open_storage(database, clock=clock) as opened:
        yield opened


@pytest.fixture
async def alice(storage: Storage) -> Player:
    return await storage.get_or_create_player("discord", "100", "Alice")


@pytest.fixture
async def bob(storage: Storage) -> Player:
    return await storage.get_or_create_player("discord", "200", "Bob")


@pytest.fixture
def make_game(storage: Storage, alice: Player, bob: Player) -> MakeGame:
    """Creates an active Alice (White) vs Bob game; keyword arguments override NewGame."""

    async def make(**overrides: object) -> Game:
        fields: dict[str, object] = {
            "platform": "discord",
            "channel": "chan-1",
            "community": "guild-1",
            "white": Seat.human(alice.id),
            "black": Seat.human(bob.id),
            "start_fen": START_FEN,
            "promotion": "forced",
            "perpetual": "forbid",
            "move_seconds": 300,
            "status": "active",
        }
        fields.update(overrides)
        return await storage.create_game(NewGame(**fields))  # type: ignore[arg-type]

    return make
