"""Live games in storage (migration 0011): a game's time control and clocks, the next deadline,
and ratings kept per variant and per speed; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from storage import Clocks, GameChanges, NewMove, Player, RatingUpdate, Storage, TimeControl, open_storage

from .storage_helpers import FakeClock, MakeGame, sqlite_only

CONTROL = TimeControl(180, 2)


async def test_a_live_game_keeps_its_time_control_and_clocks(
    storage: Storage, make_game: MakeGame, clock: FakeClock
) -> None:
    start = clock.now
    game = await make_game(time_control=CONTROL, clocks=Clocks(180_000, 180_000, start),
                           deadline=start + timedelta(seconds=30))
    assert game.time_control == CONTROL and game.clocks == Clocks(180_000, 180_000, start)
    assert game.speed == "live" and await storage.get_game(game.id) == game
    clock.advance(12.5)
    later = Clocks(178_500, 180_000, clock.now)
    moved = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"),
                                      GameChanges(clocks=later, deadline=clock.now + timedelta(seconds=180)))
    assert moved.clocks == later and moved == game.after(
        GameChanges(clocks=later, deadline=clock.now + timedelta(seconds=180)),
        move=NewMove("e3e4", "e4", "w"), at=clock.now)
    assert await storage.get_game(game.id) == moved
    assert (await storage.active_game("discord", "chan-1")) == moved  # the one-statement read too


async def test_a_correspondence_game_has_no_clock(storage: Storage, make_game: MakeGame) -> None:
    game = await make_game()
    assert game.time_control is None and game.clocks is None and game.speed == "correspondence"


@sqlite_only
async def test_clocks_survive_reopening_the_file(db_path: Path, clock: FakeClock, make_game: MakeGame,
                                                 storage: Storage) -> None:
    game = await make_game(time_control=CONTROL, clocks=Clocks(90_000, 45_000, clock.now))
    async with await open_storage(str(db_path), clock=clock) as reopened:  # another process, or after a restart
        assert (await reopened.get_game(game.id)).clocks == Clocks(90_000, 45_000, clock.now)


async def test_the_next_deadline_is_the_earliest_of_the_active_games(
    storage: Storage, make_game: MakeGame, clock: FakeClock
) -> None:
    assert await storage.next_deadline() is None
    soon, later = clock.now + timedelta(seconds=7), clock.now + timedelta(days=1)
    await make_game(deadline=later)
    await make_game(channel="chan-2", deadline=soon, time_control=CONTROL, clocks=Clocks(1, 1, clock.now))
    await make_game(platform="line", channel="chan-3", deadline=clock.now + timedelta(seconds=1))
    assert await storage.next_deadline(platform="discord") == soon
    assert await storage.next_deadline() == clock.now + timedelta(seconds=1)
    assert await storage.next_deadline(after=clock.now + timedelta(seconds=1)) == soon  # past one left aside


async def test_ratings_are_kept_per_speed(storage: Storage, make_game: MakeGame, alice: Player,
                                          clock: FakeClock) -> None:
    live = await make_game(rated=True, time_control=CONTROL, clocks=Clocks(1, 1, clock.now))
    current = await storage.get_rating(alice.id, "makruk", "live")
    assert current.speed == "live" and current.games_played == 0
    await storage.update_game(live.id, live.version, GameChanges(status="finished", result="1-0", reason="timeout"),
                              ratings=[RatingUpdate.after_game(current, 1600.0, 300.0, 0.06)])
    assert (await storage.get_rating(alice.id, "makruk", "live")).rating == 1600.0
    assert (await storage.get_rating(alice.id, "makruk")).games_played == 0
    top = await storage.top_players("discord", "makruk", speed="live", community="guild-1")
    assert [s.player.id for s in top] == [alice.id] and top[0].rating.speed == "live"
    assert await storage.top_players("discord", "makruk", community="guild-1") == []


async def test_a_live_game_cannot_change_a_correspondence_rating(
    storage: Storage, make_game: MakeGame, alice: Player, clock: FakeClock
) -> None:
    game = await make_game(rated=True, time_control=CONTROL, clocks=Clocks(1, 1, clock.now))
    correspondence = await storage.get_rating(alice.id, "makruk")
    with pytest.raises(ValueError, match="live game, correspondence rating"):
        await storage.update_game(game.id, game.version, GameChanges(status="finished", result="1-0", reason="x"),
                                  ratings=[RatingUpdate.after_game(correspondence, 1520.0, 300.0, 0.06)])
