"""Playing through LINE: 1:1 against the bot, groups with two players and watchers, rooms, taps."""

from __future__ import annotations

from makruk import parse_square
from renderers import square_box

from .support import (
    ALICE,
    BOB,
    BOT_ID,
    CAROL,
    DAVE,
    GROUP,
    PEOPLE,
    ROOM,
    boards,
    event,
    png_size,
    source,
    texts,
)


def tap(imagemap: dict, text: str, square: str, *, flip: bool) -> str:
    """What LINE sends when ``square`` is tapped: the action over it, which must say ``text``."""
    left, top, right, bottom = square_box(parse_square(square), 1040, flip)
    (action,) = [a for a in imagemap["actions"] if a["area"] == {"x": left, "y": top, "width": right - left,
                                                                    "height": bottom - top}]
    assert action["type"] == "message" and action["text"] == text
    return action["text"]


def quick_replies(messages: list[dict]) -> list[dict]:
    items = [i for m in messages for i in (m.get("quickReply") or {}).get("items", [])]
    assert all("quickReply" not in m for m in messages[:-1]), "only the last message carries quick replies"
    assert len(items) <= 13 and all(len(i["action"]["label"]) <= 20 for i in items)
    return items


async def test_follow_gets_a_short_thai_welcome_with_help_and_unfollow_gets_nothing(line):
    (welcome,) = await line.send(event("follow", source(ALICE), replyToken="follow-token",
                                       follow={"isUnblocked": False}))
    text = texts(welcome)
    assert text.startswith("สวัสดี") and "เริ่ม บอท" in text and "คำสั่งบอทหมากรุกไทย" in text
    assert [i["action"]["text"] for i in quick_replies(welcome)] == ["เริ่ม บอท", "ช่วย"]
    (join,) = await line.send(event("join", source(None, group=GROUP), replyToken="join-token"))
    assert texts(join).startswith("สวัสดี")
    before = len(line.fake.requests)
    assert await line.send(event("unfollow", source(ALICE)), event("leave", source(None, group=GROUP))) == [[], []]
    assert len(line.fake.requests) == before


async def test_one_to_one_game_against_the_bot_by_tapping_the_board(line):
    started = await line.say(ALICE, "เริ่ม บอท")
    assert "เริ่มเกม: Alice (ขาว) พบ Bot" in texts(started)
    (board,) = boards(started)
    assert board["type"] == "imagemap" and board["baseSize"] == {"width": 1040, "height": 1040}
    assert len(board["actions"]) == 16  # every White piece can move at the start
    picked = await line.say(ALICE, tap(board, "เลือก จ3", "e3", flip=False))
    (destinations,) = boards(picked)
    assert destinations["type"] == "imagemap" and "เลือกช่องที่จะเดินไป (มี 1 ช่อง)" in texts(picked)
    assert destinations["actions"][0]["text"] == "e3e4"
    moved = await line.say(ALICE, tap(destinations, "e3e4", "e4", flip=False))
    assert "Alice เดิน จ๔" in texts(moved) and "Bot (1) เดิน" in texts(moved)  # the engine answered too
    assert boards(moved)[0]["type"] == "imagemap"  # Alice's move again
    game = await line.app.storage.active_game("line", f"user:{ALICE}")
    assert game.moves[0].uci == "e3e4" and len(game.moves) == 2
    assert len(line.fake.replies) == 3 and line.fake.pushes == []
    assert game.community == ALICE


