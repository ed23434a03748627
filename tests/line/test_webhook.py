"""The webhook as LINE and strangers reach it: signatures, sizes, malformed bodies, redeliveries."""

from __future__ import annotations

import json

import aiohttp

from bot.adapters.line.main import LineDoor
from bot.adapters.line.webhook import MAX_BODY
from bot.app import open_app

from .support import ALICE, BOB, GROUP, database_dump, event, free_socket, payload, sign, source, text_event


async def test_health_check_answers_200(line):
    status, _, body = await line.fetch(f"{line.base_url}/")
    assert status == 200 and body == b"ok"


async def test_forged_unsigned_malformed_and_oversize_requests_change_nothing(line):
    await line.say(ALICE, "ช่วย")  # the database holds something to compare
    before = database_dump(line.db)
    line.fake.requests.clear()
    good = payload(text_event("เริ่ม บอท", source(ALICE)))

    assert await line.post(good, signature=None) == 400  # unsigned
    assert await line.post(good, signature="") == 400
    assert await line.post(good, signature=sign(good, "someone-else's-secret")) == 400  # forged
    assert await line.post(good, signature=sign(good + b" ")) == 400  # signed another body
    assert await line.post(good[:-1] + b"!", signature=sign(good)) == 400  # body changed in transit
    tampered = good.replace("เริ่ม".encode(), "ยอมแพ้".encode())
    assert await line.post(tampered, signature=sign(good)) == 400

    for body in (b"not json", b"[]", b'{"events": 5}', b'{"events": [1]}', b"\xff\xfe", b'{"destination": "x"}'):
        assert await line.post(body) == 400, body  # signed but malformed

    huge = json.dumps({"events": [], "padding": "x" * MAX_BODY}).encode()
    assert await line.post(huge) == 413  # Content-Length says too much

    async def chunks():  # no Content-Length: the read itself is capped
        for _ in range(20):
            yield b" " * (128 * 1024)

    assert await line.post(chunks(), signature=sign(b" " * (20 * 128 * 1024))) == 413

    assert line.fake.requests == []  # no reply, push or profile lookup
    assert database_dump(line.db) == before


MALFORMED = [
    b"[" * 100_000,  # nested too deeply for any parser: was a 500 (RecursionError)
    b'{"events": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    b'{"events": [' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_000 + b"]}",
    b"null", b"5", b'"events"', b"[{}]", b"{}",
    b'{"events": null}', b'{"events": "[]"}', b'{"events": {}}', b'{"events": [null]}', b'{"events": [[]]}',
    b'{"events": [{}]}', b'{"events": [{"type": 5}]}', b'{"events": [{"type": null}]}',
    b'{"events": [], "x": "\xff"}',  # not UTF-8
    b'{"events": []}\x00',  # something after the object
    b'{"events": [], "n": ' + b"9" * 10_000 + b"}",  # an integer too long for Python to read
    b"\xef\xbb\xbf{}",  # a byte-order mark
    b"",
]


async def test_signed_bodies_of_any_bad_shape_get_400_and_change_nothing(line):
    await line.say(ALICE, "ช่วย")
    before = database_dump(line.db)
    line.fake.requests.clear()
    for body in MALFORMED:
        assert await line.post(body) == 400, body[:40]
    assert line.fake.requests == [] and database_dump(line.db) == before


async def test_events_of_unknown_or_unreadable_kinds_are_skipped_and_the_rest_handled(line):
    odd = [{"type": "somethingNew", "mode": "active"},  # a kind LINE may add one day
           {"type": "message", "mode": "active", "message": 5}]  # a known kind the SDK cannot read
    body = json.dumps({"destination": "x", "events": [*odd, text_event("ช่วย", source(ALICE))]}).encode()
    assert await line.post(body) == 200
    (reply,) = line.fake.replies
    assert reply.body["messages"][0]["text"].startswith("คำสั่งบอทหมากรุกไทย")


async def test_the_console_verify_request_without_events_is_answered(line):
    before = len(line.fake.requests)  # the quota, read at start
    assert await line.post(payload()) == 200
    assert len(line.fake.requests) == before


async def test_requests_are_answered_before_their_events_are_handled(line):
    line.fake.profile_delay = 0.5  # LINE is slow today
    status = await line.post(payload(text_event("ช่วย", source(ALICE))), wait=False)
    assert status == 200 and line.fake.replies == []
    await line.door.webhook.drain()
    assert len(line.fake.replies) == 1


async def test_a_redelivered_event_is_not_applied_twice(line):
    new = text_event("เริ่ม บอท", source(ALICE))
    (first,) = await line.send(new)
    assert first, "the first delivery is answered"
    again = {**new, "deliveryContext": {"isRedelivery": True}, "replyToken": "reply-token-redelivered"}
    (second,) = await line.send(again)
    assert second == [] and len(line.fake.replies) == 1 and line.fake.pushes == []
    assert await line.app.storage.active_game("line", f"user:{ALICE}") is not None


async def test_a_redelivered_move_is_played_once(line):
    await line.say(ALICE, "/new", group=GROUP)
    await line.say(BOB, "รับ", group=GROUP)
    move = text_event("e3e4", source(ALICE, group=GROUP))
    await line.send(move)
    await line.send({**move, "deliveryContext": {"isRedelivery": True}})
    game = await line.app.storage.active_game("line", f"group:{GROUP}")
    assert [m.uci for m in game.moves] == ["e3e4"]


async def test_events_in_one_request_are_handled_in_order_and_others_ignored(line):
    events = [
        event("unfollow", source(ALICE)),
        event("message", source(ALICE), replyToken="sticker-token",
              message={"id": "9", "type": "sticker", "packageId": "1", "stickerId": "1",
                       "stickerResourceType": "STATIC", "quoteToken": "q"}),
        {**text_event("ช่วย", source(ALICE)), "mode": "standby"},  # another channel has this chat
        text_event("ภาษา en", source(ALICE)),
        text_event("help", source(ALICE)),
    ]
    answers = await line.send(*events)
    assert answers[:3] == [[], [], []]
    assert "English" in answers[3][0]["text"]
    assert answers[4][0]["text"].startswith("Makruk bot commands")


async def test_shutdown_finishes_the_events_it_accepted(settings_for, fake_line, clock):
    sock = free_socket()
    settings = settings_for(sock.getsockname()[1])
    fake_line.profile_delay = 0.3
    async with open_app(settings, clock=clock) as app:
        async with LineDoor(settings, app) as door:
            await door.listen(sock=sock)
            async with aiohttp.ClientSession() as http:
                body = payload(text_event("ช่วย", source(ALICE)))
                async with http.post(f"{settings.public_base_url}/callback", data=body,
                                     headers={"X-Line-Signature": sign(body)}) as response:
                    assert response.status == 200
            assert fake_line.replies == []
        assert len(fake_line.replies) == 1  # answered before the door closed
