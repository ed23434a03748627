"""Two people pressing at once: compare-and-set lets exactly one write win, none is lost."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from storage import (
    ChannelBusy,
    Game,
    GameChanges,
    NewMove,
    Player,
    RatingUpdate,
    Storage,
    VersionConflict,
    open_storage,
)

from .storage_helpers import FakeClock, MakeGame, challenge

WRITERS = 50


def winners_and_conflicts(
    results: Sequence[object],
) -> tuple[list[Game], list[VersionConflict]]:
    games = [r for r in results if isinstance(r, Game)]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(games) + len(conflicts) == len(results), results
    return games, conflicts


async def test_fifty_appends_on_one_version_one_storage(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    results = await asyncio.gather(
        *(
            storage.append_move(game.id, game.version, NewMove(f"m{i}", f"s{i}", "w"))
            for i in range(WRITERS)
        ),
        return_exceptions=True,
    )
    winners, conflicts = winners_and_conflicts(results)
    assert len(winners) == 1 and len(conflicts) == WRITERS - 1
    assert all(c.expected == 1 and c.actual == 2 for c in conflicts)
    stored = await storage.get_game(game.id)
    assert stored == winners[0] and len(stored.moves) == 1 and stored.version == 2


async def test_fifty_appends_on_one_version_two_storages_on_one_database(
    storage: Storage, make_game: MakeGame, database: str, clock: FakeClock
) -> None:
    game = await make_game()
    async with await open_storage(database, clock=clock) as other:
        for round_ in range(5):
            results = await asyncio.gather(
                *(
                    (storage if i % 2 else other).append_move(
                        game.id, game.version, NewMove(f"r{round_}m{i}", "x", "w")
                    )
                    for i in range(WRITERS)
                ),
                return_exceptions=True,
            )
            winners, conflicts = winners_and_conflicts(results)
            assert len(winners) == 1 and len(conflicts) == WRITERS - 1
            game = winners[0]
            assert len(game.moves) == round_ + 1
        # Both instances agree on the exact history: no lost or duplicated plies.
        theirs = await other.get_game(game.id)
    ours = await storage.get_game(game.id)
    assert ours == theirs == game
    assert [m.ply for m in ours.moves] == [1, 2, 3, 4, 5]


async def test_racing_moves_and_a_resignation(
    storage: Storage, make_game: MakeGame, database: str, clock: FakeClock
) -> None:
    game = await make_game()
    async with await open_storage(database, clock=clock) as other:
        results = await asyncio.gather(
            storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w")),
            other.update_game(
                game.id,
                game.version,
                GameChanges(status="finished", result="0-1", reason="resign"),
            ),
            return_exceptions=True,
        )
    winners, _ = winners_and_conflicts(results)
    assert len(winners) == 1
    stored = await storage.get_game(game.id)
    assert stored == winners[0]
    assert (stored.status == "finished") == (stored.moves == ())


async def test_racing_challenges_in_one_channel(
    storage: Storage, alice: Player, bob: Player, database: str, clock: FakeClock
) -> None:
    async with await open_storage(database, clock=clock) as other:

        async def attempt(i: int) -> Game:
            return await (storage if i % 2 else other).create_game(
                challenge(alice if i % 2 else bob, channel="Cgroup")
            )

        results = await asyncio.gather(*(attempt(i) for i in range(20)), return_exceptions=True)
    games = [r for r in results if isinstance(r, Game)]
    busy = [r for r in results if isinstance(r, ChannelBusy)]
    assert len(games) == 1 and len(busy) == 19
    assert {b.game_id for b in busy} == {games[0].id}


async def test_two_games_of_the_same_players_finishing_at_once(
    storage: Storage, alice: Player, bob: Player, make_game: MakeGame, database: str,
    clock: FakeClock,
) -> None:
    """Both rate Alice and Bob, in opposite orders, through two instances: one finishes, the
    other's ratings are stale (VersionConflict); never a deadlock, never both. The first round
    races to add both players' first Makruk ratings."""
    first = await make_game(channel="one", rated=True)
    second = await make_game(channel="two", rated=True)
    finished = GameChanges(status="finished", result="1-0", reason="resign")
    async with await open_storage(database, clock=clock) as other:
        for _ in range(10):
            white, black = (await storage.get_rating(alice.id, "makruk"),
                            await storage.get_rating(bob.id, "makruk"))
            for_white = RatingUpdate.after_game(white, 1510.0, 300.0, 0.06)
            for_black = RatingUpdate.after_game(black, 1490.0, 300.0, 0.06)
            results = await asyncio.gather(
                storage.update_game(first.id, first.version, finished, ratings=[for_white, for_black]),
                other.update_game(second.id, second.version, finished, ratings=[for_black, for_white]),
                return_exceptions=True,
            )
            winners, conflicts = winners_and_conflicts(results)
            assert len(winners) == len(conflicts) == 1
            assert conflicts[0].what.startswith("makruk rating of player")
            # Play the won game on, so that the next round races again.
            winner = winners[0]
            await storage.update_game(winner.id, winner.version, GameChanges(status="active", result=None))
            first, second = await storage.get_game(first.id), await storage.get_game(second.id)
        assert (await storage.get_rating(alice.id, "makruk")).games_played == 10
