"""Fixtures for tests in a real browser: Debian's chromium, driven by Playwright.

One browser for all the tests of this folder (a launch takes about half a second; it is closed
when they are done, not kept through the rest of the run), a new context for every page a test
opens (its own cookies, storage and cache: nothing passes between tests, nor between two players
of one test), at a phone's or a desktop's size.

The browser lives on this folder's event loop, so every test module here says
``pytestmark = pytest.mark.asyncio(loop_scope="package")`` and its async fixtures
``@pytest_asyncio.fixture(loop_scope="package")`` (the root conftest's async fixtures run on a
loop per test: open what a test needs here instead).

A missing chromium fails these tests rather than skipping them: ``./test.sh`` installs it when
run as root; elsewhere ``sudo apt-get install chromium`` (or point ``MAKRUK_CHROMIUM`` at one).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import playwright
import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, async_playwright, expect

CHROMIUM_ENV = "MAKRUK_CHROMIUM"
# The browser itself: /usr/bin/chromium is a shell wrapper that reads /etc/chromium.d and adds flags.
DEBIAN_CHROMIUM = "/usr/lib/chromium/chromium"
# Playwright cannot download its own browser here, and a container has no user namespaces to sandbox in.
LAUNCH_ARGS = ["--no-sandbox"]

PHONE: ViewportSize = {"width": 360, "height": 640}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
# A loaded machine (two cores, the server and the browser on them) is slower than Playwright assumes.
TIMEOUT_MS = 15_000

OpenPage = Callable[..., Awaitable[Page]]


def chromium_path() -> str:
    """The chromium to drive; fails the test (never skips it) when there is none."""
    path = os.environ.get(CHROMIUM_ENV) or DEBIAN_CHROMIUM
    if not os.access(path, os.X_OK):
        pytest.fail(
            f"no chromium at {path}: ./test.sh installs Debian's when run as root; "
            f"else sudo apt-get install chromium, or set {CHROMIUM_ENV} to a chromium binary",
            pytrace=False,
        )
    return path


def playwright_chromium_major() -> int:
    """The Chromium major version the installed Playwright was released for."""
    browsers = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    entries = json.loads(browsers.read_text())["browsers"]
    version = next(entry["browserVersion"] for entry in entries if entry["name"] == "chromium")
    return int(version.split(".")[0])


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def browser() -> AsyncIterator[Browser]:
    path = chromium_path()
    expect.set_options(timeout=TIMEOUT_MS)
    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=path, args=LAUNCH_ARGS)
        major = int(launched.version.split(".")[0])
        if major != playwright_chromium_major():
            # Debian moves chromium on with security updates; the pin in pyproject.toml follows.
            release = importlib.metadata.version("playwright")
            warnings.warn(
                f"chromium {launched.version} but Playwright {release} is made for Chromium "
                f"{playwright_chromium_major()}: pin the Playwright release for {major} in pyproject.toml",
                stacklevel=1,
            )
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="package")
async def open_page(browser: Browser) -> AsyncIterator[OpenPage]:
    """Opens a page in a context of its own: ``await open_page(phone=True, locale="th-TH")``;
    other keywords go to ``Browser.new_context``. Every context is closed after the test."""
    contexts: list[BrowserContext] = []

    async def open_one(*, phone: bool = False, **options: Any) -> Page:
        options.setdefault("viewport", PHONE if phone else DESKTOP)
        options.setdefault("device_scale_factor", 1)
        if phone:
            options.setdefault("is_mobile", True)
            options.setdefault("has_touch", True)
        context = await browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return await context.new_page()

    try:
        yield open_one
    finally:
        for context in contexts:
            await context.close()


@pytest_asyncio.fixture(loop_scope="package")
async def page(open_page: OpenPage) -> Page:
    """A desktop page in a fresh context."""
    return await open_page()


@pytest_asyncio.fixture(loop_scope="package")
async def phone(open_page: OpenPage) -> Page:
    """A phone-sized page (360x640, touch) in a fresh context."""
    return await open_page(phone=True)
