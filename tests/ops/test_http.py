"""/healthz and /metrics: on a port of their own (start_metrics_server) and on the LINE webhook server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.adapters.line.main import LineDoor
from bot.app import App, open_app
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Reply
from bot.observability.health import check_health
from bot.observability.http import start_metrics_server
from bot.observability.metrics import Metrics
from bot.services.outbox import new_notice

from ..bot.support import Chat
from ..line.support import SECRET, TOKEN, FakeLine, free_socket, payload, sign

NAMES = ("makruk_messages_total", "makruk_moves_total", "makruk_reply_seconds", "makruk_engine_move_seconds",
         "makruk_engine_fallbacks_total", "makruk_webhook_rejections_total", "makruk_outbox_notices",
         "makruk_database_up", "makruk_scheduler_claims_total")


@pytest.fixture
async def server(app: App) -> AsyncIterator[str]:
    """``app``'s endpoints on a free port of the loopback; their base URL."""
    runner = await start_metrics_server(0, app, host="127.0.0.1")
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}"
    await runner.cleanup()


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, response.headers["Content-Type"], await response.text()


def samples(exposition: str) -> dict[tuple[str, frozenset], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(exposition) for s in family.samples}


async def test_healthz_is_200_while_the_database_answers(server):
    status, content_type, body = await get(f"{server}/healthz")
    assert status == 200 and content_type.startswith("application/json")
    assert json.loads(body) == {"status": "ok", "database": "ok", "engine": {"name": "random"}}


async def test_healthz_is_503_when_the_database_is_closed(server, app):
    await app.storage.close()
    status, _, body = await get(f"{server}/healthz")
    assert status == 503
    assert json.loads(body)["status"] == "unavailable" and json.loads(body)["database"] == "error"
    _, _, exposition = await get(f"{server}/metrics")  # /metrics still answers, and says so
    assert samples(exposition)[("makruk_database_up", frozenset())] == 0


async def test_a_database_that_does_not_answer_in_time_is_unhealthy(app, monkeypatch):
    async def hangs(platform=None):
        await asyncio.sleep(10)

    monkeypatch.setattr(app.storage, "notice_counts", hangs)
    status, report = await check_health(app, timeout=0.05)
    assert status == 503 and report["database"] == "timeout"


async def test_metrics_lists_every_metric_and_counts_a_move(server, app):
    status, content_type, exposition = await get(f"{server}/metrics")
    assert status == 200 and content_type.startswith("text/plain; version=0.0.4")
    families = {family.name for family in text_string_to_metric_families(exposition)}
    assert {name.removesuffix("_total") for name in NAMES} <= families
    human = ("makruk_moves_total", frozenset({"platform": "console", "by": "human"}.items()))
    assert samples(exposition)[human] == 0
    chat = Chat(app.games)
    await chat.ok("alice", "new bot")
    await chat.ok("alice", "e3e4")
    _, _, exposition = await get(f"{server}/metrics")
    assert samples(exposition)[human] == 1
    assert samples(exposition)[("makruk_database_up", frozenset())] == 1


async def test_metrics_counts_the_outbox_when_scraped(server, app):
    notice, _ = new_notice("line", "C1", "reminder", Reply("info", "your move", "en"))
    await app.storage.add_notices([notice])
    _, _, exposition = await get(f"{server}/metrics")
    values = samples(exposition)
    assert values[("makruk_outbox_notices", frozenset({"platform": "line", "state": "pending"}.items()))] == 1
    assert values[("makruk_outbox_notices", frozenset({"platform": "line", "state": "dead"}.items()))] == 0
    assert values[("makruk_outbox_notices", frozenset({"platform": "discord", "state": "pending"}.items()))] == 0


async def test_the_metrics_server_needs_a_free_port(app, server):
    port = int(server.rsplit(":", 1)[1])
    with pytest.raises(OSError):
        await start_metrics_server(port, app, host="127.0.0.1")


# --- the LINE webhook server ----------------------------------------------------------------

@pytest.fixture
async def line(tmp_path, clock, metrics) -> AsyncIterator[str]:
    """The real LINE door on the loopback, beside a fake LINE; its base URL."""
    fake = FakeLine()
    runner = web.AppRunner(fake.app(), access_log=None)
    await runner.setup()
    fake_sock = free_socket()
    await web.SockSite(runner, fake_sock).start()
    sock = free_socket()
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    settings = Settings(database_path=tmp_path / "line.db", line_channel_secret=SECRET, line_channel_access_token=TOKEN,
                        public_base_url=base, line_api_base_url=f"http://127.0.0.1:{fake_sock.getsockname()[1]}")
    try:
        async with (open_app(settings, clock=clock, engine=RandomMover(seed=1), metrics=metrics) as app,
                    LineDoor(settings, app, scheduler_interval=3600) as door):
            await door.listen(sock=sock)
            yield base
    finally:
        fake.release()
        await runner.cleanup()


async def test_the_line_server_serves_healthz_and_metrics_beside_its_webhook(line):
    base = line
    status, _, body = await get(f"{base}/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"
    status, _, exposition = await get(f"{base}/metrics")
    assert status == 200 and "makruk_webhook_rejections_total" in exposition
    assert (await get(f"{base}/"))[:1] == (200,)  # the old health route stays


async def test_refused_webhooks_are_counted_by_reason(line, metrics):
    base = line
    body = payload()

    async def post(data: bytes, headers: dict[str, str]) -> int:
        async with aiohttp.ClientSession() as http, http.post(f"{base}/callback", data=data,
                                                              headers=headers) as response:
            return response.status

    assert await post(body, {"X-Line-Signature": sign(body)}) == 200
    assert await post(body, {}) == 400
    assert await post(body, {"X-Line-Signature": sign(body, "another secret")}) == 400
    assert await post(body, {"X-Line-Signature": sign(body, "another secret")}) == 400
    assert await post(b"[1]", {"X-Line-Signature": sign(b"[1]")}) == 400
    assert await post(b"x" * (1024 * 1024 + 1), {"X-Line-Signature": "x"}) == 413

    def rejected(reason: str) -> float:
        return metrics.value("makruk_webhook_rejections_total", reason=reason)

    assert rejected("missing_signature") == 1 and rejected("bad_signature") == 2
    assert rejected("bad_body") == 1 and rejected("too_large") == 1 and rejected("busy") == 0


def test_tests_get_metrics_of_their_own(metrics):
    assert metrics.registry is not Metrics().registry


async def test_a_scraper_that_asks_for_openmetrics_gets_it(server):
    async with (aiohttp.ClientSession() as http,
                http.get(f"{server}/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"}) as r):
        assert r.headers["Content-Type"].startswith("application/openmetrics-text; version=1.0.0")
        assert (await r.text()).endswith("# EOF\n")
