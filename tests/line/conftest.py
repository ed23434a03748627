"""Fixtures: a fake LINE API and the real LINE door on loopback, over a real SQLite file."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp import web

from bot.adapters.line.main import LineDoor
from bot.app import open_app
from bot.config import Settings
from bot.engines import RandomMover

from .support import SECRET, TOKEN, FakeLine, Harness, free_socket


@pytest.fixture
async def fake_line():
    fake = FakeLine()
    runner = web.AppRunner(fake.app(), access_log=None)
    await runner.setup()
    sock = free_socket()
    site = web.SockSite(runner, sock)
    await site.start()
    fake.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    yield fake
    fake.release()
    await runner.cleanup()


@pytest.fixture
def settings_for(tmp_path, fake_line):
    def make(port: int, **more: object) -> Settings:
        return Settings(
            database_path=tmp_path / "line.db",
            line_channel_secret=SECRET,
            line_channel_access_token=TOKEN,
            public_base_url=f"http://127.0.0.1:{port}",
            line_api_base_url=fake_line.url,
            line_language="th",
            **more,  # type: ignore[arg-type]
        )
    return make


@pytest.fixture
def line_settings() -> dict[str, object]:
    """Settings a test module adds to the door's (override the fixture)."""
    return {}


@pytest.fixture
async def line(settings_for, fake_line, clock, line_settings):
    sock = free_socket()
    port = sock.getsockname()[1]
    settings = settings_for(port, **line_settings)
    async with (open_app(settings, clock=clock, engine=RandomMover(seed=1)) as app,
                LineDoor(settings, app, scheduler_interval=3600) as door):
        await door.listen(sock=sock)
        await door.caught_up.wait()  # the scheduler's first round, at start, is over
        async with aiohttp.ClientSession() as http:
            yield Harness(f"http://127.0.0.1:{port}", door, fake_line, http, settings.database_path, app=app,
                          clock=clock)
