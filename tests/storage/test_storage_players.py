"""Players: creation per platform, names and languages, atomic rating updates, leaderboards."""

from __future__ import annotations

import pytest

from storage import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    INITIAL_VOLATILITY,
    UNCHANGED,
    GameChanges,
    NotFound,
    Player,
    RatingUpdate,
    Seat,
    SqliteStorage,
    VersionConflict,
)

from .storage_helpers import FakeClock, MakeGame


async def test_new_player_starts_with_glicko_defaults(
    storage: SqliteStorage, clock: FakeClock
) -> None:
    player = await storage.get_or_create_player("line", "Uabc", "Nok")
    assert (player.platform, player.user_id, player.display_name) == ("line", "Uabc", "Nok")
    assert (player.rating, player.deviation, player.volatility) == (
        INITIAL_RATING,
        INITIAL_DEVIATION,
        INITIAL_VOLATILITY,
    )
    assert player.games_played == 0 and player.language is None
    assert player.created == player.updated == clock.now


async def test_get_or_create_returns_the_same_player_and_keeps_the_name_current(
    storage: SqliteStorage, clock: FakeClock
) -> None:
    first = await storage.get_or_create_player("discord", "1", "Somchai")
    clock.advance(60)
    assert await storage.get_or_create_player("discord", "1", "Somchai") == first
    renamed = await storage.get_or_create_player("discord", "1", "Somchai K.")
    assert renamed.id == first.id and renamed.display_name == "Somchai K."
    assert renamed.updated == clock.now and renamed.created == first.created
    other_platform = await storage.get_or_create_player("line", "1", "Somchai")
    assert other_platform.id != first.id


async def test_get_and_find_player(storage: SqliteStorage, alice: Player) -> None:
    assert await storage.get_player(alice.id) == alice
    assert await storage.find_player("discord", alice.user_id) == alice
    assert await storage.find_player("line", alice.user_id) is None
    with pytest.raises(NotFound):
        await storage.get_player(12345)


async def test_get_players_reads_several_at_once(storage: SqliteStorage, alice: Player, bob: Player) -> None:
    assert await storage.get_players([bob.id, alice.id, 12345, alice.id]) == {alice.id: alice, bob.id: bob}
    assert await storage.get_players([]) == {}


async def test_update_player_name_and_language(storage: SqliteStorage, alice: Player) -> None:
    spoken = await storage.update_player(alice.id, language="th")
    assert (spoken.display_name, spoken.language) == ("Alice", "th")
    renamed = await storage.update_player(alice.id, display_name="Alicia", language=UNCHANGED)
    assert (renamed.display_name, renamed.language) == ("Alicia", "th")
    reset = await storage.update_player(alice.id, language=None)
    assert reset.language is None
    with pytest.raises(NotFound):
        await storage.update_player(999, language="ja")


async def test_update_ratings_applies_all_at_once(
    storage: SqliteStorage, alice: Player, bob: Player
) -> None:
    updated = await storage.update_ratings(
        [
            RatingUpdate.after_game(alice, 1600.5, 290.0, 0.059),
            RatingUpdate.after_game(bob, 1399.5, 291.0, 0.061),
        ]
    )
    assert [(p.id, p.rating, p.games_played) for p in updated] == [
        (alice.id, 1600.5, 1),
        (bob.id, 1399.5, 1),
    ]
    assert await storage.get_player(bob.id) == updated[1]


async def test_a_stale_rating_update_applies_none(
    storage: SqliteStorage, alice: Player, bob: Player
) -> None:
    await storage.update_ratings([RatingUpdate.after_game(bob, 1450.0, 300.0, 0.06)])
    with pytest.raises(VersionConflict) as conflict:
        await storage.update_ratings(
            [
                RatingUpdate.after_game(alice, 1550.0, 300.0, 0.06),
                RatingUpdate.after_game(bob, 1400.0, 290.0, 0.06),  # computed from games_played 0
            ]
        )
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    assert await storage.get_player(alice.id) == alice
    with pytest.raises(NotFound):
        await storage.update_ratings([RatingUpdate(999, 0, 1500.0, 350.0, 0.06)])


async def test_top_players_by_platform_and_community(
    storage: SqliteStorage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    carol = await storage.get_or_create_player("discord", "300", "Carol")
    dave = await storage.get_or_create_player("discord", "400", "Dave")  # never played
    await storage.get_or_create_player("line", "U9", "Eve")
    for player, rating in [(alice, 1700.0), (bob, 1500.0), (carol, 1800.0)]:
        await storage.update_ratings([RatingUpdate.after_game(player, rating, 200.0, 0.06)])

    assert [p.display_name for p in await storage.top_players("discord")] == [
        "Carol",
        "Alice",
        "Bob",
    ]
    assert [p.display_name for p in await storage.top_players("discord", limit=1)] == ["Carol"]
    assert dave.id in [p.id for p in await storage.top_players("discord", min_games=0)]
    assert await storage.top_players("discord", min_games=2) == []

    # Alice and Bob finished a game in guild-1; Carol played in another guild.
    for white, black, community in [(alice, bob, "guild-1"), (carol, bob, "guild-2")]:
        game = await make_game(
            channel=f"c-{community}",
            community=community,
            white=Seat.human(white.id),
            black=Seat.human(black.id),
        )
        await storage.update_game(
            game.id, game.version, GameChanges(status="finished", result="1-0", reason="resign")
        )
    await make_game(channel="unfinished", community="guild-3")
    assert [p.display_name for p in await storage.top_players("discord", community="guild-1")] == [
        "Alice",
        "Bob",
    ]
    assert await storage.top_players("discord", community="guild-3") == []
