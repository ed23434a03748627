"""An event whose process died while handling it is handled again by the next taker of its chat:
its change applied exactly once, its answer shown exactly once, whenever the process died.

A process of this machine that died is one whose pid is gone; the door takes up the events it
had started at once (``Inbox.release_the_dead``, every round of the scheduler)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest
from linebot.v3.webhooks import Event  # type: ignore[import-untyped]

from bot.adapters.line.inbox import MAX_TRIES
from bot.services.games.table import ANSWER_GRACE
from storage import NewEvent, StorageError

from .support import ALICE, BOB, GROUP, payload, source, text_event, texts

CHAT = f"group:{GROUP}"


def dead_holder(line) -> str:
    """The holder name of a process of this machine that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return line.door.inbox.holder.replace(f"/{os.getpid()}/", f"/{child.pid}/", 1)


async def start_game(line) -> None:
    await line.say(ALICE, "/new @Bob Builder", group=GROUP, mentions={"@Bob Builder": BOB})
    await line.say(BOB, "รับ", group=GROUP)


async def die_while_handling(line, raw: dict, cut: Callable[[], Awaitable[None]]) -> None:
    """Stores ``raw`` in the inbox as the webhook does, lets a process that then dies take it,
    and has it do ``cut`` (what that process got done) before it died."""
    await line.app.storage.receive_events([NewEvent("line", CHAT, raw["webhookEventId"], line.clock.now(),
                                                    json.dumps(raw))])
    taken = await line.app.storage.take_event("line", CHAT, dead_holder(line), stale_before=line.clock.now())
    assert taken.event is not None and taken.event.event_id == raw["webhookEventId"]
    await cut()


async def nothing() -> None:
    pass


def until_the_reply(line, raw: dict, monkeypatch) -> Callable[[], Awaitable[None]]:
    """What a process does with ``raw`` until it would reply: the change and its answer stored."""
    async def handled() -> None:
        async def no_answer(*args, **kwargs) -> None:
            pass
        with monkeypatch.context() as patch:
            patch.setattr(line.door.handler, "_answer", no_answer)
            await line.door.handler.handle(Event.from_dict(raw))
    return handled


async def answers_to(line, raw: dict) -> list[str]:
    """What the chat was shown for the move ``raw``: replies LINE took and pushes it took."""
    shown = [texts(r.body["messages"]) for r in line.fake.replies
             if r.status == 200 and r.body["replyToken"] == raw["replyToken"]]
    return shown + [texts(p.body["messages"]) for p in line.fake.pushes if p.status == 200]


async def reply_after_dying(line, raw: dict, monkeypatch):
    """The reply to ``raw`` once it is taken again after its process died just before replying."""
    await die_while_handling(line, raw, until_the_reply(line, raw, monkeypatch))
    await line.door.inbox.release_the_dead()
    await line.door.settle()
    (reply,) = [r for r in line.fake.replies if r.body["replyToken"] == raw["replyToken"]]
    return reply


@pytest.mark.parametrize("died", ["before the change", "after the change", "after the reply"])
async def test_a_move_whose_process_died_is_applied_once_and_answered_once(line, monkeypatch, died) -> None:
    await start_game(line)
    raw = text_event("e3e4", source(ALICE, group=GROUP))

    async def handled_until_marked() -> None:
        shown = await line.door.handler.handle(Event.from_dict(raw))  # replied; the inbox marks these next
        assert shown
        line.door.pusher._shown.clear()  # what the dead process remembered died with it

    cut = {"before the change": nothing, "after the change": until_the_reply(line, raw, monkeypatch),
           "after the reply": handled_until_marked}[died]
    await die_while_handling(line, raw, cut)
    assert await line.door.inbox.release_the_dead() == 1
    await line.door.settle()

    game = await line.app.storage.active_game("line", CHAT)
    assert game is not None and [m.uci for m in game.moves] == ["e3e4"]  # applied once
    (answer,) = await answers_to(line, raw)  # shown once, by the reply with the event's token
    assert "Alice เดิน จ๔" in answer
    assert await line.app.storage.pending_notices("line", CHAT) == []
    line.clock.advance(seconds=ANSWER_GRACE.total_seconds() + 1)
    await line.door.outbox.drain()
    assert await answers_to(line, raw) == [answer]  # and the outbox sends nothing more
    # The chat goes on.
    assert "Bob Builder เดิน" in texts(await line.say(BOB, "d6d5", group=GROUP))


