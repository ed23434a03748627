"""A live game's clocks on the web board: both shown as m:ss, and a flag falling at its moment,
seen on the page and announced in the chat."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import expect

from bot.clock import FakeClock

from ..bot.support import tick
from .conftest import OpenPage
from .live import Live, play, ready, serving, shows

pytestmark = pytest.mark.asyncio(loop_scope="package")


@pytest_asyncio.fixture(loop_scope="package")
async def live(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Live]:
    async with serving(tmp_path / "bot.db", clock) as running:
        yield running


async def test_a_flag_falls_on_the_page_and_in_the_chat(live: Live, open_page: OpenPage) -> None:
    await live.chat.ok("ann", "new @bob white 3+2", "bob")
    game = (await live.chat.ok("bob", "accept"))[-1].game
    assert game is not None
    ann, bob = await open_page(), await open_page()
    await ann.goto(live.link(game.id, "ann"))
    await bob.goto(live.link(game.id, "bob"))
    await ready(ann)
    await ready(bob)
    for page in (ann, bob):
        await expect(page.locator('[data-clock="white"]')).to_have_text("3:00")
        await expect(page.locator('[data-clock="black"]')).to_have_text("3:00")
    await play(ann, "e3e4")
    await shows(bob, "e4", "P")
    await play(bob, "d6d5")
    await shows(ann, "d5", "p")  # White's clock runs from here
    await live.announced()

    live.clock.advance(seconds=180)
    notices = await tick(live.games)  # the scheduler's round at the flag's moment
    assert [(n.reply.game.result, n.reply.game.reason) for n in notices if n.reply.game] == [("0-1", "timeout")]
    for page in (ann, bob):
        await expect(page.locator('[data-clock="white"]')).to_have_text("0:00")
        await expect(page.locator("[data-status]")).to_have_text(await live.status(game.id))
        await expect(page.locator("[data-action]")).to_have_count(0)
    await expect(bob.locator('[data-clock="black"]')).to_have_text("3:00")  # its first move was free
