"""The family through the LINE door: a Sittuyin game in a group, its deployment by taps and quick
replies, and Thai words for the variants."""

from __future__ import annotations

from makruk import parse_square
from renderers import hand_width, size_for_width, square_box

from .support import ALICE, BOB, GROUP, boards, png_size, texts
from .test_play import quick_replies


async def test_sittuyin_deployment_by_tapping_a_square_then_a_piece(line):
    await line.say(ALICE, "เริ่ม หมากรุกพม่า", group=GROUP)
    started = await line.say(BOB, "รับ", group=GROUP)
    assert "หมากรุกพม่า:" in texts(started) and "หมากในมือ: ขาว K F R×2 S×2 N×2" in texts(started)
    board = boards(await line.say(ALICE, "กระดาน", group=GROUP))[0]
    assert board["type"] == "imagemap" and len(board["actions"]) == 20  # White's empty camp squares
    # The pieces in hand stand right of the board: the tap map is as wide, the board smaller.
    assert board["baseSize"] == {"width": 1040, "height": size_for_width(1040)}
    status, _, picture = await line.fetch(board["baseUrl"] + "/1040")
    assert status == 200
    assert png_size(picture) == (size_for_width(1040) + hand_width(size_for_width(1040)), size_for_width(1040))
    left, top, right, bottom = square_box(parse_square("a1"), size_for_width(1040), False)
    (action,) = [a for a in board["actions"] if a["area"] == {"x": left, "y": top, "width": right - left,
                                                               "height": bottom - top}]
    assert action["text"] == "เลือก ก1"
    picked = await line.say(ALICE, action["text"], group=GROUP)
    offered = [i["action"]["text"] for i in quick_replies(picked)]
    assert {"K@a1", "F@a1", "R@a1", "S@a1", "N@a1"} <= set(offered)
    moved = await line.say(ALICE, "R@a1", group=GROUP)
    assert "Alice เดิน ร@ก๑" in texts(moved)
    game = await line.app.storage.active_game("line", f"group:{GROUP}")
    assert game.variant == "sittuyin" and [m.uci for m in game.moves] == ["R@a1"]


async def test_ouk_in_thai_words(line):
    await line.say(ALICE, "เริ่ม อุก", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)
    game = await line.app.storage.active_game("line", f"group:{GROUP}")
    assert game.variant == "cambodian"
    moved = await line.say(ALICE, "ข-ข2", group=GROUP)  # the Khun's leap, in Thai notation
    assert "Alice เดิน ข-ข๒" in texts(moved)
