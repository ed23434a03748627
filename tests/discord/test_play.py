"""Playing through slash commands and components: real command tree, real service, fake HTTP."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from bot.i18n import Catalog
from storage.records import ChannelSettings

from .fakes import FakeDiscord
from .payloads import ALICE, BOB, BOT_PERMISSIONS, CAROL, CHANNEL_ID, GUILD_ID, MAKRUK, thread_channel

TEXTS = Catalog.load()
NO_THREADS = BOT_PERMISSIONS & ~(1 << 35)  # without Create Public Threads


async def start_game(api: FakeDiscord) -> dict:
    """alice challenges bob, bob accepts with the button; returns the game's thread."""
    await api.slash(ALICE, "new", opponent=BOB)
    challenge = api.sent[-1]
    await api.click(BOB, challenge, "makruk:btn:accept")
    header = next(s for s in api.sent if s.kind == "followup")
    assert header.message is not None
    return api.channels[int(header.message["id"])]  # a thread started on a message has its id


async def test_a_challenge_carries_buttons_and_accepting_opens_a_thread_with_the_board(bot, discord_api, storage):
    api = discord_api
    await api.slash(ALICE, "new", opponent=BOB)
    [challenge] = api.sent
    assert challenge.kind == "respond" and not challenge.ephemeral
    assert "alice challenges bob" in challenge.text
    assert challenge.custom_ids == ["makruk:btn:accept", "makruk:btn:decline"]
    assert challenge.embeds[0]["footer"]["text"] == "Challenge #1"

    api.clear()
    await api.click(BOB, challenge, "makruk:btn:accept")
    assert api.kinds()[0] == "defer"  # a component is acknowledged silently first
    header = next(s for s in api.sent if s.kind == "followup")
    assert header.channel == CHANNEL_ID and not header.ephemeral and "Game #1" in header.text
    thread = next(s for s in api.sent if s.kind == "thread")
    assert thread.json["name"].startswith("Makruk #1 ") and thread.json["auto_archive_duration"] == 10080
    thread_id = int(header.message["id"])  # the thread hangs on the header
    [board] = api.boards()
    assert board.kind == "message" and board.channel == thread_id
    embed = board.embeds[0]
    assert embed["image"]["url"] == "attachment://board.png"
    assert "The game begins" in embed["description"] and "alice (White) to move" in embed["description"]
    assert embed["footer"]["text"] == "Game #1 · alice vs bob · move 1"
    assert board.files[0][1].startswith(b"\x89PNG")
    assert board.custom_ids[0] == "makruk:pick:piece"
    assert {"makruk:btn:resign", "makruk:btn:draw", "makruk:btn:flip"} <= set(board.custom_ids)
    assert "makruk:btn:count" not in board.custom_ids  # the service offers no count at the start
    pieces = board.component("makruk:pick:piece")["options"]
    assert len(pieces) == 16  # in Makruk every piece can move at the start; a side never has more
    assert next(o for o in pieces if o["value"] == "b1")["label"] == "Ma b1"
    cleared = next(s for s in api.sent if s.kind == "edit_original")
    assert cleared.json["components"] == []  # the answered challenge loses its buttons
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game.status == "active" and game.community == str(GUILD_ID)


async def test_commands_in_the_thread_find_the_channel_game(bot, discord_api, storage):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    await api.slash(ALICE, "move", channel=thread, move="e3e4")
    [answer] = [s for s in api.sent if s.is_message]
    assert answer.channel == int(thread["id"]) and not answer.ephemeral
    assert "alice played e4" in answer.text and answer.files[0][0] == "board.png"
    assert "bob (Black) to move" in answer.text
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert [m.uci for m in game.moves] == ["e3e4"]
    assert await storage.active_game("discord", thread["id"]) is None  # no second game key


async def test_not_your_turn_and_not_playing_are_shown_only_to_the_actor(bot, discord_api, storage):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    await api.slash(BOB, "move", channel=thread, move="e6e5")
    await api.slash(CAROL, "move", channel=thread, move="e3e4")
    await api.slash(CAROL, "resign", channel=thread)
    assert [s.kind for s in api.sent] == ["respond"] * 3  # quick refusals: no "thinking…" first
    assert all(s.ephemeral for s in api.sent)
    assert [s.text for s in api.sent] == ["It is not your turn.", "You are not playing in this game.",
                                          "You are not playing in this game."]
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game.moves == ()


async def test_a_slow_command_is_deferred_and_a_private_refusal_replaces_the_thinking_message(bot, discord_api):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    await api.slash(ALICE, "move", channel=thread, move="e3e5")  # alice is to move: the engine could answer
    assert api.kinds() == ["defer", "delete_original", "followup"]
    assert api.sent[0].json == {"type": 5}  # a public "thinking…"
    assert api.sent[-1].ephemeral and "cannot move like that" in api.sent[-1].text


