"""The monthly message quota: read from LINE at start and by the housekeeping, and logged;
a warning from 80 %."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from bot.adapters.line.main import LineDoor
from bot.adapters.line.quota import Quota, read_quota
from bot.app import open_app
from bot.engines import RandomMover

from .support import ALICE, Harness, free_socket, texts

QUOTA_PATHS = ["/v2/bot/message/quota", "/v2/bot/message/quota/consumption"]


async def test_the_quota_is_read_at_start(line):
    assert line.fake.quota_reads() == QUOTA_PATHS
    assert line.fake.calls("POST") == []


async def test_the_housekeeping_reads_the_quota_again_and_warns_from_80_percent(settings_for, fake_line, clock,
                                                                               caplog):
    sock = free_socket()
    settings = settings_for(sock.getsockname()[1])
    caplog.set_level(logging.INFO, logger="bot.adapters.line.quota")
    async with open_app(settings, clock=clock) as app, \
            LineDoor(settings, app, scheduler_interval=3600, housekeeping_interval=0) as door:
        await door.listen(sock=sock)
        await door.caught_up.wait()
        reads = len(fake_line.quota_reads())
        assert reads >= 2 and "LINE push messages this month: 0 of 300" in caplog.text
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]

        fake_line.quota_used = 240
        await door.scheduler.run_once()
        assert len(fake_line.quota_reads()) == reads + 2
        (warning,) = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert warning.getMessage().startswith("LINE push messages this month: 240 of 300")


async def test_a_channel_without_a_limit_and_a_line_that_does_not_answer(line, caplog):
    caplog.set_level(logging.INFO, logger="bot.adapters.line.quota")
    line.fake.quota_limit, line.fake.quota_used = None, 12345
    assert await read_quota(line.door.api) == Quota(None, 12345)
    assert "12345 (no monthly limit)" in caplog.text
    line.fake.quota_limit, line.fake.quota_used = 500, 400
    assert await read_quota(line.door.api) == Quota(500, 400)
    assert "400 of 500" in caplog.records[-1].getMessage() and caplog.records[-1].levelno == logging.WARNING

    line.door.api_client.configuration.access_token = "revoked"  # LINE answers 401
    assert await read_quota(line.door.api) is None
    assert "could not read LINE's message quota: 401" in caplog.text


QUOTA, CONSUMPTION = QUOTA_PATHS


@pytest.mark.parametrize("path, body", [
    (QUOTA, "{}"),  # no type
    (QUOTA, '{"type": "limited"}'),  # limited, but no value
    (QUOTA, '{"type": "limited", "value": "many"}'),
    (QUOTA, '{"type": "rationed", "value": 300}'),
    (CONSUMPTION, "{}"),  # no totalUsage
    (CONSUMPTION, "<html>Bad gateway</html>"),  # not JSON
])
async def test_an_odd_quota_answer_is_a_warning_and_the_door_starts_and_answers(settings_for, fake_line, clock,
                                                                              caplog, path, body):
    fake_line.quota_bodies[path] = body
    sock = free_socket()
    port = sock.getsockname()[1]
    settings = settings_for(port)
    caplog.set_level(logging.INFO, logger="bot.adapters.line.quota")
    async with (open_app(settings, clock=clock, engine=RandomMover(seed=1)) as app,
                LineDoor(settings, app, scheduler_interval=3600) as door):
        await door.listen(sock=sock)
        await door.caught_up.wait()
        assert path in fake_line.quota_reads()
        (warning,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert warning.getMessage().startswith("could not read LINE's message quota")
        assert "LINE push messages this month" not in caplog.text
        async with aiohttp.ClientSession() as http:
            harness = Harness(f"http://127.0.0.1:{port}", door, fake_line, http, settings.database_path, app=app,
                              clock=clock)
            assert "Alice" in texts(await harness.say(ALICE, "เริ่ม บอท"))