async def test_group_game_between_two_members_while_a_third_watches(line):
    challenge = await line.say(ALICE, "/เริ่ม", group=GROUP)  # an open challenge
    assert texts(challenge).startswith("Alice")
    assert [i["action"]["text"] for i in quick_replies(challenge)] == ["รับ", "ปฏิเสธ"]
    started = await line.say(BOB, "รับ", group=GROUP)
    assert "Alice (ขาว) พบ Bob Builder (ดำ)" in texts(started)
    assert boards(started)[0]["type"] == "image"  # Bob answered, Alice to move: a plain picture

    board = boards(await line.say(ALICE, "กระดาน", group=GROUP))[0]
    assert board["type"] == "imagemap"  # Alice asked and it is her move
    picked = boards(await line.say(ALICE, tap(board, "เลือก จ3", "e3", flip=False), group=GROUP))[0]
    moved = await line.say(ALICE, tap(picked, "e3e4", "e4", flip=False), group=GROUP)
    assert "Alice เดิน จ๔" in texts(moved) and "ตาของ Bob Builder" in texts(moved)
    assert boards(moved)[0]["type"] == "image"  # Bob's move, but Alice was answered

    watching = await line.say(CAROL, "กระดาน", group=GROUP)
    assert boards(watching)[0]["type"] == "image"  # watchers get pictures, never tap maps
    assert await line.say(CAROL, "d6d5", group=GROUP) == []  # a bystander's move-like chatter: silence
    assert await line.say(CAROL, "สวัสดีทุกคน", group=GROUP) == []  # chatter gets no answer
    assert texts(await line.say(CAROL, "/ยอมแพ้", group=GROUP)) == "คุณไม่ได้เล่นในเกมนี้"

    bobs = boards(await line.say(BOB, "กระดาน", group=GROUP))[0]
    assert bobs["type"] == "imagemap"  # Black sees the board from his side
    picked = boards(await line.say(BOB, tap(bobs, "เลือก ง6", "d6", flip=True), group=GROUP))[0]
    moved = await line.say(BOB, tap(picked, "d6d5", "d5", flip=True), group=GROUP)
    assert "Bob Builder เดิน ง๕" in texts(moved)
    game = await line.app.storage.active_game("line", f"group:{GROUP}")
    assert [m.uci for m in game.moves] == ["e3e4", "d6d5"] and game.community == GROUP


async def test_a_tap_map_offers_other_pieces_and_refuses_stale_taps(line):
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "accept", group=GROUP)
    picked = boards(await line.say(ALICE, "select e3", group=GROUP))[0]
    assert picked["type"] == "imagemap"
    other = tap(picked, "เลือก ค1", "c1", flip=False)  # change of mind: another piece
    assert (await line.say(ALICE, other, group=GROUP))[-1]["type"] == "imagemap"
    await line.say(ALICE, "e3e4", group=GROUP)
    late = await line.say(ALICE, "c1d2", group=GROUP)  # an old map, tapped after moving
    assert texts(late) and boards(late) == []
    assert len((await line.app.storage.active_game("line", f"group:{GROUP}")).moves) == 1


async def test_challenges_by_mention_take_names_from_the_profile_api(line):
    to_bob = await line.say(ALICE, "@Makruk ท้า @Bob Builder", group=GROUP,
                            mentions={"@Makruk": BOT_ID, "@Bob Builder": BOB})
    assert "Alice ท้า Bob Builder" in texts(to_bob)
    assert await line.say(DAVE, "รับ", group=GROUP) == []  # not for Dave, not addressed: silence
    assert texts(await line.say(DAVE, "/รับ", group=GROUP)) == "คำท้านี้ไม่ได้ท้าคุณ"  # addressed: refused in Thai
    assert await line.app.storage.active_game("line", f"group:{GROUP}") is not None
    started = await line.say(BOB, "รับ", group=GROUP)
    assert "Bob Builder" in texts(started)
    lookups = line.fake.profile_lookups()
    assert f"/v2/bot/group/{GROUP}/member/{BOB}" in lookups and f"/v2/bot/group/{GROUP}/member/{ALICE}" in lookups
    assert all(path.startswith(f"/v2/bot/group/{GROUP}/member/") for path in lookups)
    assert len(lookups) == len(set(lookups)), "names are cached"


async def test_only_addressed_group_messages_get_an_answer_when_they_mean_nothing(line):
    assert await line.say(ALICE, "อะไรนะ", group=GROUP) == []
    assert "ไม่รู้จักคำสั่ง" in texts(await line.say(ALICE, "/อะไรนะ", group=GROUP))
    assert texts(await line.say(ALICE, "@Makruk อะไรนะ", group=GROUP, mentions={"@Makruk": BOT_ID}))
    assert texts(await line.say(ALICE, "อะไรนะ"))  # in a 1:1 chat everything is addressed