async def test_playing_the_bot_defers_first_and_only_the_latest_board_offers_moves(bot, discord_api, storage):
    api = discord_api
    await api.slash(ALICE, "new", bot=2, colour="black")
    assert api.sent[0].kind == "defer" and api.sent[0].json == {"type": 5}
    header = next(s for s in api.sent if s.kind == "followup")
    assert "Game #1" in header.text and not header.ephemeral  # it fills the thinking message
    started, moved = api.boards()
    assert "makruk:pick:piece" not in started.custom_ids
    assert "makruk:pick:piece" in moved.custom_ids and "Bot (2) played" in moved.text
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game.white.is_engine and game.white.engine_level == 2 and len(game.moves) == 1


async def test_challenging_the_bot_user_itself_means_playing_the_bot(bot, discord_api, storage):
    await discord_api.slash(ALICE, "new", opponent=MAKRUK)
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game.status == "active" and game.black.is_engine and game.black.engine_level == 1


async def test_new_options_reach_the_service(bot, discord_api, storage):
    await discord_api.slash(ALICE, "new", opponent=BOB, colour="black", promotion="optional",
                            perpetual="perpetual-draw", time="1h", rated=False)
    game = await storage.active_game("discord", str(CHANNEL_ID))
    bob = await storage.find_player("discord", str(BOB.id))
    assert game.white.player_id == bob.id and game.promotion == "optional" and game.perpetual == "draw"
    assert game.move_seconds == 3600 and not game.rated


async def test_a_live_clock_is_a_choice_of_the_time_option(bot, discord_api, storage):
    await discord_api.slash(ALICE, "new", opponent=BOB, time="3+2")
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game.time_control is not None and (game.time_control.initial, game.time_control.increment) == (180, 2)


async def test_tap_to_move_picks_a_piece_privately_then_plays_the_destination(bot, discord_api, storage):
    api = discord_api
    await start_game(api)
    [board] = api.boards()
    api.clear()
    await api.click(BOB, board, "makruk:pick:piece", values=["b1"])
    assert [s.kind for s in api.sent] == ["defer", "followup"] and api.sent[-1].ephemeral
    assert api.sent[-1].text == "It is not your turn."

    api.clear()
    await api.click(ALICE, board, "makruk:pick:piece", values=["b1"])
    assert api.sent[0].json == {"type": 5, "data": {"flags": 64}}  # a private "thinking…"
    picker = api.sent[-1]
    assert picker.kind == "followup" and picker.files[0][0] == "board.png"
    options = picker.component("makruk:dest:b1")["options"]
    assert [(o["label"], o["value"], o["description"]) for o in options] == [("Nd2 · ม-ง๒", "b1d2", "b1d2")]

    api.clear()
    await api.click(ALICE, picker, "makruk:dest:b1", values=["b1d2"])
    played = next(s for s in api.boards())
    assert not played.ephemeral and "alice played Nd2" in played.text
    assert api.sent[-1].kind == "edit_original" and api.sent[-1].json["components"] == []
    # the new board offers Black's pieces: whoever is to move can tap straight away
    assert "makruk:pick:piece" in played.custom_ids
    assert {o["value"] for o in played.component("makruk:pick:piece")["options"]} >= {"b8", "g8", "e6"}
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert [m.uci for m in game.moves] == ["b1d2"]


async def test_buttons_flip_privately_and_resign_publicly(bot, discord_api, storage):
    api = discord_api
    await start_game(api)
    [board] = api.boards()
    api.clear()
    await api.click(CAROL, board, "makruk:btn:flip")
    [flipped] = api.boards()
    assert flipped.ephemeral and flipped.files[0][1].endswith(b"flipped")

    api.clear()
    await api.click(BOB, board, "makruk:btn:draw")
    [offer] = api.boards()
    assert not offer.ephemeral and "bob offers a draw" in offer.text

    api.clear()
    await api.click(CAROL, board, "makruk:btn:resign")
    assert [s.ephemeral for s in api.sent if s.is_message] == [True]

    api.clear()
    await api.click(ALICE, board, "makruk:btn:resign")
    [over] = api.boards()
    assert not over.ephemeral and "bob (Black) wins" in over.text and over.custom_ids == []
    assert over.embeds[0]["footer"]["text"] == "Game #1 · alice vs bob · 0-1"
    assert await storage.active_game("discord", str(CHANNEL_ID)) is None


async def test_a_board_asked_for_in_the_parent_channel_goes_to_the_thread(bot, discord_api):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    await api.slash(ALICE, "board")
    [board] = api.boards()
    assert board.channel == int(thread["id"])
    pointer = api.sent[-1]
    assert pointer.kind == "respond" and pointer.ephemeral and f"<#{thread['id']}>" in pointer.text


async def test_without_thread_permission_everything_stays_in_the_channel(bot, discord_api):
    api = discord_api
    await api.slash(ALICE, "new", bot=1, app_permissions=NO_THREADS)
    assert "thread" not in api.kinds()
    assert all(s.channel == CHANNEL_ID for s in api.boards())


