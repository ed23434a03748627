"""The inbox: events stored before the webhook answers, de-duplicated by id, handled one chat
at a time in the order they were sent, by one process at a time; an event whose process died is
taken again, its tries counted."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta

from storage import NewEvent, NewNotice, Storage, open_storage

from .storage_helpers import FakeClock

STALE = timedelta(minutes=2)


def event(event_id: str, chat: str = "group:C1", *, sent: datetime, text: str = "hi") -> NewEvent:
    return NewEvent("line", chat, event_id, sent, json.dumps({"webhookEventId": event_id, "text": text}))


async def take(storage: Storage, clock: FakeClock, holder: str, chat: str = "group:C1", finished: int | None = None):
    return await storage.take_event("line", chat, holder, finished=finished, stale_before=clock.now - STALE)


async def test_events_are_stored_once_and_a_redelivery_is_dropped(storage: Storage, clock: FakeClock) -> None:
    assert await storage.mark_event_processed("old")  # an id recorded before the inbox existed
    first = [event("e1", sent=clock.now), event("e2", sent=clock.now), event("old", sent=clock.now)]
    assert await storage.receive_events(first) == ["e1", "e2"]
    assert await storage.receive_events([event("e2", sent=clock.now), event("e3", sent=clock.now)]) == ["e3"]
    assert await storage.mark_event_processed("e3") is False  # the same de-duplication


async def test_a_chats_events_come_in_the_order_sent_then_arrived(storage: Storage, clock: FakeClock) -> None:
    t = clock.now
    # Two requests, the second carrying an earlier event (LINE retried it) and a tie.
    await storage.receive_events([event("late", sent=t + timedelta(seconds=2)), event("tie-1", sent=t)])
    await storage.receive_events([event("early", sent=t - timedelta(seconds=1)), event("tie-2", sent=t)])
    order, finished = [], None
    while (taken := await take(storage, clock, "p1", finished=finished)).event is not None:
        order.append(taken.event.event_id)
        assert json.loads(taken.event.body)["webhookEventId"] == taken.event.event_id
        assert taken.event.sent.tzinfo is not None
        finished = taken.event.id
    assert order == ["early", "tie-1", "tie-2", "late"]
    assert taken.busy is False


async def test_one_process_at_a_time_handles_a_chat_and_other_chats_go_on(storage: Storage, clock: FakeClock) -> None:
    await storage.receive_events([event("a1", sent=clock.now), event("a2", sent=clock.now),
                                  event("b1", "group:C2", sent=clock.now)])
    mine = await take(storage, clock, "p1")
    assert mine.event is not None and mine.event.event_id == "a1"
    theirs = await take(storage, clock, "p2")
    assert theirs.event is None and theirs.busy  # p1 is handling the chat: ask again soon
    other_chat = await take(storage, clock, "p2", chat="group:C2")
    assert other_chat.event is not None and other_chat.event.event_id == "b1"
    after = await take(storage, clock, "p1", finished=mine.event.id)  # p1 goes on with what came meanwhile
    assert after.event is not None and after.event.event_id == "a2"
    done = await take(storage, clock, "p1", finished=after.event.id)
    assert done.event is None and not done.busy
    assert (await take(storage, clock, "p2")).event is None


async def test_an_event_started_by_a_process_that_went_quiet_is_taken_again(
        storage: Storage, clock: FakeClock) -> None:
    await storage.receive_events([event("e1", sent=clock.now), event("e2", sent=clock.now)])
    started = await take(storage, clock, "dead")
    assert started.event is not None and started.event.event_id == "e1"
    assert started.event.tries == 1 and not started.event.retried
    assert await storage.waiting_chats("line", received_before=clock.now + timedelta(seconds=1),
                                       stale_before=clock.now - STALE) == ["group:C1"]  # e2 waits
    assert (await take(storage, clock, "p2")).busy
    clock.advance(STALE.total_seconds() + 1)
    assert await storage.waiting_chats("line", received_before=clock.now, stale_before=clock.now - STALE) == [
        "group:C1"]
    again = await take(storage, clock, "p2")
    # e1 again, marked as retried: the service finds what it had stored, if anything
    assert again.event is not None and again.event.event_id == "e1" and again.event.tries == 2
    assert again.event.retried
    taken = await take(storage, clock, "p2", finished=again.event.id)
    assert taken.event is not None and taken.event.event_id == "e2" and not taken.event.retried
    assert (await take(storage, clock, "p2", finished=taken.event.id)).event is None
    assert await storage.waiting_chats("line", received_before=clock.now, stale_before=clock.now) == []


async def test_waiting_chats_are_those_left_behind(storage: Storage, clock: FakeClock) -> None:
    await storage.receive_events([event("e1", sent=clock.now), event("d1", "user:U1", sent=clock.now)])
    await storage.receive_events([NewEvent("console", "c", "x1", clock.now, "{}")])
    assert await storage.waiting_chats("line", received_before=clock.now - timedelta(seconds=10),
                                       stale_before=clock.now - STALE) == []
    clock.advance(10)
    waiting = await storage.waiting_chats("line", received_before=clock.now, stale_before=clock.now - STALE)
    assert sorted(waiting) == ["group:C1", "user:U1"]
    assert await storage.waiting_chats("line", received_before=clock.now, stale_before=clock.now - STALE,
                                       limit=1) in (["group:C1"], ["user:U1"])


async def test_two_storages_racing_for_a_chat_take_each_event_once(database: str, clock: FakeClock) -> None:
    async with await open_storage(database, clock=clock) as one, await open_storage(database, clock=clock) as two:
        await one.receive_events([event(f"e{i}", sent=clock.now + timedelta(milliseconds=i)) for i in range(20)])
        handled: list[str] = []

        async def worker(storage: Storage, holder: str) -> None:
            finished = None
            while True:
                taken = await take(storage, clock, holder, finished=finished)
                if taken.event is None:
                    if not taken.busy:
                        return
                    finished = None
                    await asyncio.sleep(0.001)
                    continue
                handled.append(taken.event.event_id)
                await asyncio.sleep(0)
                finished = taken.event.id

        await asyncio.gather(worker(one, "p1"), worker(two, "p2"), worker(one, "p3"))
        assert handled == [f"e{i}" for i in range(20)]  # each once, in order, whoever took it


async def test_an_event_given_back_is_the_chats_next_again(storage: Storage, clock: FakeClock) -> None:
    await storage.receive_events([event("e1", sent=clock.now), event("e2", sent=clock.now)])
    taken = await take(storage, clock, "p1")
    assert taken.event is not None
    await storage.give_back_event(taken.event.id, "someone else")  # not theirs: nothing changes
    assert (await take(storage, clock, "p2")).busy
    await storage.give_back_event(taken.event.id, "p1")
    again = await take(storage, clock, "p2")
    assert again.event is not None and again.event.event_id == "e1"


async def test_the_started_events_of_a_dead_holder_are_released_on_request(
        storage: Storage, clock: FakeClock) -> None:
    await storage.receive_events([event("e1", sent=clock.now), event("e2", sent=clock.now),
                                  event("x1", "group:C2", sent=clock.now)])
    assert (await take(storage, clock, "here/1/100/aa")).event is not None  # e1, started
    assert (await take(storage, clock, "here/1/200/bb", chat="group:C2")).event is not None
    assert await storage.event_holders("here/1/") == {"here/1/100/aa", "here/1/200/bb"}
    assert await storage.event_holders("elsewhere/") == set()
    assert await storage.release_started_events("here/1/100/aa") == ["group:C1"]
    assert await storage.release_started_events("here/1/100/aa") == []
    assert await storage.event_holders("here/1/") == {"here/1/200/bb"}
    taken = await take(storage, clock, "p2")  # the chat goes on at once, with e1 again
    assert taken.event is not None and taken.event.event_id == "e1" and taken.event.retried


async def test_an_event_given_back_keeps_its_tries(storage: Storage, clock: FakeClock) -> None:
    await storage.receive_events([event("e1", sent=clock.now)])
    taken = await take(storage, clock, "p1")
    assert taken.event is not None
    await storage.give_back_event(taken.event.id, "p1")  # never acted on: not a try
    again = await take(storage, clock, "p1")
    assert again.event is not None and again.event.tries == 1 and not again.event.retried


async def test_finishing_an_event_marks_its_shown_answers_sent(storage: Storage, clock: FakeClock) -> None:
    await storage.receive_events([event("e1", sent=clock.now)])
    answers = [NewNotice("line", "group:C1", key, "answer", '{"text":"e4"}') for key in ("a0", "a1", "a2")]
    await storage.add_notices(answers)
    taken = await take(storage, clock, "p1")
    assert taken.event is not None
    done = await storage.take_event("line", "group:C1", "p1", finished=taken.event.id, shown=["a0", "a1"],
                                    stale_before=clock.now - STALE)
    assert done.event is None
    assert [n.key for n in await storage.pending_notices("line", "group:C1")] == ["a2"]