async def test_rooms_are_channels_with_their_own_member_profiles(line):
    await line.say(ALICE, "/new", room=ROOM)
    started = await line.say(CAROL, "รับ", room=ROOM)
    assert "Alice (ขาว) พบ Carol (ดำ)" in texts(started)
    assert f"/v2/bot/room/{ROOM}/member/{CAROL}" in line.fake.profile_lookups()
    game = await line.app.storage.active_game("line", f"room:{ROOM}")
    assert game is not None and game.community == ROOM


async def test_people_without_a_profile_get_a_stand_in_name(line):
    replies = await line.say(BOB, "เริ่ม บอท")  # Bob is no friend of the bot: no 1:1 profile
    assert "ผู้เล่น 0002" in texts(replies)
    line.fake.friends[BOB] = PEOPLE[BOB]
    line.door.profiles._cache.clear()
    assert "Bob Builder เดิน" in texts(await line.say(BOB, "e3e4"))


async def test_each_chat_keeps_its_own_language(line):
    assert texts(await line.say(ALICE, "ภาษา en", group=GROUP)) == "This channel now speaks English."
    assert "Makruk bot commands" in texts(await line.say(ALICE, "/help", group=GROUP))
    assert "คำสั่งบอทหมากรุกไทย" in texts(await line.say(ALICE, "help"))  # the 1:1 chat stays Thai
    assert texts(await line.say(ALICE, "new bot", room=ROOM)).startswith("เริ่มเกม")  # rooms too start in Thai
    board = boards(await line.say(ALICE, "/new bot"))[0]
    assert any(a["text"] == "เลือก จ3" for a in board["actions"])


async def test_board_pictures_are_served_as_png_within_line_limits(line):
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)
    (image,) = boards(await line.say(CAROL, "กระดาน", group=GROUP))
    status, kind, original = await line.fetch(image["originalContentUrl"])
    assert status == 200 and kind == "image/png" and len(original) <= 10 * 1024 * 1024
    assert png_size(original)[0] >= 240
    status, kind, preview = await line.fetch(image["previewImageUrl"])
    assert status == 200 and kind == "image/png" and len(preview) <= 1024 * 1024
    assert png_size(preview) == (240, 240)
    assert image["originalContentUrl"].startswith(line.base_url + "/pictures/")
    assert image["originalContentUrl"].endswith("/800.png") and image["previewImageUrl"].endswith("/preview.png")

    (imagemap,) = boards(await line.say(ALICE, "กระดาน", group=GROUP))
    for width in (1040, 700, 460, 300, 240):
        status, kind, png = await line.fetch(f"{imagemap['baseUrl']}/{width}")
        assert status == 200 and kind == "image/png" and len(png) <= 10 * 1024 * 1024
        assert png_size(png) == (width, width)  # the aspect of baseSize: 1040 x 1040
    for bad in ("/999", "/1040.png", "/../1040"):
        assert (await line.fetch(imagemap["baseUrl"] + bad))[0] == 404
    assert (await line.fetch(f"{line.base_url}/pictures/{'A' * 40}.{'A' * 22}/1040"))[0] == 404
    assert (await line.fetch(f"{line.base_url}/imagemap/{'0' * 64}/1040"))[0] == 404
    assert (await line.fetch(f"{line.base_url}/images/{'0' * 64}.png"))[0] == 404
    assert (await line.fetch(f"{line.base_url}/images/..%2Fline.db"))[0] == 404


async def test_quick_replies_follow_the_game_and_lines_limits(line):
    await line.say(ALICE, "/new", group=GROUP)
    started = await line.say(BOB, "รับ", group=GROUP)
    labels = [i["action"]["label"] for i in quick_replies(started)]
    assert labels == ["กระดาน", "ขอเสมอ", "ขอคืน", "ยอมแพ้"]
    sent = [i["action"]["text"] for i in quick_replies(started)]
    offered = await line.say(BOB, sent[1], group=GROUP)  # tapping "offer draw"
    assert "ขอเสมอ" in texts(offered)
    for request in line.fake.replies:
        assert len(request.body["messages"]) <= 5
        quick_replies(request.body["messages"])
