"""Text commands: where Discord still shows a bot the text (mentions of the bot, DMs)."""

from __future__ import annotations

from dataclasses import replace

from storage import Game, NewBoard, NewGame, NewRound, NewTournament, Seat

from .payloads import ALICE, BOB, BOT_ID, CHANNEL_ID, MAKRUK, dm_channel
from .test_play import start_game

MENTION = f"<@{BOT_ID}>"


async def test_a_mention_in_the_game_thread_plays_a_move(bot, discord_api, storage):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    await api.say(ALICE, f"{MENTION} e3e4", channel=thread, mentions=(MAKRUK,))
    assert api.kinds()[0] == "typing"
    [board] = api.boards()
    assert board.channel == int(thread["id"]) and "alice played e4" in board.text
    assert board.json["message_reference"]["message_id"]  # answered as a reply to the message
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert [m.uci for m in game.moves] == ["e3e4"]


async def test_a_game_thread_missing_from_the_cache_still_finds_its_game(bot, discord_api, storage):
    thread = await start_game(discord_api)
    await discord_api.say(ALICE, f"{MENTION} e3e4", channel=thread, mentions=(MAKRUK,), partial=True)
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert [m.uci for m in game.moves] == ["e3e4"]


async def test_a_refusal_by_mention_is_a_plain_reply(bot, discord_api):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    await api.say(BOB, f"{MENTION} e6e5", channel=thread, mentions=(MAKRUK,))
    [refusal] = [s for s in api.sent if s.kind == "message"]
    assert refusal.text == "It is not your turn." and not refusal.ephemeral


async def test_other_users_mentioned_become_the_opponent(bot, discord_api, storage):
    api = discord_api
    await api.say(ALICE, f"{MENTION} new <@{BOB.id}> black",
                  mentions=(MAKRUK, BOB))
    [challenge] = [s for s in api.sent if s.kind == "message"]
    assert "alice challenges bob" in challenge.text and "makruk:btn:accept" in challenge.custom_ids
    game = await storage.active_game("discord", str(CHANNEL_ID))
    bob = await storage.find_player("discord", str(BOB.id))
    assert game.status == "challenge" and game.white.player_id == bob.id


async def test_messages_that_do_not_mention_the_bot_are_left_alone(bot, discord_api):
    await discord_api.say(ALICE, "")  # Discord sends no content without the message-content intent
    await discord_api.say(ALICE, "new bot")  # ... and if it did, this is not for the bot
    assert discord_api.sent == []


async def test_a_bare_mention_answers_with_help(bot, discord_api):
    await discord_api.say(ALICE, MENTION, mentions=(MAKRUK,))
    assert "Makruk bot commands" in discord_api.sent[-1].text


async def test_direct_messages_need_no_mention(bot, discord_api, storage):
    api = discord_api
    dm = dm_channel(ALICE)
    await api.say(ALICE, "new bot", channel=dm)
    assert "thread" not in api.kinds()
    assert [s.channel for s in api.boards()] == [int(dm["id"])]
    assert await storage.active_game("discord", dm["id"]) is not None


async def test_a_game_started_by_mention_in_a_channel_moves_to_a_thread(bot, discord_api):
    api = discord_api
    await api.say(ALICE, f"{MENTION} new bot", mentions=(MAKRUK,))
    header = next(s for s in api.sent if s.kind == "message")
    assert header.channel == CHANNEL_ID and "Game #1" in header.text
    assert "thread" in api.kinds()
    assert {s.channel for s in api.boards()} == {int(header.message["id"])}


async def test_typed_server_settings_need_manage_server_too(bot, discord_api, storage):
    for text in ("lang th", "ภาษา ja", "subscribe 09:00", "unsubscribe"):
        discord_api.clear()
        await discord_api.say(ALICE, f"{MENTION} {text}", mentions=(MAKRUK,))
        assert "Manage Server" in discord_api.sent[-1].text, text
    settings = await storage.get_channel_settings("discord", str(CHANNEL_ID))
    assert settings.language is None


async def test_a_message_in_a_game_thread_is_about_that_game(bot, discord_api, storage):
    """Alice also plays a game of the chat's tournament, which a message elsewhere would be
    about: in the casual game's thread, her move is the casual game's."""
    thread = await start_game(discord_api)  # Alice (White) against Bob
    casual = await storage.active_game("discord", str(CHANNEL_ID))
    alice = await storage.find_player("discord", str(ALICE.id))
    carol = await storage.get_or_create_player("discord", "999", "carol")
    event = await storage.create_tournament(NewTournament(
        platform="discord", channel=str(CHANNEL_ID), salt="abcdef", pairing_system="swiss", variant="makruk",
        rated=False, created_by=alice.id, move_seconds=86400, rounds=3))
    board = NewBoard(1, alice.id, carol.id, game=replace(casual_new(casual), black=Seat.human(carol.id)))
    _, [other] = await storage.store_round(event.id, event.version, NewRound(number=1, boards=(board,)))
    await discord_api.say(ALICE, f"{MENTION} e3e4", channel=thread, mentions=(MAKRUK,))
    assert [m.uci for m in (await storage.get_game(casual.id)).moves] == ["e3e4"]
    assert (await storage.get_game(other.id)).moves == ()


def casual_new(game: Game) -> NewGame:
    """A new game like `game`."""
    return NewGame(platform=game.platform, channel=game.channel, community=game.community, white=game.white,
                   black=game.black, start_fen=game.start_fen, promotion=game.promotion, perpetual=game.perpetual,
                   move_seconds=game.move_seconds)