async def test_in_a_user_thread_the_thread_is_the_channel(bot, discord_api, storage):
    api = discord_api
    theirs = thread_channel(555000000000000001, CHANNEL_ID, "our makruk corner", owner_id=ALICE.id)
    await api.slash(ALICE, "new", bot=1, channel=theirs)
    assert "thread" not in api.kinds()
    assert await storage.active_game("discord", theirs["id"]) is not None


async def test_direct_messages_play_in_the_dm(bot, discord_api, storage):
    api = discord_api
    await api.slash(ALICE, "new", bot=1, dm=True)
    dm_id = ALICE.id + 1
    assert "thread" not in api.kinds() and {s.channel for s in api.boards()} == {dm_id}
    game = await storage.active_game("discord", str(dm_id))
    assert game.community == str(dm_id)


async def test_autocomplete_offers_the_players_legal_moves_in_three_notations(bot, discord_api):
    api = discord_api
    thread = await start_game(api)
    legal = await bot.door.games.move_choices("discord", str(CHANNEL_ID), bot.door.user(_user(bot, ALICE)))
    everything = await api.autocomplete(ALICE, "move", "move", "", channel=thread)
    assert len(everything) == min(len(legal), 25) > 0
    knights = await api.autocomplete(ALICE, "move", "move", "N", channel=thread)
    assert {"name": "Nd2 · ม-ง๒ · b1d2", "value": "b1d2"} in knights
    assert all(c["name"].startswith("N") for c in knights)
    assert [c["value"] for c in await api.autocomplete(ALICE, "move", "move", "ม-ง2", channel=thread)] == ["b1d2"]
    assert [c["value"] for c in await api.autocomplete(ALICE, "move", "move", "b1", channel=thread)] == ["b1d2"]
    assert [c["value"] for c in await api.autocomplete(ALICE, "move", "move", "จ๔", channel=thread)] == ["e3e4"]
    assert await api.autocomplete(BOB, "move", "move", "", channel=thread) == []


async def test_history_export_rating_top_and_help(bot, discord_api):
    api = discord_api
    thread = await start_game(api)
    await api.slash(ALICE, "move", channel=thread, move="e3e4")
    api.clear()
    await api.slash(BOB, "history", channel=thread, notation="thai")
    assert "จ๔" in api.sent[-1].text
    await api.slash(BOB, "export", channel=thread)
    export = api.sent[-1]
    assert export.files[0][0] == "makruk.pgn" and b'[White "alice"]' in export.files[0][1]
    await api.slash(CAROL, "rating", channel=thread, player=BOB)
    assert api.sent[-1].text.startswith("bob: rating 1500")
    await api.slash(CAROL, "top", channel=thread)
    assert "No rated games" in api.sent[-1].text
    await api.slash(CAROL, "top", channel=thread, variant="sittuyin")
    assert api.sent[-1].text == "No rated games of Sittuyin have been finished here yet."
    await api.slash(CAROL, "rating", channel=thread, player=BOB, variant="cambodian")
    assert api.sent[-1].text.startswith("bob: Ouk Chatrang rating 1500")
    await api.slash(CAROL, "help", channel=thread, locale="ja")
    assert "マークルック" in api.sent[-1].text
    assert not any(s.ephemeral for s in api.sent)


async def test_replies_follow_the_users_locale_unless_the_channel_set_a_language(bot, discord_api, storage):
    api = discord_api
    await api.slash(CAROL, "accept", locale="th")
    assert api.sent[-1].text == TEXTS.text("th", "error.no_game")
    await storage.set_channel_settings(ChannelSettings("discord", str(CHANNEL_ID), "ja", None, None, None, None, None))
    await api.slash(CAROL, "accept", locale="th")
    assert api.sent[-1].text == TEXTS.text("ja", "error.no_game")


async def test_lang_needs_manage_server(bot, discord_api, storage):
    api = discord_api
    await api.slash(ALICE, "lang", group="makruk-server", language="th", locale="ja")
    [refusal] = api.sent
    assert refusal.ephemeral and "サーバー管理" in refusal.text
    assert (await storage.get_channel_settings("discord", str(CHANNEL_ID))).language is None

    manager = (1 << 5) | (1 << 31)  # Manage Server, Use Application Commands
    await api.slash(ALICE, "lang", group="makruk-server", language="th", permissions=manager)
    assert api.sent[-1].text == TEXTS.text("th", "language_set")
    assert (await storage.get_channel_settings("discord", str(CHANNEL_ID))).language == "th"


@pytest.mark.parametrize("render", [None])  # the real renderer
async def test_the_board_is_a_real_png_attachment(bot, discord_api, render):
    await discord_api.slash(ALICE, "new", bot=1, dm=True)
    name, data = discord_api.boards()[-1].files[0]
    with Image.open(io.BytesIO(data)) as image:
        assert name == "board.png" and image.format == "PNG" and min(image.size) >= 400


def _user(bot, person):
    return discord.User(state=bot._connection, data=person.user())
