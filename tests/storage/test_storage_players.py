"""Players: creation per platform, names and languages, atomic rating updates per variant,
leaderboards per variant."""

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
    PlayerRating,
    RatingUpdate,
    Seat,
    SqliteStorage,
    VersionConflict,
)

from .storage_helpers import FakeClock, MakeGame


async def test_new_player_starts_with_glicko_defaults_in_every_variant(
    storage: SqliteStorage, clock: FakeClock
) -> None:
    player = await storage.get_or_create_player("line", "Uabc", "Nok")
    assert (player.platform, player.user_id, player.display_name) == ("line", "Uabc", "Nok")
    assert player.language is None
    assert player.created == player.updated == clock.now
    for variant in ("makruk", "sittuyin"):
        assert await storage.get_rating(player.id, variant) == PlayerRating(
            player.id, variant, INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY, 0
        )
    with pytest.raises(NotFound):
        await storage.get_rating(12345, "makruk")


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


async def rating(storage: SqliteStorage, player: Player, variant: str = "makruk") -> PlayerRating:
    return await storage.get_rating(player.id, variant)


async def test_update_ratings_applies_all_at_once(
    storage: SqliteStorage, alice: Player, bob: Player
) -> None:
    updated = await storage.update_ratings(
        [
            RatingUpdate.after_game(await rating(storage, alice), 1600.5, 290.0, 0.059),
            RatingUpdate.after_game(await rating(storage, bob), 1399.5, 291.0, 0.061),
        ]
    )
    assert updated == [
        PlayerRating(alice.id, "makruk", 1600.5, 290.0, 0.059, 1),
        PlayerRating(bob.id, "makruk", 1399.5, 291.0, 0.061, 1),
    ]
    assert await rating(storage, bob) == updated[1]
    again = await storage.update_ratings([RatingUpdate.after_game(updated[1], 1410.0, 280.0, 0.06)])
    assert again == [PlayerRating(bob.id, "makruk", 1410.0, 280.0, 0.06, 2)]
    assert await storage.get_player(bob.id) == bob  # ratings are not the player's row


async def test_a_stale_rating_update_applies_none(
    storage: SqliteStorage, alice: Player, bob: Player
) -> None:
    alice_before, bob_before = await rating(storage, alice), await rating(storage, bob)
    await storage.update_ratings([RatingUpdate.after_game(bob_before, 1450.0, 300.0, 0.06)])
    with pytest.raises(VersionConflict, match=f"makruk rating of player {bob.id}") as conflict:
        await storage.update_ratings(
            [
                RatingUpdate.after_game(alice_before, 1550.0, 300.0, 0.06),
                RatingUpdate.after_game(bob_before, 1400.0, 290.0, 0.06),  # computed from games_played 0
            ]
        )
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    assert await rating(storage, alice) == alice_before
    stale = RatingUpdate(bob.id, "makruk", 5, 1500.0, 350.0, 0.06)  # ahead of the stored 1
    with pytest.raises(VersionConflict):
        await storage.update_ratings([stale])
    with pytest.raises(VersionConflict):  # no sittuyin rating yet: games_played is 0
        await storage.update_ratings([RatingUpdate(bob.id, "sittuyin", 1, 1500.0, 350.0, 0.06)])
    with pytest.raises(NotFound):
        await storage.update_ratings([RatingUpdate(999, "makruk", 0, 1500.0, 350.0, 0.06)])
    assert await rating(storage, bob, "sittuyin") == PlayerRating.initial(bob.id, "sittuyin")


async def test_each_variant_has_its_own_rating(
    storage: SqliteStorage, alice: Player
) -> None:
    makruk = await rating(storage, alice)
    [makruk] = await storage.update_ratings([RatingUpdate.after_game(makruk, 1600.0, 300.0, 0.06)])
    [sittuyin] = await storage.update_ratings(
        [RatingUpdate.after_game(await rating(storage, alice, "sittuyin"), 1400.0, 310.0, 0.061)]
    )
    assert sittuyin == PlayerRating(alice.id, "sittuyin", 1400.0, 310.0, 0.061, 1)
    assert await rating(storage, alice) == makruk == PlayerRating(alice.id, "makruk", 1600.0, 300.0, 0.06, 1)
    assert await rating(storage, alice, "cambodian") == PlayerRating.initial(alice.id, "cambodian")


async def test_top_players_by_platform_and_community(
    storage: SqliteStorage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    carol = await storage.get_or_create_player("discord", "300", "Carol")
    dave = await storage.get_or_create_player("discord", "400", "Dave")  # never played
    await storage.get_or_create_player("line", "U9", "Eve")
    for player, value in [(alice, 1700.0), (bob, 1500.0), (carol, 1800.0)]:
        await storage.update_ratings([RatingUpdate.after_game(await rating(storage, player), value, 200.0, 0.06)])

    top = await storage.top_players("discord", "makruk")
    assert [(s.player.display_name, s.rating.rating, s.rating.games_played) for s in top] == [
        ("Carol", 1800.0, 1),
        ("Alice", 1700.0, 1),
        ("Bob", 1500.0, 1),
    ]
    assert top[0].player == carol and top[0].rating == await rating(storage, carol)
    assert [s.player.display_name for s in await storage.top_players("discord", "makruk", limit=1)] == ["Carol"]
    everyone = await storage.top_players("discord", "makruk", min_games=0)
    assert [s.rating for s in everyone if s.player == dave] == [PlayerRating.initial(dave.id, "makruk")]
    assert await storage.top_players("discord", "makruk", min_games=2) == []

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
    guild = await storage.top_players("discord", "makruk", community="guild-1")
    assert [s.player.display_name for s in guild] == ["Alice", "Bob"]
    assert await storage.top_players("discord", "makruk", community="guild-3") == []


async def test_top_players_of_a_variant_lists_only_its_ratings(
    storage: SqliteStorage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    carol = await storage.get_or_create_player("discord", "300", "Carol")
    await storage.update_ratings([RatingUpdate.after_game(await rating(storage, carol), 1900.0, 200.0, 0.06)])
    await storage.update_ratings(
        [RatingUpdate.after_game(await rating(storage, alice, "sittuyin"), 1550.0, 250.0, 0.06),
         RatingUpdate.after_game(await rating(storage, bob, "sittuyin"), 1450.0, 250.0, 0.06)]
    )
    sittuyin = await storage.top_players("discord", "sittuyin")
    assert [(s.player.display_name, s.rating.variant, s.rating.rating) for s in sittuyin] == [
        ("Alice", "sittuyin", 1550.0),
        ("Bob", "sittuyin", 1450.0),
    ]
    assert [s.player.display_name for s in await storage.top_players("discord", "makruk")] == ["Carol"]
    assert await storage.top_players("discord", "asean") == []

    # In a community: those who finished a game of that variant there.
    makruk_game = await make_game(channel="m", community="guild-1")
    await storage.update_game(makruk_game.id, makruk_game.version,
                              GameChanges(status="finished", result="1-0", reason="resign"))
    assert await storage.top_players("discord", "sittuyin", community="guild-1") == []
    sittuyin_game = await make_game(channel="s", community="guild-1", variant="sittuyin")
    await storage.update_game(sittuyin_game.id, sittuyin_game.version,
                              GameChanges(status="finished", result="0-1", reason="resign"))
    guild = await storage.top_players("discord", "sittuyin", community="guild-1")
    assert [s.player.display_name for s in guild] == ["Alice", "Bob"]
