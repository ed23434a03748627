"""The product end to end: ``makruk-bot console --web PORT --json`` in a process of its own, its
players' links opened in two browsers, moves going both ways between the page and the chat."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import expect

from makruk import Board

from .conftest import OpenPage
from .live import play, ready, shows

pytestmark = pytest.mark.asyncio(loop_scope="package")

ROOT = Path(__file__).resolve().parents[2]
ANSWER_WITHIN = 30.0  # seconds: how long a reply may take on a loaded machine before the test gives up


class Console:
    """The console process: lines in, JSON records out."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def say(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        await self.process.stdin.drain()

    async def record(self, **where: Any) -> dict[str, Any]:
        """The next record the console prints with the fields of ``where`` (earlier ones are passed over)."""
        assert self.process.stdout is not None
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), ANSWER_WITHIN)
            assert line, "the console ended"
            record: dict[str, Any] = json.loads(line)
            if all(record.get(key) == value for key, value in where.items()):
                return record


def after(*moves: str) -> str:
    board = Board()
    for move in moves:
        board.push(board.parse_move(move))
    return board.fen()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest_asyncio.fixture(loop_scope="package")
async def console(tmp_path: Path) -> AsyncIterator[Console]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "console.db"), "--json",
        "--web", str(free_port()), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=tmp_path, env=env)
    try:
        yield Console(process)
    finally:
        assert process.stdin is not None and process.stderr is not None
        process.stdin.close()
        errors = await process.stderr.read()
        assert await asyncio.wait_for(process.wait(), ANSWER_WITHIN) == 0, errors.decode()


async def test_the_consoles_links_sign_each_player_in_and_moves_go_both_ways(
    console: Console, open_page: OpenPage
) -> None:
    await console.say("new @bob white")
    await console.say("bob: accept")
    started = await console.record(kind="game")
    assert set(started["links"]) == {"you", "bob"}
    you, bob, watcher = await open_page(), await open_page(phone=True), await open_page()
    await you.goto(started["links"]["you"])
    await bob.goto(started["links"]["bob"])
    await watcher.goto(started["watch"])
    for page in (you, bob, watcher):
        await ready(page)

    # A move clicked on the page is announced in the chat, as a typed one is.
    await play(you, "e3e4")
    announced = await console.record(kind="game")
    assert announced["game"]["fen"] == after("e3e4")
    await shows(bob, "e4", "P")
    await shows(watcher, "e4", "P")

    # A move typed in the chat shows on the pages.
    await console.say("bob: d6d5")
    assert (await console.record(kind="game"))["game"]["fen"] == after("e3e4", "d6d5")
    for page in (you, bob, watcher):
        await shows(page, "d5", "p")
        await expect(page.locator("[data-moves] li")).to_have_count(2)
