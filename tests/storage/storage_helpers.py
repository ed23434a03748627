"""Helpers shared by the storage tests (a plain module: conftest is not for importing)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest

from storage import Game, NewGame, Player, Seat

# For a test about SQLite itself (its file, its lock): `database` and `storage` on SQLite only.
sqlite_only = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
# For a test about PostgreSQL itself.
postgres_only = pytest.mark.parametrize("database", ["postgres"], indirect=True)

# A value that is not JSON refused: SQLite's CHECK (json_valid(...)), PostgreSQL's json type.
NOT_JSON = r"CHECK constraint|invalid input syntax for type json"

START_FEN = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w 0 1"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


MakeGame = Callable[..., Awaitable[Game]]


def challenge(alice: Player, channel: str = "chan-1") -> NewGame:
    """A rated challenge by `alice` in a Discord channel, Black's seat open."""
    return NewGame(
        platform="discord",
        channel=channel,
        community="guild-1",
        white=Seat.human(alice.id),
        black=None,
        start_fen=START_FEN,
        promotion="optional",
        perpetual="draw",
        move_seconds=120,
        rated=True,
        created_by=alice.id,
    )
