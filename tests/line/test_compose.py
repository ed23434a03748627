"""How replies become LINE messages: the five-message limit, labels, mentions, command words."""

from __future__ import annotations

import io

from linebot.v3.webhooks import GroupSource, RoomSource, UserSource  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed
from PIL import Image

from bot.adapters.line.handler import _span, place_of
from bot.adapters.line.push import target_of
from bot.adapters.line.replies import Chat
from bot.commands import parse_command
from bot.i18n import LANGUAGES
from bot.messages import Action, Incoming, Reply, User

from .support import ALICE, BOB, BOT_ID, GROUP, png_size, texts


def dump(messages) -> list[dict]:
    return list(messages)  # the Messaging API's JSON objects already


async def test_more_than_five_texts_are_merged_and_the_board_comes_last(line):
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "accept", group=GROUP)
    (board_reply,) = await line.app.games.handle(Incoming("line", f"group:{GROUP}", User(BOB, "Bob"), "board"))
    many = [Reply(kind="info", text=f"line {i}", language="th") for i in range(7)] + [board_reply]
    messages = dump(await line.door.composer.messages(many, Chat(f"group:{GROUP}", False), answered=None))
    assert len(messages) == 2 and messages[-1]["type"] == "image"
    assert messages[0]["text"].startswith("line 0\n\nline 1") and "line 6" in messages[0]["text"]
    few = dump(await line.door.composer.messages(many[:3], Chat(f"group:{GROUP}", False), answered=None))
    assert [m["text"] for m in few] == ["line 0", "line 1", "line 2"]
    huge = [Reply(kind="export", text="x" * 12000, language="th")] * 6
    parts = dump(await line.door.composer.messages(huge, Chat("user:U1", True), answered=None))
    assert len(parts) <= 5 and all(len(p["text"]) <= 5000 for p in parts)


async def test_quick_replies_keep_to_thirteen_short_labels_and_send_words_the_service_reads(line):
    composer = line.door.composer
    actions = tuple(Action("resign", f"a very long label number {i}") for i in range(20))
    quick = composer.quick_reply(actions, "th")
    assert len(quick["items"]) == 13 and all(len(i["action"]["label"]) <= 20 for i in quick["items"])
    catalog = line.app.games.catalog
    for language in LANGUAGES:
        for command in ("accept", "decline", "board", "count", "stopcount", "draw", "undo", "resign", "select"):
            word = composer.command_text(command, language)
            parsed = parse_command(word, catalog)
            assert parsed is not None and parsed.name == command, (language, command, word)
    assert composer.command_text("resign", "th") == "ยอมแพ้" and composer.command_text("resign", "en") == "resign"
    assert composer.command_text("resign", "km") == "ចុះចាញ់"


async def test_mentions_become_line_mentions_in_groups_only(line):
    reply = Reply(kind="info", text="Bob Builder, it is your move", language="en",
                  mentions=(User(BOB, "Bob Builder"),))
    (group,) = dump(await line.door.composer.messages([reply], Chat(f"group:{GROUP}", False), answered=None))
    assert group["type"] == "textV2" and group["text"] == "{m0}, it is your move"
    (alone,) = dump(await line.door.composer.messages([reply], Chat(f"user:{BOB}", True), answered=None))
    assert alone == {"type": "text", "text": "Bob Builder, it is your move"}
    other = Reply(kind="info", text="your move", language="en", mentions=(User(BOB, "Bob"),))
    (prefixed,) = dump(await line.door.composer.messages([other], Chat(f"group:{GROUP}", False), answered=None))
    assert prefixed["text"] == "{m0} your move"


async def test_mentions_in_text_become_words_the_service_reads(line):
    mentions = {"@Makruk😀": BOT_ID, "@Bob Builder": BOB}  # an emoji counts twice in LINE's indexes
    replies = await line.say(ALICE, "@Makruk😀 new @Bob Builder black", group=GROUP, mentions=mentions)
    assert texts(replies).startswith("Alice ท้า Bob Builder")
    game = await line.app.storage.active_game("line", f"group:{GROUP}")
    bob = await line.app.storage.find_player("line", BOB)
    assert game.white.player_id == bob.id  # "black" reached the service as Alice's colour


def test_mention_spans_count_utf16_units_like_line():
    text = "😀 @Bob hi"
    assert _span(text, 3, 4) == (2, 6)  # LINE counts the emoji as two units
    assert _span("@Bob hi", 0, 4) == (0, 4)
    assert _span("no mention", 3, 4) is None


def test_channel_keys_name_the_chat_kind():
    user = place_of(UserSource(user_id="U1"))
    assert user is not None and user.channel == "user:U1"
    group = place_of(GroupSource(group_id="C9", user_id="U1"))
    assert group is not None
    assert (group.channel, group.target, group.community, group.one_to_one) == ("group:C9", "C9", "C9", False)
    room = place_of(RoomSource(room_id="R5", user_id="U1"))
    assert room is not None and room.channel == "room:R5"
    assert place_of(UserSource()) is None
    assert target_of("room:R5") == "R5" and target_of("user:U1") == "U1"


async def test_pictures_without_a_board_get_a_shrunk_preview(line):
    card = io.BytesIO()
    Image.new("RGB", (600, 800), "white").save(card, "PNG")
    reply = Reply(kind="puzzle", text="ปริศนาประจำวัน", language="th", image=card.getvalue())
    text, picture = dump(await line.door.composer.messages([reply], Chat(f"group:{GROUP}", False), answered=None))
    assert text["text"] == "ปริศนาประจำวัน" and picture["type"] == "image"
    status, kind, original = await line.fetch(picture["originalContentUrl"])
    assert status == 200 and kind == "image/png" and original == card.getvalue()
    status, kind, preview = await line.fetch(picture["previewImageUrl"])
    assert status == 200 and png_size(preview) == (240, 320)


async def test_composed_messages_are_what_the_sdks_own_models_would_send(line):
    # The door writes the Messaging API's JSON itself (api.py): each message must read back
    # through the SDK's models unchanged, field names and nesting included.
    from linebot.v3.messaging import Message, QuickReply  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

    composer = line.door.composer
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "accept", group=GROUP)
    game = await line.app.games.handle(Incoming("line", f"group:{GROUP}", User(ALICE, "Alice"), "board",
                                                pictures=False))
    mention = Reply(kind="info", text="Bob Builder, it is your move", language="en",
                    mentions=(User(BOB, "Bob Builder"),),
                    actions=(Action("resign", "Resign"), Action("board", "Board")))
    for replies, answered in (([mention], None), (game, User(ALICE, "Alice")), (game, None)):
        messages = await composer.messages(replies, Chat(f"group:{GROUP}", False), answered=answered)
        assert messages
        for message in messages:
            assert Message.from_dict(message).to_dict() == message, message
    types = {m["type"] for r, a in (([mention], None), (game, User(ALICE, "Alice")), (game, None))
             for m in await composer.messages(r, Chat(f"group:{GROUP}", False), answered=a)}
    assert types == {"textV2", "text", "imagemap", "image"}
    quick = composer.quick_reply(mention.actions, "en")
    assert QuickReply.from_dict(quick).to_dict() == quick
