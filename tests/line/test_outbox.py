"""Faults on LINE's side: pushes that fail (500, 429, the monthly limit, no answer) are retried
by the outbox, on the fake clock, under the same retry key, and each notice arrives once; notices
waiting for a chat ride on the next reply there instead of being pushed."""

from __future__ import annotations

from collections import defaultdict

from bot.adapters.line.push import retry_key
from bot.messages import Reply

from .support import ALICE, BOB, CAROL, GROUP, Fault, source, text_event, texts


async def owe(line, channel: str, text: str) -> None:
    """A notice for ``channel`` in the outbox, due now (as a reply LINE did not take)."""
    await line.app.games.undelivered("line", channel, [Reply(kind="info", text=text, language="th")])


def tries(line) -> dict[str, list[tuple[int, str]]]:
    """Every try of a push, by recipient: (status, retry key)."""
    by_target: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for request in line.fake.pushes:
        by_target[request.body["to"]].append((request.status, request.headers["X-Line-Retry-Key"]))
    return by_target


def arrived(line) -> dict[str, list[str]]:
    """What LINE took and showed, by recipient."""
    by_target: dict[str, list[str]] = defaultdict(list)
    for request in line.fake.delivered:
        by_target[request.body["to"]].append(texts(request.body["messages"]))
    return by_target


async def nothing_pending(line, *channels: str) -> bool:
    return [await line.app.storage.pending_notices("line", c) for c in channels] == [[] for _ in channels]


async def test_5xx_answers_are_retried_later_with_the_same_key_and_each_notice_arrives_once(line):
    await owe(line, f"user:{ALICE}", "one")
    await owe(line, f"group:{GROUP}", "two")
    line.fake.push_faults += [Fault(500), Fault(503, "Service unavailable")]
    outbox = line.door.outbox
    assert await outbox.drain() == 0
    assert await outbox.drain() == 0  # not due again yet: no new try
    assert len(line.fake.pushes) == 2
    line.clock.advance(seconds=10)
    assert await outbox.drain() == 2
    assert arrived(line) == {ALICE: ["one"], GROUP: ["two"]}
    for target, attempts in tries(line).items():
        assert [status for status, _ in attempts] == [500 if target == ALICE else 503, 200]
        assert len({key for _, key in attempts}) == 1, "one retry key per notice"
    assert await nothing_pending(line, f"user:{ALICE}", f"group:{GROUP}")
    line.clock.advance(hours=1)
    assert await outbox.drain() == 0 and len(line.fake.pushes) == 4


async def test_a_rate_limit_429_waits_as_long_as_retry_after_says(line):
    await owe(line, f"user:{ALICE}", "later")
    line.fake.push_faults.append(Fault(429, "Too many requests", headers={"Retry-After": "120"}))
    assert await line.door.outbox.drain() == 0
    line.clock.advance(seconds=60)  # the outbox's own pause would be over, LINE's is not
    assert await line.door.outbox.drain() == 0 and len(line.fake.pushes) == 1
    line.clock.advance(seconds=61)
    assert await line.door.outbox.drain() == 1
    assert [status for status, _ in tries(line)[ALICE]] == [429, 200]
    assert len({key for _, key in tries(line)[ALICE]}) == 1
    assert arrived(line) == {ALICE: ["later"]}


async def test_the_monthly_limit_holds_every_push_until_the_quota_allows(line):
    await owe(line, f"user:{ALICE}", "one")
    await owe(line, f"group:{GROUP}", "two")
    line.fake.quota_used = line.fake.quota_limit  # the month's quota is gone
    assert await line.door.outbox.drain() == 0
    assert [r.status for r in line.fake.pushes] == [429]  # the second is not even tried
    line.clock.advance(minutes=30)
    assert await line.door.outbox.drain() == 0 and len(line.fake.pushes) == 1  # no blind retries

    line.fake.quota_used = 0  # a new month
    line.clock.advance(hours=1)
    assert await line.door.outbox.drain() == 2
    assert arrived(line) == {ALICE: ["one"], GROUP: ["two"]}
    assert line.fake.quota_used == 1 + len(line.fake.members[GROUP])  # a group push costs one per member
    assert await nothing_pending(line, f"user:{ALICE}", f"group:{GROUP}")


