"""The game's web board opens inside LINE: with a LIFF app set up, every game message carries a
quick-reply button that opens https://liff.line.me/<LIFF_ID>/g/<game> (without one there is
none: test_play.py)."""

from __future__ import annotations

import pytest

from .support import ALICE, BOB, GROUP, texts
from .test_play import quick_replies

LIFF_ID = "1234567890-AbCdEfGh"


@pytest.fixture
def line_settings() -> dict[str, object]:
    return {"liff_id": LIFF_ID, "line_login_channel_id": "1234567890"}


async def test_game_messages_open_the_board_inside_line(line):
    challenge = await line.say(ALICE, "/เริ่ม", group=GROUP)
    started = await line.say(BOB, "รับ", group=GROUP)
    game = await line.app.storage.active_game("line", f"group:{GROUP}")
    assert game is not None and "Bob Builder" in texts(started)
    first, *rest = quick_replies(started)
    assert first["action"] == {"type": "uri", "label": "กระดานสด", "uri": f"https://liff.line.me/{LIFF_ID}/g/{game.id}"}
    assert [i["action"]["label"] for i in rest] == ["กระดาน", "ขอเสมอ", "ขอคืน", "ยอมแพ้"]
    # A challenge nobody accepted yet is a game too, but it has no board to open.
    assert all(i["action"]["type"] == "message" for i in quick_replies(challenge))
    resigned = await line.say(ALICE, "ยอมแพ้", group=GROUP)
    assert quick_replies(resigned)[0]["action"]["uri"].endswith(f"/g/{game.id}")  # the replay
