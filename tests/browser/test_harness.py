"""The browser harness itself, before any page of the bot's: chromium starts, draws a page, and
keeps each test's contexts apart."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from playwright.async_api import Page, expect

from .conftest import PHONE, OpenPage

pytestmark = pytest.mark.asyncio(loop_scope="package")

PAGE = """<!doctype html><html lang="th"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body, h1 { margin: 0 }
h1 { height: 40px; overflow: hidden }
#swatch { width: 120px; height: 80px; background: rgb(200, 40, 30) }
</style>
<h1 data-status>ตาของขาว</h1><div id="swatch"></div>
<script>document.querySelector("h1").dataset.ready = "yes"</script>"""


async def test_a_static_page_renders_its_text_its_script_and_its_colours(page: Page) -> None:
    await page.set_content(PAGE)
    await expect(page.locator("[data-status]")).to_have_text("ตาของขาว")
    await expect(page.locator("h1")).to_have_attribute("data-ready", "yes")
    shot = Image.open(io.BytesIO(await page.locator("#swatch").screenshot())).convert("RGB")
    assert shot.size == (120, 80)
    assert shot.getpixel((60, 40)) == (200, 40, 30)


async def test_a_phone_page_is_360_wide_and_touch(phone: Page) -> None:
    await phone.set_content(PAGE)
    size = await phone.evaluate("[window.innerWidth, window.innerHeight, navigator.maxTouchPoints > 0]")
    assert size == [PHONE["width"], PHONE["height"], True]


async def test_two_pages_share_no_cookies(open_page: OpenPage) -> None:
    first, second = await open_page(), await open_page()
    await first.context.add_cookies([{"name": "t", "value": "secret", "url": "http://board.test/"}])
    assert [cookie["name"] for cookie in await first.context.cookies()] == ["t"]
    assert await second.context.cookies() == []
