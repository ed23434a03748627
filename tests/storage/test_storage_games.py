"""Games: creation, one open game per channel, compare-and-set moves and changes, `Game.after`.

The queries over many games are in `test_storage_game_queries.py`.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta, timezone
from pathlib import Path

import pytest

from storage import (
    ChannelBusy,
    Game,
    GameChanges,
    NewGame,
    NewMove,
    NotFound,
    Player,
    PlayerRating,
    RatingUpdate,
    Seat,
    Storage,
    StorageError,
    VersionConflict,
    open_storage,
)

from .storage_helpers import NOT_JSON, START_FEN, FakeClock, MakeGame, challenge, sqlite_only


async def test_create_challenge_with_an_open_seat(
    storage: Storage, alice: Player, clock: FakeClock
) -> None:
    game = await storage.create_game(challenge(alice))
    assert (game.status, game.version, game.moves) == ("challenge", 1, ())
    assert game.white == Seat.human(alice.id) and game.black is None
    assert (game.promotion, game.perpetual, game.move_seconds) == ("optional", "draw", 120)
    assert game.rated and game.created_by == alice.id and game.community == "guild-1"
    assert game.created == game.updated == clock.now
    assert await storage.get_game(game.id) == game


async def test_create_game_against_the_engine(storage: Storage, alice: Player) -> None:
    game = await storage.create_game(
        NewGame(
            platform="console",
            channel="tty",
            white=Seat.engine(4),
            black=Seat.human(alice.id),
            start_fen=START_FEN,
            promotion="forced",
            perpetual="forbid",
            move_seconds=0,
            status="active",
        )
    )
    loaded = await storage.get_game(game.id)
    assert loaded.white is not None and loaded.white.is_engine
    assert loaded.white.engine_level == 4
    assert loaded.player_ids == (alice.id,)
    assert loaded.seat("b") == Seat.human(alice.id)


async def test_an_active_game_needs_both_seats(storage: Storage, alice: Player) -> None:
    half = challenge(alice)
    with pytest.raises(StorageError, match=r"(?i)check constraint"):
        await storage.create_game(
            NewGame(**{**_fields(half), "status": "active"})  # type: ignore[arg-type]
        )


def _fields(new: NewGame) -> dict[str, object]:
    return {name: getattr(new, name) for name in new.__dataclass_fields__}


async def test_second_open_game_in_a_channel_is_refused(
    storage: Storage, alice: Player, make_game: MakeGame
) -> None:
    first = await storage.create_game(challenge(alice))
    with pytest.raises(ChannelBusy) as busy:
        await make_game()
    assert busy.value.game_id == first.id
    # Other channels and other platforms are independent.
    await storage.create_game(challenge(alice, channel="chan-2"))
    await make_game(platform="line")


async def test_channel_is_free_again_once_the_game_ends(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    await storage.update_game(
        game.id, game.version, GameChanges(status="finished", result="1/2-1/2", reason="agreed")
    )
    assert await storage.active_game("discord", "chan-1") is None
    again = await make_game()
    assert (await storage.active_game("discord", "chan-1")) == again


@sqlite_only
async def test_one_open_game_per_channel_is_enforced_by_the_database(
    storage: Storage, make_game: MakeGame, db_path: Path
) -> None:
    await make_game()
    conn = sqlite3.connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            conn.execute(
                """INSERT INTO games (platform, channel, variant, promotion, perpetual,
                       move_seconds, rated, start_fen, status, created, updated)
                   SELECT platform, channel, variant, promotion, perpetual, move_seconds,
                       rated, start_fen, 'challenge', created, updated FROM games"""
            )
    finally:
        conn.close()


async def test_game_versions_reads_many_games_at_once(storage: Storage, make_game: MakeGame) -> None:
    first, second = await make_game(channel="one"), await make_game(channel="two")
    moved = await storage.append_move(first.id, first.version, NewMove("e3e4", "e4", "w"))
    versions = await storage.game_versions([first.id, second.id, second.id, 999])
    assert versions == {first.id: moved.version, second.id: second.version}  # no game 999
    assert await storage.game_versions([]) == {}


async def test_get_game_of_an_unknown_id(storage: Storage) -> None:
    with pytest.raises(NotFound):
        await storage.get_game(999)


async def test_active_game_includes_challenges_and_moves(
    storage: Storage, alice: Player, make_game: MakeGame
) -> None:
    assert await storage.active_game("discord", "chan-1") is None
    pending = await storage.create_game(challenge(alice, channel="chan-9"))
    assert await storage.active_game("discord", "chan-9") == pending
    game = await make_game()
    game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
    found = await storage.active_game("discord", "chan-1")
    assert found == game and len(found.moves) == 1


async def test_append_move_numbers_plies_and_applies_changes(
    storage: Storage, make_game: MakeGame, clock: FakeClock
) -> None:
    game = await make_game()
    deadline = clock.now + timedelta(seconds=300)
    game = await storage.update_game(
        game.id, game.version, GameChanges(draw_offer="b", deadline=deadline)
    )
    clock.advance(7)
    game = await storage.append_move(
        game.id,
        game.version,
        NewMove("e3e4", "e4", "w"),
        GameChanges(draw_offer=None, deadline=clock.now + timedelta(seconds=300), reminded=False),
    )
    clock.advance(5)
    game = await storage.append_move(game.id, game.version, NewMove("d6d5", "d5", "b"))

    assert game.version == 4
    assert [(m.ply, m.uci, m.san, m.by) for m in game.moves] == [
        (1, "e3e4", "e4", "w"),
        (2, "d6d5", "d5", "b"),
    ]
    assert game.moves[0].at == clock.now - timedelta(seconds=5)
    assert game.moves[1].at == game.updated == clock.now
    assert game.draw_offer is None
    assert game.deadline == clock.now - timedelta(seconds=5) + timedelta(seconds=300)
    assert await storage.get_game(game.id) == game


async def test_append_move_with_a_stale_version_conflicts(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    moved = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
    with pytest.raises(VersionConflict) as conflict:
        await storage.append_move(game.id, game.version, NewMove("a3a4", "a4", "w"))
    assert (conflict.value.expected, conflict.value.actual) == (1, 2)
    assert await storage.get_game(game.id) == moved


async def test_append_move_to_an_unknown_game(storage: Storage) -> None:
    with pytest.raises(NotFound):
        await storage.append_move(42, 1, NewMove("e3e4", "e4", "w"))


async def test_finishing_move_updates_ratings_in_the_same_transaction(
    storage: Storage, make_game: MakeGame, alice: Player, bob: Player
) -> None:
    game = await make_game(rated=True)
    game = await storage.append_move(
        game.id,
        game.version,
        NewMove("e3e4", "e4", "w"),
        GameChanges(status="finished", result="1-0", reason="checkmate"),
        ratings=[
            RatingUpdate.after_game(await storage.get_rating(alice.id, "makruk"), 1520.0, 300.0, 0.0599),
            RatingUpdate.after_game(await storage.get_rating(bob.id, "makruk"), 1480.0, 300.0, 0.0601),
        ],
    )
    assert (game.status, game.result, game.reason) == ("finished", "1-0", "checkmate")
    winner, loser = await storage.get_rating(alice.id, "makruk"), await storage.get_rating(bob.id, "makruk")
    assert (winner.rating, winner.deviation, winner.games_played) == (1520.0, 300.0, 1)
    assert (loser.rating, loser.volatility, loser.games_played) == (1480.0, 0.0601, 1)


async def test_a_finished_sittuyin_game_changes_only_sittuyin_ratings(
    storage: Storage, make_game: MakeGame, alice: Player, bob: Player
) -> None:
    makruk = [await storage.get_rating(p.id, "makruk") for p in (alice, bob)]
    game = await make_game(rated=True, variant="sittuyin")
    await storage.update_game(
        game.id, game.version, GameChanges(status="finished", result="0-1", reason="resign"),
        ratings=[
            RatingUpdate.after_game(await storage.get_rating(alice.id, "sittuyin"), 1440.0, 320.0, 0.06),
            RatingUpdate.after_game(await storage.get_rating(bob.id, "sittuyin"), 1560.0, 320.0, 0.06),
        ],
    )
    assert [(r.rating, r.games_played) for r in
            [await storage.get_rating(p.id, "sittuyin") for p in (alice, bob)]] == [(1440.0, 1), (1560.0, 1)]
    assert [await storage.get_rating(p.id, "makruk") for p in (alice, bob)] == makruk
    assert await storage.get_rating(alice.id, "cambodian") == PlayerRating.initial(alice.id, "cambodian")


async def test_a_game_cannot_change_the_rating_of_another_variant(
    storage: Storage, make_game: MakeGame, alice: Player
) -> None:
    game = await make_game(rated=True, variant="sittuyin")
    makruk = await storage.get_rating(alice.id, "makruk")
    for change in (
        storage.update_game(game.id, game.version, GameChanges(status="finished", result="1-0", reason="resign"),
                            ratings=[RatingUpdate.after_game(makruk, 1520.0, 300.0, 0.06)]),
        storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"),
                            GameChanges(status="finished", result="1-0", reason="checkmate"),
                            ratings=[RatingUpdate.after_game(makruk, 1520.0, 300.0, 0.06)]),
    ):
        with pytest.raises(ValueError, match="sittuyin game cannot change the makruk rating"):
            await change
    assert await storage.get_game(game.id) == game  # nothing stored
    assert await storage.get_rating(alice.id, "makruk") == makruk


async def test_stale_rating_rolls_back_the_move_too(
    storage: Storage, make_game: MakeGame, alice: Player, bob: Player
) -> None:
    alice_before = await storage.get_rating(alice.id, "makruk")
    await storage.update_ratings([RatingUpdate.after_game(alice_before, 1510.0, 340.0, 0.06)])
    game = await make_game(rated=True)
    with pytest.raises(VersionConflict, match=f"rating of player {alice.id}"):
        await storage.append_move(
            game.id,
            game.version,
            NewMove("e3e4", "e4", "w"),
            GameChanges(status="finished", result="1-0", reason="checkmate"),
            ratings=[
                RatingUpdate.after_game(await storage.get_rating(bob.id, "makruk"), 1480.0, 300.0, 0.06),
                RatingUpdate.after_game(alice_before, 1520.0, 300.0, 0.06),  # read before 1510
            ],
        )
    assert await storage.get_game(game.id) == game
    assert (await storage.get_rating(bob.id, "makruk")).games_played == 0


async def test_update_game_accepts_a_challenge(
    storage: Storage, alice: Player, bob: Player, clock: FakeClock
) -> None:
    game = await storage.create_game(challenge(alice))
    clock.advance(30)
    deadline = clock.now + timedelta(minutes=2)
    game = await storage.update_game(
        game.id,
        game.version,
        GameChanges(
            black=Seat.human(bob.id),
            status="active",
            deadline=deadline,
            remind_at=deadline - timedelta(seconds=24),
        ),
    )
    assert (game.status, game.black, game.version) == ("active", Seat.human(bob.id), 2)
    assert game.deadline == deadline and game.updated == clock.now
    assert game.created == clock.now - timedelta(seconds=30)


async def test_update_game_conflicts_and_not_found(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    await storage.update_game(game.id, game.version, GameChanges(takeback_offer="w"))
    with pytest.raises(VersionConflict):
        await storage.update_game(game.id, game.version, GameChanges(status="aborted"))
    with pytest.raises(NotFound):
        await storage.update_game(777, 1, GameChanges(status="aborted"))


async def test_update_game_rejects_an_inconsistent_state(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    with pytest.raises(StorageError, match=r"(?i)check constraint"):
        await storage.update_game(game.id, game.version, GameChanges(status="finished"))
    assert await storage.get_game(game.id) == game


async def test_reopening_a_game_in_a_busy_channel_is_refused(
    storage: Storage, make_game: MakeGame
) -> None:
    old = await make_game()
    old = await storage.update_game(old.id, old.version, GameChanges(status="aborted"))
    current = await make_game()
    with pytest.raises(ChannelBusy) as busy:
        await storage.update_game(old.id, old.version, GameChanges(status="active"))
    assert busy.value.game_id == current.id


async def test_counting_state_round_trips_as_json(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    counting = json.dumps({"kind": "board", "limit": 64, "count": 3, "by": "b"})
    game = await storage.update_game(game.id, game.version, GameChanges(counting=counting))
    assert json.loads((await storage.get_game(game.id)).counting or "") == json.loads(counting)
    with pytest.raises(StorageError, match=NOT_JSON):
        await storage.update_game(game.id, game.version, GameChanges(counting="{not json"))
    game = await storage.update_game(game.id, game.version, GameChanges(counting=None))
    assert game.counting is None


async def test_undo_moves_takes_back_the_last_plies(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    played = [NewMove("e3e4", "e4", "w"), NewMove("d6d5", "d5", "b"), NewMove("a3a4", "a4", "w")]
    for move in played:
        game = await storage.append_move(game.id, game.version, move)
    game = await storage.undo_moves(game.id, game.version, 2, GameChanges(takeback_offer=None))
    assert [m.uci for m in game.moves] == ["e3e4"]
    assert game.version == 5
    game = await storage.append_move(game.id, game.version, NewMove("h6h5", "h5", "b"))
    assert [(m.ply, m.uci) for m in game.moves] == [(1, "e3e4"), (2, "h6h5")]
    assert await storage.get_game(game.id) == game


async def test_undo_more_plies_than_played_changes_nothing(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
    with pytest.raises(ValueError, match="cannot undo 2"):
        await storage.undo_moves(game.id, game.version, 2)
    with pytest.raises(ValueError, match="at least one"):
        await storage.undo_moves(game.id, game.version, 0)
    with pytest.raises(VersionConflict):
        await storage.undo_moves(game.id, game.version - 1, 1)
    assert await storage.get_game(game.id) == game


async def test_another_instance_sees_committed_moves(
    storage: Storage, make_game: MakeGame, database: str, clock: FakeClock
) -> None:
    game = await make_game()
    game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
    async with await open_storage(database, clock=clock) as other:
        theirs = await other.get_game(game.id)
        theirs = await other.append_move(theirs.id, theirs.version, NewMove("d6d5", "d5", "b"))
    # Our cached move list was for an older version; the new state must be read whole.
    mine = await storage.append_move(game.id, theirs.version, NewMove("a3a4", "a4", "w"))
    assert [m.uci for m in mine.moves] == ["e3e4", "d6d5", "a3a4"]
    assert await storage.get_game(game.id) == mine


async def test_storage_without_a_move_cache(database: str, clock: FakeClock) -> None:
    async with await open_storage(database, clock=clock, move_cache=0) as storage:
        player = await storage.get_or_create_player("console", "me", "Me")
        game = await storage.create_game(
            NewGame(
                platform="console",
                channel="tty",
                white=Seat.human(player.id),
                black=Seat.engine(1),
                start_fen=START_FEN,
                promotion="forced",
                perpetual="forbid",
                move_seconds=0,
                status="active",
            )
        )
        for ply in range(1, 6):
            game = await storage.append_move(game.id, game.version, NewMove(f"m{ply}", "x", "w"))
        assert [m.ply for m in game.moves] == [1, 2, 3, 4, 5]
        assert await storage.get_game(game.id) == game


async def test_game_after_predicts_what_storage_returns(
    storage: Storage, alice: Player, bob: Player, make_game: MakeGame, clock: FakeClock
) -> None:
    bangkok = timezone(timedelta(hours=7))
    game = await make_game(black=Seat.engine(4))
    steps: list[tuple[GameChanges, NewMove | None]] = [
        (GameChanges(), NewMove("e3e4", "e4", "w")),
        (GameChanges(deadline=(clock.now + timedelta(hours=1)).astimezone(bangkok),
                     remind_at=clock.now + timedelta(minutes=30), reminded=False,
                     draw_offer="b"), NewMove("d6d5", "d5", "b")),
        (GameChanges(draw_offer=None, takeback_offer="w", counting='{"from": 3}'), None),
        (GameChanges(black=Seat.human(bob.id), rated=True, reminded=True), None),
        (GameChanges(status="finished", result="1/2-1/2", reason="agreed", deadline=None,
                     remind_at=None, counting=None), None),
    ]
    for changes, move in steps:
        clock.advance(7.25)
        expected = game.after(changes, move=move, at=clock.now)
        if move is None:
            game = await storage.update_game(game.id, game.version, changes)
        else:
            game = await storage.append_move(game.id, game.version, move, changes)
        assert game == expected
        assert await storage.get_game(game.id) == expected
    assert [m.ply for m in game.moves] == [1, 2]


def test_game_after_refuses_a_naive_time() -> None:
    game = _a_game()
    with pytest.raises(ValueError, match="naive"):
        game.after(GameChanges(), at=game.created.replace(tzinfo=None))


def _a_game() -> Game:
    at = FakeClock().now
    return Game(1, "console", "c", None, "makruk", "forced", "forbid", 60, Seat.human(1),
                Seat.engine(3), False, 1, START_FEN, "active", None, None, None, None, None,
                None, None, False, at, at, 1, ())
