"""The console's ``--json`` records of an event's answers: a reply that is about no game carries
none (not the chat's casual game), ``berserk`` carries the player's own game, and a refused move
still shows the game it was refused in: the player's event game, not the chat's casual one (the
console prints the game the service put on the reply)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.adapters.console import ConsoleChat
from bot.app import open_tournaments
from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService
from storage import open_storage

from .support import no_image


@contextlib.asynccontextmanager
async def console(tmp_path: Path) -> AsyncIterator[Callable[[str], Awaitable[list[dict[str, Any]]]]]:
    """The console's ``--json`` chat over a SQLite file, with events: ``say(line)`` gives the
    records the line printed, and what the outbox then delivered."""
    clock = FakeClock()
    storage = await open_storage(str(tmp_path / "console.db"), clock=clock.now)
    try:
        games = GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1),
                            render=no_image)
        open_tournaments(games)
        out = io.StringIO()
        chat = ConsoleChat(games, out=out, as_json=True)

        async def say(line: str) -> list[dict[str, Any]]:
            start = len(out.getvalue())
            await chat.say(line)
            await chat.outbox().drain()
            return [json.loads(record) for record in out.getvalue()[start:].splitlines()]

        yield say
    finally:
        await storage.close()


async def test_only_replies_about_a_game_carry_one(tmp_path: Path) -> None:
    async with console(tmp_path) as say:
        await say("zed: new @yan")
        casual = (await say("yan: accept"))[0]["game"]
        assert casual is not None
        await say("alice: tournament new arena 30m 3+2")
        joined = await say("bob: join")
        assert [(r["kind"], r["game"]) for r in joined] == [("tournament", None)]
        refused = await say("cy: withdraw")
        assert [(r["error"], r["game"]) for r in refused] == [("not_entered", None)]
        assert [r["game"] for r in await say("cy: help")] == [None]
        await say("alice: join")
        started = await say("alice: tournament start")
        pairings = next(r for r in started if r["kind"] == "tournament_pairings")
        pair = pairings["pairs"][0]
        berserk = await say(f"{pair['black']}: berserk")
        assert [(r["kind"], r["game"]["id"]) for r in berserk] == [("tournament", pair["game"])]
        out_of_turn = await say(f"{casual['black']}: e6e5")  # White is to move in the casual game
        assert out_of_turn[0]["error"] == "not_your_turn" and out_of_turn[0]["game"]["id"] == casual["id"]


async def test_a_refused_move_shows_the_event_game_it_was_refused_in(tmp_path: Path) -> None:
    async with console(tmp_path) as say:
        await say("zed: new @yan")
        casual = (await say("yan: accept"))[0]["game"]
        await say("alice: tournament new arena 30m 3+2")
        await say("bob: join")
        await say("alice: join")
        started = await say("alice: tournament start")
        pair = next(r for r in started if r["kind"] == "tournament_pairings")["pairs"][0]
        refused = await say(f"{pair['black']}: e6e5")  # White is to move in the player's event game
        assert [(r["error"], r["game"]["id"]) for r in refused] == [("not_your_turn", pair["game"])]
        assert pair["game"] != casual["id"]  # not the chat's casual game
        history = await say(f"{pair['white']}: history")
        assert [(r["kind"], r["game"]["id"]) for r in history] == [("history", pair["game"])]
