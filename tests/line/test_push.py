"""Later messages are pushes: reminders and losses on time, and answers whose reply token failed."""

from __future__ import annotations

import uuid

from linebot.v3.messaging import TextMessage  # type: ignore[import-untyped]  # line-bot-sdk ships no py.typed

from .support import ALICE, BOB, GROUP, boards, source, text_event, texts


async def start_group_game(line) -> None:
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)


async def test_an_expired_reply_token_falls_back_to_one_push_with_a_retry_key(line):
    late = text_event("เริ่ม บอท", source(ALICE))
    line.fake.expired_tokens.add(late["replyToken"])
    assert await line.send(late) == [[]]  # the reply was refused ...
    assert [r.status for r in line.fake.replies] == [400]
    (push,) = line.fake.pushes  # ... so the same answer went out as a push
    assert push.body["messages"] == line.fake.replies[0].body["messages"]
    assert push.body["to"] == ALICE
    assert "เริ่มเกม" in texts(push.body["messages"]) and boards(push.body["messages"])
    assert uuid.UUID(push.headers["X-Line-Retry-Key"])


async def test_reminders_and_losses_on_time_are_pushed_rarely_and_retried_with_the_same_key(line):
    await start_group_game(line)
    await line.say(ALICE, "e3e4", group=GROUP)
    answered = len(line.fake.replies)

    line.clock.advance(hours=1)
    assert await line.door.scheduler.run_once() == 0 and line.fake.pushes == []  # nothing due: no push

    line.clock.advance(hours=19, minutes=30)  # 80 % of Bob's day is gone
    line.fake.push_failures = 1  # LINE stumbles once
    assert await line.door.scheduler.run_once() == 1
    first, retried = line.fake.pushes
    assert first.headers["X-Line-Retry-Key"] == retried.headers["X-Line-Retry-Key"]
    (reminder,) = retried.body["messages"]
    assert reminder["type"] == "textV2" and reminder["text"].startswith("{m0} ถึงตาคุณแล้ว")
    assert reminder["substitution"]["m0"] == {"type": "mention", "mentionee": {"type": "user", "userId": BOB}}

    line.clock.advance(hours=5)
    assert await line.door.scheduler.run_once() == 1
    lost = line.fake.pushes[-1]
    assert lost.body["to"] == GROUP and len(line.fake.pushes) == 3
    assert "Alice (ขาว) ชนะ" in texts(lost.body["messages"]) and "หมดเวลา" in texts(lost.body["messages"])
    (picture,) = boards(lost.body["messages"])
    assert picture["type"] == "image"  # nobody is answered: a plain picture
    assert lost.headers["X-Line-Retry-Key"] != first.headers["X-Line-Retry-Key"]  # a fresh key per push
    assert len(line.fake.replies) == answered


async def test_a_push_that_line_refuses_is_not_retried(line):
    assert await line.door.handler.push("", [TextMessage(text="x")]) is False  # 400: no recipient
    assert len(line.fake.pushes) == 1


async def test_an_expired_challenge_is_announced_by_push(line):
    await line.say(ALICE, "/new", group=GROUP)
    line.clock.advance(minutes=20)
    assert await line.door.scheduler.run_once() == 1
    (push,) = line.fake.pushes
    assert push.body["to"] == GROUP and texts(push.body["messages"]).startswith("คำท้าหมดเวลา")
