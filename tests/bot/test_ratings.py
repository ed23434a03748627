"""Ratings per variant through the game service: a game moves its own variant's ratings only,
``rating`` and ``top`` show Makruk's unless a variant is named, a word that names none is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.i18n import Catalog
from bot.services.games.ratings import rating_updates
from bot.services.games.variants import VARIANTS
from storage import GameChanges, RatingUpdate, Storage
from storage.records import NewGame, Seat

MAKRUK_START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
SITTUYIN_DEPLOYED = "r1s1k3/1s3r2/n3fn2/pppppppp/PPPPPPPP/2NF3N/2R3S1/3K1S1R w - - 0 1"


def game_over() -> GameChanges:
    return GameChanges(status="finished", result="1-0", reason="resign")


async def seed_game(storage: Storage, clock, *, variant: str, white: str = "alice", black: str = "bob",
                    fen: str = MAKRUK_START, channel: str = "c1"):
    a = await storage.get_or_create_player("console", white, white)
    b = await storage.get_or_create_player("console", black, black)
    return await storage.create_game(NewGame(
        platform="console", channel=channel, community="guild", variant=variant, white=Seat.human(a.id),
        black=Seat.human(b.id), start_fen=fen, promotion="forced", perpetual="forbid", move_seconds=86400,
        rated=True, created_by=a.id, status="active", deadline=clock.now() + timedelta(days=1),
    ))


async def ratings(storage: Storage, name: str) -> dict[str, tuple[float, int]]:
    player = await storage.find_player("console", name)
    assert player is not None
    return {v: ((r := await storage.get_rating(player.id, v)).rating, r.games_played) for v in VARIANTS}


async def rate(storage: Storage, name: str, variant: str, value: float) -> None:
    player = await storage.get_or_create_player("console", name, name)
    current = await storage.get_rating(player.id, variant)
    await storage.update_ratings([RatingUpdate.after_game(current, value, 200.0, 0.06)])


async def test_a_finished_sittuyin_game_moves_only_sittuyin_ratings(storage, clock):
    game = await seed_game(storage, clock, variant="sittuyin", fen=SITTUYIN_DEPLOYED)
    updates = await rating_updates(storage, game, "1-0")
    assert [u.variant for u in updates] == ["sittuyin", "sittuyin"]
    await storage.update_game(game.id, game.version, game_over(), ratings=updates)
    alice, bob = await ratings(storage, "alice"), await ratings(storage, "bob")
    assert alice.pop("sittuyin")[0] > 1500 > bob.pop("sittuyin")[0]
    assert set(alice.values()) == set(bob.values()) == {(1500.0, 0)}  # every other variant untouched


async def test_a_game_against_the_bot_moves_the_person_s_rating_of_its_variant(storage, clock):
    person = await storage.get_or_create_player("console", "alice", "alice")
    game = await storage.create_game(NewGame(
        platform="console", channel="c1", variant="cambodian", white=Seat.human(person.id), black=Seat.engine(3),
        start_fen=MAKRUK_START, promotion="forced", perpetual="forbid", move_seconds=86400, rated=True,
        status="active",
    ))
    [update] = await rating_updates(storage, game, "0-1")
    assert (update.player_id, update.variant, update.expected_games) == (person.id, "cambodian", 0)


async def test_resigning_a_makpong_game_in_chat_rates_makpong(chat, storage, clock):
    await seed_game(storage, clock, variant="makpong")
    await chat.ok("bob", "resign")
    alice, bob = await ratings(storage, "alice"), await ratings(storage, "bob")
    assert alice["makpong"][0] > 1500 > bob["makpong"][0] and alice["makpong"][1] == bob["makpong"][1] == 1
    assert alice["makruk"] == bob["makruk"] == (1500.0, 0)
    assert "Makpong" in (await chat.ok("alice", "rating makpong"))[0].text
    top = (await chat.ok("carol", "top makpong"))[0].text.splitlines()
    assert top[0] == "Best Makpong players here:" and top[1].startswith("1. alice")
    assert (await chat.ok("carol", "top"))[0].text == Catalog.load().text("en", "top.empty")


async def test_top_shows_makruk_by_default_and_a_variant_s_table_when_named(chat, storage, clock):
    for name, makruk, sittuyin in [("alice", 1700.0, None), ("bob", 1600.0, 1450.0), ("dave", None, 1550.0)]:
        if makruk is not None:
            await rate(storage, name, "makruk", makruk)
        if sittuyin is not None:
            await rate(storage, name, "sittuyin", sittuyin)
    for name, variant in [("alice", "makruk"), ("dave", "sittuyin")]:  # `top` in a chat: who finished a game there
        game = await seed_game(storage, clock, white=name, variant=variant, channel=f"c-{variant}")
        await storage.update_game(game.id, game.version, game_over())

    default = (await chat.ok("carol", "top"))[0].text.splitlines()
    assert default == ["Best players here:", "1. alice 1700 (1)", "2. bob 1600 (1)"]
    assert (await chat.ok("carol", "top makruk"))[0].text.splitlines() == default
    sittuyin = (await chat.ok("carol", "top sittuyin"))[0].text.splitlines()
    assert sittuyin == ["Best Sittuyin players here:", "1. dave 1550 (1)", "2. bob 1450 (1)"]
    for word in ("Sittuyin", "หมากรุกพม่า", "シットゥイン", "ビルマ将棋"):
        assert (await chat.ok("carol", f"top {word}"))[0].text.splitlines()[1:] == sittuyin[1:]
    thai = (await chat.say("carol", "อันดับ หมากรุกพม่า", locale="th"))[0].text
    assert thai.startswith("ผู้เล่น หมากรุกพม่า อันดับสูงสุด")
    empty = (await chat.ok("carol", "top ouk chatrang"))[0]
    assert empty.text == "No rated games of Ouk Chatrang have been finished here yet."
    assert (await chat.ok("carol", "top asean"))[0].kind == "top"


async def test_rating_shows_makruk_by_default_and_a_named_variant(chat, storage):
    await rate(storage, "bob", "makruk", 1612.0)
    await rate(storage, "bob", "cambodian", 1433.0)
    assert (await chat.ok("alice", "rating @bob"))[0].text == "bob: rating 1612 ± 200, rated games: 1."
    assert (await chat.ok("alice", "rating @bob ouk"))[0].text == (
        "bob: Ouk Chatrang rating 1433 ± 200, rated games: 1.")
    assert (await chat.ok("alice", "rating sittuyin"))[0].text == "alice: Sittuyin rating 1500 ± 350, rated games: 0."


@pytest.mark.parametrize("text", ["top chess", "top makruk extra", "rating @bob chess", "top white"])
async def test_a_word_that_names_no_variant_is_refused(chat, storage, text):
    await storage.get_or_create_player("console", "bob", "bob")
    refusal = await chat.refused("alice", text, "bad_variant")
    assert "makpong" in refusal.text and "sittuyin" in refusal.text


async def test_the_refusal_is_in_the_chat_s_language(chat):
    await chat.ok("alice", "lang ja")
    refusal = await chat.refused("alice", "top chess", "bad_variant")
    assert refusal.text == Catalog.load().text("ja", "error.bad_variant", word="chess")
