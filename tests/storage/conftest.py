"""Fixtures for the storage tests: real SQLite files in a temp dir and a fake clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Game, NewGame, Player, Seat, SqliteStorage, open_storage

from .storage_helpers import START_FEN, FakeClock, MakeGame


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "makruk.db"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStorage]:
    async with await open_storage(db_path, clock=clock) as opened:
        yield opened


@pytest.fixture
async def alice(storage: SqliteStorage) -> Player:
    return await storage.get_or_create_player("discord", "100", "Alice")


@pytest.fixture
async def bob(storage: SqliteStorage) -> Player:
    return await storage.get_or_create_player("discord", "200", "Bob")


@pytest.fixture
def make_game(storage: SqliteStorage, alice: Player, bob: Player) -> MakeGame:
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
