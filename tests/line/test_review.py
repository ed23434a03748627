"""A game pasted into LINE (longer than an ordinary message, up to LINE's 5,000 characters) is
reviewed; the archive and its replay link."""

from __future__ import annotations

from .support import ALICE, BOB, GROUP, texts

MOVES = " ".join(f"{n}. {w} {b}" for n, (w, b) in enumerate(
    [("Bg2", "Bd7"), ("Bb2", "Bf7"), ("Bf1", "Bc8"), ("Qf2", "Bd7"), ("Bg2", "Bc8"), ("Bf1", "g5")], start=1))


async def test_a_pasted_pgn_is_reviewed_in_thai(line):
    pgn = '[Event "Makruk"]\n[Site "PlayOK"]\n[White "somchai"]\n[Black "ann"]\n\n' + MOVES + " {" + "ก" * 600 + "} *"
    assert 600 < len(pgn) < 5000
    messages = await line.say(ALICE, "วิเคราะห์\n" + pgn, group=GROUP)
    assert "somchai" in texts(messages) and "ann" in texts(messages)
    assert any(m["type"] == "image" for m in messages)  # the evaluation graph


async def test_the_archive_and_a_replay_link(line):
    await line.say(ALICE, "เริ่ม", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)
    await line.say(ALICE, "e3e4", group=GROUP)
    await line.say(BOB, "ยอมแพ้", group=GROUP)
    assert "#1 " in texts(await line.say(ALICE, "games", group=GROUP))
    replay = await line.say(ALICE, "export 1 gif", group=GROUP)
    link = next(m["text"] for m in replay if m["type"] == "text" and m["text"].endswith(".gif"))
    status, kind, body = await line.fetch(link)
    assert status == 200 and kind == "image/gif" and body.startswith(b"GIF8")
