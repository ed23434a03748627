"""Two consoles on one database (two apps, each with its own connection and scheduler, as
two processes would have): a game with a minute per move runs out, and the loss on time is
announced once, by whichever scheduler claimed it."""

from __future__ import annotations

import asyncio
import io
import json
from contextlib import AsyncExitStack

from bot.adapters.console import ConsoleChat
from bot.app import open_app
from bot.config import Settings, with_database
from bot.engines import RandomMover

ROUNDS = 400  # scheduler intervals to wait at most for something to show


async def lines_then_wait(lines: list[str], stop: asyncio.Event):
    for line in lines:
        yield line
    await stop.wait()


def records(out: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def timeouts(outs: list[io.StringIO]) -> int:
    return sum(1 for out in outs for r in records(out) if (r.get("game") or {}).get("reason") == "timeout")


async def test_two_consoles_announce_a_loss_on_time_once(database, clock, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = with_database(Settings(), database)
    stop = asyncio.Event()
    outs = [io.StringIO(), io.StringIO()]
    async with AsyncExitStack() as stack:
        chats = []
        for out in outs:
            app = await stack.enter_async_context(open_app(settings, clock=clock, engine=RandomMover(seed=1)))
            chats.append(ConsoleChat(app.games, out=out, as_json=True))
        script = ["new @bob time=1m", "bob: accept", "e3e4"]
        runs = [asyncio.create_task(chats[0].run(lines_then_wait(script, stop), interval=0.01)),
                asyncio.create_task(chats[1].run(lines_then_wait([], stop), interval=0.01))]
        try:
            for _ in range(ROUNDS):
                if len(records(outs[0])) >= len(script):
                    break
                await asyncio.sleep(0.01)
            assert [r["kind"] for r in records(outs[0])] == ["challenge", "game", "game"], outs[0].getvalue()
            clock.advance(seconds=61)  # bob's minute is over
            for _ in range(ROUNDS):
                if timeouts(outs):
                    break
                await asyncio.sleep(0.01)
            for _ in range(20):  # both schedulers go round several more times
                await asyncio.sleep(0.01)
        finally:
            stop.set()
            await asyncio.gather(*runs)
    assert timeouts(outs) == 1, [o.getvalue() for o in outs]
    assert [r["kind"] for r in records(outs[0])][:3] == ["challenge", "game", "game"]