async def test_a_challenge_whose_process_died_after_storing_it_is_answered_not_refused(line, monkeypatch) -> None:
    raw = text_event("/new", source(ALICE, group=GROUP))
    reply = await reply_after_dying(line, raw, monkeypatch)
    assert reply.status == 200 and "Alice" in texts(reply.body["messages"])
    assert "channel_busy" not in json.dumps(reply.body)
    game = await line.app.storage.active_game("line", CHAT)
    assert game is not None and game.status == "challenge"


async def test_a_setting_is_stored_with_its_answer(line, monkeypatch) -> None:
    raw = text_event("/lang en", source(ALICE, group=GROUP))
    reply = await reply_after_dying(line, raw, monkeypatch)
    assert reply.status == 200 and texts(reply.body["messages"]) == line.app.games.catalog.text("en", "language_set")
    settings = await line.app.storage.get_channel_settings("line", CHAT)
    assert settings.language == "en"


async def test_an_event_that_keeps_killing_its_process_is_given_up(line) -> None:
    raw = text_event("/ช่วย", source(ALICE, group=GROUP))
    await line.app.storage.receive_events([NewEvent("line", CHAT, raw["webhookEventId"], line.clock.now(),
                                                    json.dumps(raw))])
    for _ in range(MAX_TRIES):  # taken by a process that died, each time
        holder = dead_holder(line)
        taken = await line.app.storage.take_event("line", CHAT, holder, stale_before=line.clock.now())
        assert taken.event is not None
        assert await line.app.storage.release_started_events(holder) == [CHAT]
    await line.door.inbox.wake_waiting(left_behind=timedelta(0))
    await line.door.settle()
    assert line.fake.replies == []  # given up, logged
    assert texts(await line.say(BOB, "/ช่วย", group=GROUP))  # and the chat goes on


async def test_an_answer_whose_token_is_no_longer_fresh_is_pushed_once(line, monkeypatch) -> None:
    await start_game(line)
    raw = text_event("e3e4", source(ALICE, group=GROUP))
    await die_while_handling(line, raw, until_the_reply(line, raw, monkeypatch))
    line.clock.advance(minutes=5)  # the chat is taken up late (its process was on another machine)
    line.fake.expired_tokens.add(raw["replyToken"])
    await line.door.inbox.release_the_dead()
    await line.door.settle()
    (answer,) = await answers_to(line, raw)  # pushed, once: nobody had shown it
    assert "Alice เดิน จ๔" in answer
    game = await line.app.storage.active_game("line", CHAT)
    assert game is not None and [m.uci for m in game.moves] == ["e3e4"]


@pytest.mark.parametrize("committed", [False, True])
async def test_a_move_the_database_failed_half_way_is_handled_again(line, monkeypatch, committed) -> None:
    """The connection to the database is lost in the middle of storing a move (before or after
    its commit): the event is not finished, and handled again finds what was stored."""
    await start_game(line)
    storage = line.app.storage
    real = storage.append_move
    failures = [StorageError("connection lost")]

    async def lost(*args, **kwargs):
        if not failures:
            return await real(*args, **kwargs)
        if committed:
            await real(*args, **kwargs)
        raise failures.pop()

    monkeypatch.setattr(storage, "append_move", lost)
    raw = text_event("e3e4", source(ALICE, group=GROUP))
    assert await line.post(payload(raw)) == 200
    game = await storage.active_game("line", CHAT)
    assert game is not None and [m.uci for m in game.moves] == ["e3e4"]  # applied once
    (answer,) = await answers_to(line, raw)  # answered once, by the reply
    assert "Alice เดิน จ๔" in answer
    assert await storage.pending_notices("line", CHAT) == []
