"""Two LINE servers behind one load balancer, on one database: LINE may send any chat's next
webhook to either. They play one game between them, and a redelivery to the other server is
applied once. (Each server has its own app, storage connection, caches and locks, as a
separate process would.)"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import aiohttp
import pytest

from bot.adapters.line.inbox import LEFT_BEHIND
from bot.adapters.line.main import LineDoor
from bot.app import open_app
from bot.config import Settings, with_database
from bot.engines import RandomMover
from storage import NewEvent

from ..line.support import (
    ALICE,
    BOB,
    GROUP,
    PEOPLE,
    SECRET,
    TOKEN,
    Harness,
    free_socket,
    payload,
    source,
    text_event,
    texts,
)


@pytest.fixture
async def servers(database, fake_line, clock, tmp_path, monkeypatch) -> AsyncIterator[tuple[Harness, Harness]]:
    monkeypatch.chdir(tmp_path)  # each server's picture cache lives beside it
    async with AsyncExitStack() as stack, aiohttp.ClientSession() as http:
        harnesses = []
        for name in ("a", "b"):
            sock = free_socket()
            port = sock.getsockname()[1]
            settings = with_database(Settings(
                database_path=tmp_path / name / "unused.db", line_channel_secret=SECRET,
                line_channel_access_token=TOKEN, public_base_url=f"http://127.0.0.1:{port}",
                line_api_base_url=fake_line.url, line_language="th"), database)
            app = await stack.enter_async_context(open_app(settings, clock=clock, engine=RandomMover(seed=1)))
            door = await stack.enter_async_context(LineDoor(settings, app, scheduler_interval=3600))
            await door.listen(sock=sock)
            await door.caught_up.wait()
            harnesses.append(Harness(f"http://127.0.0.1:{port}", door, fake_line, http, tmp_path, app=app,
                                     clock=clock))
        yield harnesses[0], harnesses[1]


async def test_a_game_whose_messages_alternate_between_two_servers(servers) -> None:
    a, b = servers
    assert texts(await a.say(ALICE, "/เริ่ม", group=GROUP)).startswith("Alice")
    assert "Alice (ขาว) พบ Bob Builder (ดำ)" in texts(await b.say(BOB, "รับ", group=GROUP))
    plies = [("e3e4", a, ALICE), ("d6d5", b, BOB), ("e4d5", a, ALICE), ("e6e5", b, BOB)]
    for uci, server, who in plies:
        answer = texts(await server.say(who, uci, group=GROUP))
        assert "เดิน" in answer, answer
    # A stale view cannot win on the other server: a's cached board is behind b's last move.
    not_yours = a.app.games.catalog.text("th", "error.not_your_turn")
    assert texts(await a.say(BOB, "f6f5", group=GROUP)) == not_yours
    for server in (a, b):
        game = await server.app.storage.active_game("line", f"group:{GROUP}")
        assert game is not None and [m.uci for m in game.moves] == [uci for uci, _, _ in plies]


async def test_a_webhook_redelivered_to_the_other_server_is_applied_once(servers) -> None:
    a, b = servers
    await a.say(ALICE, "/เริ่ม", group=GROUP)
    await b.say(BOB, "รับ", group=GROUP)
    move = text_event("e3e4", source(ALICE, group=GROUP))
    replies_before = len(a.fake.replies)
    assert await a.post(payload(move)) == 200
    again = {**move, "deliveryContext": {"isRedelivery": True}}
    assert await b.post(payload(again)) == 200
    game = await b.app.storage.active_game("line", f"group:{GROUP}")
    assert game is not None and [m.uci for m in game.moves] == ["e3e4"]
    assert len(a.fake.replies) == replies_before + 1  # one answer, from the server that took it first


async def test_a_chats_next_message_on_the_other_server_waits_for_the_one_being_handled(servers) -> None:
    """The acceptance reaches the other server as soon as the challenge is stored (its webhook
    answered), while the challenge is still being handled: it is applied after it, not beside it.
    (Sent a few milliseconds apart instead, on a loaded machine the acceptance could be stored
    and handled before the challenge even arrived: no server can apply what it has not got.)"""
    a, b = servers
    a.fake.profile_delay = 0.1  # the challenge waits for two names: the acceptance comes meanwhile
    for round_ in range(5):
        group = f"Cpair{round_:04d}"
        a.fake.members[group] = dict(PEOPLE)
        challenge = text_event("/new @Bob Builder", source(ALICE, group=group), mentions={"@Bob Builder": BOB})
        accept = text_event("รับ", source(BOB, group=group))
        assert await a.post(payload(challenge), wait=False) == 200
        assert await b.post(payload(accept), wait=False) == 200
        await asyncio.gather(a.door.settle(), b.door.settle())
        game = await a.app.storage.active_game("line", f"group:{group}")
        assert game is not None and game.status == "active", f"round {round_}: accepted before challenged"
        answers = {r.body["replyToken"]: texts(r.body["messages"]) for r in a.fake.replies}
        assert "Alice" in answers[challenge["replyToken"]] and "Bob Builder" in answers[accept["replyToken"]]


async def test_an_event_acknowledged_by_a_server_that_died_is_handled_by_the_other(servers, monkeypatch) -> None:
    a, b = servers
    monkeypatch.setattr(a.door.inbox.queues, "put", lambda chat, count=1: None)  # a dies right after its 200
    help_event = text_event("/ช่วย", source(ALICE, group=GROUP))
    assert await a.post(payload(help_event)) == 200
    assert a.fake.replies == []
    assert await b.door.inbox.wake_waiting() == 0  # not yet: a may still be on its way
    b.clock.advance(seconds=LEFT_BEHIND.total_seconds())
    assert await b.door.inbox.wake_waiting() == 1
    await b.door.settle()
    assert [r.body["replyToken"] for r in b.fake.replies if r.status == 200] == [help_event["replyToken"]]


async def test_a_chat_whose_event_died_with_its_process_goes_on_after_the_restart(servers) -> None:
    _, b = servers
    # A process of this machine took an event of the group, then was killed (its pid is gone).
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    dead = b.door.inbox.holder.replace(f"/{os.getpid()}/", f"/{child.pid}/", 1)
    cut_short = text_event("/ช่วย", source(ALICE, group=GROUP))
    await b.app.storage.receive_events([NewEvent("line", f"group:{GROUP}", cut_short["webhookEventId"],
                                                 b.clock.now(), json.dumps(cut_short))])
    taken = await b.app.storage.take_event("line", f"group:{GROUP}", dead, stale_before=b.clock.now())
    assert taken.event is not None
    assert await b.door.inbox.release_the_dead() == 1  # every round of the scheduler does this
    after = text_event("/ช่วย", source(BOB, group=GROUP))
    assert await b.post(payload(after)) == 200
    # The event cut short is handled now, before the next one: nothing is lost, the order kept.
    assert [r.body["replyToken"] for r in b.fake.replies if r.status == 200] == [
        cut_short["replyToken"], after["replyToken"]]
