"""Later messages are pushes through the outbox: reminders, losses on time, expired challenges,
and answers whose reply LINE did not take. Each push carries a retry key made from its notice."""

from __future__ import annotations

import sqlite3
import uuid

from bot.adapters.line.push import retry_key

from .support import ALICE, BOB, GROUP, Fault, boards, source, text_event, texts


async def start_group_game(line) -> None:
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)


def sent_keys(line) -> list[str]:
    """The keys of the LINE notices the outbox marked sent, oldest first."""
    with sqlite3.connect(line.db) as conn:
        rows = conn.execute("SELECT key FROM outbox WHERE platform = 'line' AND sent IS NOT NULL ORDER BY id")
        return [key for (key,) in rows]


async def test_an_answer_whose_reply_token_failed_is_pushed_once_through_the_outbox(line):
    late = text_event("เริ่ม บอท", source(ALICE))
    line.fake.expired_tokens.add(late["replyToken"])
    assert await line.send(late) == [[]]  # the reply was refused ...
    assert [r.status for r in line.fake.replies] == [400]
    (push,) = line.fake.pushes  # ... so the outbox pushed the same answer
    assert push.body["to"] == ALICE and push.status == 200
    assert "เริ่มเกม" in texts(push.body["messages"]) and boards(push.body["messages"])
    assert texts(push.body["messages"]) == texts(line.fake.replies[0].body["messages"])
    (key,) = sent_keys(line)  # the answer stored with the new game, pushed from its own row
    assert push.headers["X-Line-Retry-Key"] == retry_key(key) and uuid.UUID(retry_key(key))
    assert await line.app.storage.pending_notices("line", f"user:{ALICE}") == []
    assert await line.door.outbox.drain() == 0 and len(line.fake.pushes) == 1  # once


async def test_a_reply_line_fails_is_pushed_in_order_with_the_bots_move(line):
    await line.say(ALICE, "เริ่ม บอท")
    line.fake.reply_failures = 1  # LINE stumbles on the reply
    move = text_event("e3e4", source(ALICE))
    assert await line.send(move) == [[]]
    mine, bots = line.fake.pushes  # the person's move first, then the bot's, each once
    assert "Alice เดิน จ๔" in texts(mine.body["messages"]) and "Bot (1) เดิน" not in texts(mine.body["messages"])
    assert "Bot (1) เดิน" in texts(bots.body["messages"]) and "Alice เดิน" not in texts(bots.body["messages"])
    assert await line.app.storage.pending_notices("line", f"user:{ALICE}") == []
    game = await line.app.storage.active_game("line", f"user:{ALICE}")
    assert len(game.moves) == 2
    assert await line.door.outbox.drain() == 0 and len(line.fake.pushes) == 2


async def test_reminders_and_losses_on_time_are_pushed_and_retried_later_with_the_same_key(line):
    await start_group_game(line)
    await line.say(ALICE, "e3e4", group=GROUP)
    answered = len(line.fake.replies)

    line.clock.advance(hours=1)
    assert await line.door.scheduler.run_once() == 0 and line.fake.pushes == []  # nothing due: no push

    line.clock.advance(hours=19, minutes=30)  # 80 % of Bob's day is gone
    line.fake.push_faults.append(Fault(500))  # LINE stumbles once
    assert await line.door.scheduler.run_once() == 0  # the outbox tries again later ...
    line.clock.advance(minutes=1)
    assert await line.door.scheduler.run_once() == 1  # ... and then it arrives
    first, retried = line.fake.pushes
    assert (first.status, retried.status) == (500, 200)
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
    assert lost.headers["X-Line-Retry-Key"] != first.headers["X-Line-Retry-Key"]  # a key per notice
    assert len(line.fake.replies) == answered


async def test_a_push_that_line_refuses_is_kept_as_undeliverable_and_not_retried(line):
    await line.say(ALICE, "/new", group=GROUP)
    line.clock.advance(minutes=20)  # the challenge expires: the group is told by push ...
    line.fake.push_faults.append(Fault(403, "The bot was removed from the group"))  # ... but LINE refuses
    assert await line.door.scheduler.run_once() == 0
    line.clock.advance(days=2)
    assert await line.door.scheduler.run_once() == 0
    assert len(line.fake.pushes) == 1  # not tried again
    counts = await line.app.storage.notice_counts("line")
    assert (counts.pending, counts.dead) == (0, 1)  # kept, and counted


async def test_an_expired_challenge_is_announced_by_push(line):
    await line.say(ALICE, "/new", group=GROUP)
    line.clock.advance(minutes=20)
    assert await line.door.scheduler.run_once() == 1
    (push,) = line.fake.pushes
    assert push.body["to"] == GROUP and texts(push.body["messages"]).startswith("คำท้าหมดเวลา")