async def test_a_push_without_an_answer_is_tried_again_and_shown_once(line):
    line.door.pusher.timeout = 0.3  # seconds; LINE's answer never comes
    await owe(line, f"user:{ALICE}", "lost answer")
    line.fake.push_faults.append(Fault(hang=True, taken=True))  # LINE took it; the answer was lost
    assert await line.door.outbox.drain() == 0
    line.clock.advance(seconds=10)
    assert await line.door.outbox.drain() == 1  # LINE: 409, this key was taken already
    assert [status for status, _ in tries(line)[ALICE]][1:] == [409]

    await owe(line, f"user:{ALICE}", "never reached")
    line.fake.push_faults.append(Fault(hang=True))  # LINE never got it
    assert await line.door.outbox.drain() == 0
    line.clock.advance(seconds=10)
    assert await line.door.outbox.drain() == 1
    assert arrived(line) == {ALICE: ["lost answer", "never reached"]}
    keys = [key for _, key in tries(line)[ALICE]]
    assert keys[0] == keys[1] != keys[2] == keys[3]
    assert await nothing_pending(line, f"user:{ALICE}")


async def test_waiting_notices_ride_on_the_next_reply_instead_of_a_push(line):
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)
    await line.say(ALICE, "e3e4", group=GROUP)
    line.fake.quota_used = line.fake.quota_limit  # no pushes this month
    line.clock.advance(hours=19, minutes=30)  # Bob's reminder is due
    assert await line.door.scheduler.run_once() == 0
    assert [r.status for r in line.fake.pushes] == [429]

    (board_and_reminder,) = await line.send(text_event("กระดาน", source(BOB, group=GROUP)))
    assert [m["type"] for m in board_and_reminder] == ["text", "imagemap", "textV2"]  # the answer, then the notice
    assert board_and_reminder[-1]["text"].startswith("{m0} ถึงตาคุณแล้ว")
    assert "quickReply" in board_and_reminder[-1] and "quickReply" not in board_and_reminder[0]
    assert await nothing_pending(line, f"group:{GROUP}")

    line.fake.quota_used = 0
    line.clock.advance(hours=2)
    assert await line.door.scheduler.run_once() == 0 and len(line.fake.pushes) == 1  # never pushed


async def test_with_notices_off_a_reminder_is_never_pushed_and_comes_with_the_next_reply(line):
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)
    assert texts(await line.say(CAROL, "/notices off", group=GROUP))  # anyone in the group may
    await line.say(ALICE, "e3e4", group=GROUP)
    line.clock.advance(hours=19, minutes=30)
    assert await line.door.scheduler.run_once() == 0 and line.fake.pushes == []
    answer = await line.say(BOB, "กระดาน", group=GROUP)
    assert "ถึงตาคุณแล้ว" in texts(answer)
    assert line.fake.pushes == []


async def test_with_notices_off_an_answer_line_did_not_take_comes_with_the_next_reply(line):
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)
    await line.say(CAROL, "/notices off", group=GROUP)
    move = text_event("e3e4", source(ALICE, group=GROUP))
    line.fake.expired_tokens.add(move["replyToken"])
    assert await line.send(move) == [[]]
    line.clock.advance(minutes=5)
    await line.door.scheduler.run_once()
    assert line.fake.pushes == []  # not pushed: the chat said no pushes
    answer = await line.say(BOB, "กระดาน", group=GROUP)
    assert "Alice เดิน จ๔" in texts(answer)  # carried by the next reply, once
    assert await line.app.storage.pending_notices("line", f"group:{GROUP}") == []


async def test_a_notice_rides_only_as_far_as_five_messages_go_and_keeps_its_order(line):
    for n in range(6):
        await owe(line, f"user:{ALICE}", f"notice {n}")
    (answer,) = await line.send(text_event("ช่วย", source(ALICE)))  # help: one text
    assert texts(answer).split("\n")[-4:] == ["notice 0", "notice 1", "notice 2", "notice 3"]
    assert len(answer) == 5
    left = await line.app.storage.pending_notices("line", f"user:{ALICE}")
    assert [n.key for n in left] and len(left) == 2
    assert await line.door.outbox.drain() == 2
    assert arrived(line) == {ALICE: ["notice 4", "notice 5"]}
    assert [key for _, key in tries(line)[ALICE]] == [retry_key(n.key) for n in left]
