"""Record values: validation, change sets, streak arithmetic, doctests, interface coverage."""

from __future__ import annotations

import doctest
import inspect
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from storage import (
    NO_CHANGES,
    GameChanges,
    NewGame,
    NewNotice,
    NoticeCounts,
    PostgresStorage,
    Seat,
    SqliteStorage,
    Storage,
    Streak,
    open_storage,
    puzzle_records,
    records,
)

from .storage_helpers import START_FEN


def test_records_doctests() -> None:
    for module in (records, puzzle_records):
        assert doctest.testmod(module, raise_on_error=False).failed == 0


def test_a_seat_is_a_player_or_the_engine_never_both() -> None:
    assert Seat.human(3).player_id == 3 and not Seat.human(3).is_engine
    with pytest.raises(ValueError):
        Seat()
    with pytest.raises(ValueError):
        Seat(player_id=1, engine_level=2)


def test_a_new_game_starts_open() -> None:
    with pytest.raises(ValueError, match="challenge or active"):
        NewGame(
            platform="discord",
            channel="c",
            white=None,
            black=None,
            start_fen=START_FEN,
            promotion="forced",
            perpetual="forbid",
            move_seconds=60,
            status="finished",
        )


def test_game_changes_list_only_what_changes() -> None:
    assert list(NO_CHANGES.items()) == []
    changes = GameChanges(deadline=None, reminded=True, white=Seat.engine(2))
    assert list(changes.items()) == [
        ("white", Seat.engine(2)),
        ("deadline", None),
        ("reminded", True),
    ]


def test_streak_is_alive_today_and_tomorrow_only() -> None:
    streak = Streak("line", "C1", 7, current=4, best=9, last_date=date(2026, 11, 30))
    assert streak.current_on(date(2026, 11, 30)) == 4
    assert streak.current_on(date(2026, 12, 1)) == 4
    assert streak.current_on(date(2026, 12, 2)) == 0
    assert Streak("line", "C1", 7).current_on(date(2026, 12, 2)) == 0


@pytest.mark.parametrize("backend", [SqliteStorage, PostgresStorage])
def test_each_backend_implements_the_whole_interface(backend: type[Storage]) -> None:
    abstract = set(Storage.__abstractmethods__)
    assert abstract and not backend.__abstractmethods__
    for name in abstract:
        assert inspect.signature(getattr(backend, name)) == inspect.signature(
            getattr(Storage, name)
        ), name


async def test_naive_times_are_refused(storage: Storage) -> None:
    naive = datetime(2026, 11, 30, 9, 0)
    with pytest.raises(ValueError, match="naive"):
        await storage.due_deadlines(naive)
    with pytest.raises(ValueError, match="naive"):
        await storage.claim(["game:1"], "a", until=naive)
    with pytest.raises(ValueError, match="naive"):
        await storage.add_notices([NewNotice("console", "c", "k", "reply", "{}", due=naive)])
    assert await storage.notice_counts() == NoticeCounts(pending=0, dead=0)


async def test_times_come_back_in_utc(database: str) -> None:
    bangkok = datetime(2026, 11, 30, 23, 0, tzinfo=timezone(timedelta(hours=7)))
    async with await open_storage(database, clock=lambda: bangkok) as opened:
        player = await opened.get_or_create_player("console", "me", "Me")
    assert player.created == bangkok
    assert player.created.tzinfo == UTC and player.created.hour == 16
