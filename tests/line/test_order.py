"""A chat's messages are handled in the order they came, also from separate requests; other
chats do not wait for a slow one; nothing is kept for a chat once its messages are handled."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from .support import ALICE, BOB, CAROL, GROUP, PEOPLE, payload, source, text_event, texts


async def until(condition, what: str) -> None:
    """Waits (by event-loop turns, not by the clock) until ``condition()`` holds."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


async def test_a_chats_next_request_waits_for_the_one_being_handled(line):
    """The acceptance comes as soon as the challenge is stored (its webhook answered), while the
    challenge still waits for names: it is applied after it, not beside it."""
    line.fake.profile_delay = 0.1  # the challenge waits for two names, the acceptance for one
    for round_ in range(5):
        group = f"Cround{round_:04d}"
        line.fake.members[group] = dict(PEOPLE)  # a new group: no name is cached
        challenge = text_event("/new @Bob Builder", source(ALICE, group=group), mentions={"@Bob Builder": BOB})
        accept = text_event("รับ", source(BOB, group=group))
        assert await line.post(payload(challenge), wait=False) == 200
        assert await line.post(payload(accept), wait=False) == 200
        await line.door.settle()
        game = await line.app.storage.active_game("line", f"group:{group}")
        assert game is not None and game.status == "active", f"round {round_}: accepted before challenged"
        players = [await line.app.storage.find_player("line", who) for who in (ALICE, BOB)]
        assert set(game.player_ids) == {player.id for player in players if player is not None}
        assert len(game.player_ids) == 2
        answers = {r.body["replyToken"]: texts(r.body["messages"]) for r in line.fake.replies}
        assert "Alice" in answers[challenge["replyToken"]] and "Bob Builder" in answers[accept["replyToken"]]


async def test_a_slow_chat_does_not_hold_up_the_others(line):
    line.fake.held_chats.add(GROUP)  # LINE does not answer the group's name lookups for now
    assert await line.post(payload(text_event("/new", source(ALICE, group=GROUP))), wait=False) == 200
    await until(lambda: line.fake.profile_lookups(), "the group's lookup")
    assert await line.post(payload(text_event("ช่วย", source(CAROL))), wait=False) == 200
    await until(lambda: len(line.fake.replies) == 1, "the 1:1 chat's answer")
    assert texts(line.fake.replies[0].body["messages"]).startswith("คำสั่งบอทหมากรุกไทย")  # Carol's help
    line.fake.let_profiles_go()
    await line.door.settle()
    assert len(line.fake.replies) == 2


async def test_events_cut_short_at_shutdown_wait_in_the_inbox_and_are_handled_after_the_restart(line):
    line.fake.held_chats.add(GROUP)
    events = [text_event("/new", source(ALICE, group=GROUP)), text_event("รับ", source(BOB, group=GROUP)),
              text_event("/กระดาน", source(CAROL, group=GROUP))]
    for event in events:
        assert await line.post(payload(event), wait=False) == 200  # each stored before this answer
    await until(lambda: line.fake.profile_lookups(), "the first event's name lookup")
    assert await line.door.webhook.queues.drain(0) == 2  # shutdown: two never taken up, one cut short
    assert line.fake.replies == []
    assert await line.app.storage.active_game("line", f"group:{GROUP}") is None

    line.fake.let_profiles_go()
    again = [{**e, "deliveryContext": {"isRedelivery": True}} for e in events]
    assert await line.post(payload(*again)) == 200  # a redelivery of what the inbox holds is dropped
    assert line.fake.replies == []
    assert await line.door.inbox.wake_waiting(left_behind=timedelta(0)) == 1  # the restarted door's first round
    await line.door.settle()
    answered = [r.body["replyToken"] for r in line.fake.replies if r.status == 200]
    assert answered == [e["replyToken"] for e in events]  # all three, once each, in order
    game = await line.app.storage.active_game("line", f"group:{GROUP}")
    assert game is not None and game.status == "active"


async def test_a_full_queue_asks_line_to_come_back_and_keeps_nothing(line):
    line.door.webhook.queues.limit = 2
    line.fake.held_chats.add(GROUP)
    first = [text_event("/new", source(ALICE, group=GROUP)), text_event("รับ", source(BOB, group=GROUP))]
    assert await line.post(payload(*first), wait=False) == 200
    await until(lambda: line.fake.profile_lookups(), "the first event's name lookup")
    late = text_event("/กระดาน", source(CAROL, group=GROUP))
    assert await line.post(payload(late, text_event("ช่วย", source(ALICE))), wait=False) == 503
    line.fake.let_profiles_go()
    await line.door.settle()
    assert len(line.fake.replies) == 2  # the late request's events were not taken: LINE sends them again
    assert await line.post(payload(late)) == 200 and len(line.fake.replies) == 3


async def test_nothing_is_kept_for_a_chat_once_its_messages_are_handled(line):
    line.door.profiles.max_entries = 50
    requests = [line.post(payload(text_event("สวัสดี", source(ALICE, group=f"Cchat{n:05d}"))), wait=False)
                for n in range(300)]
    assert set(await asyncio.gather(*requests)) == {200}
    await line.door.settle()
    queues = line.door.webhook.queues
    assert (queues.busy_chats, queues.waiting) == (0, 0)
    assert len(line.door.pusher.locks) == 0
    assert len(line.door.profiles) <= 50
    assert line.fake.replies == []  # chatter: no answers
