"""The console keeps the promise too: a line whose process died after its change was stored,
before the answer was printed, is answered by the outbox when the console runs again."""

from __future__ import annotations

import io
import json

from bot.adapters.console import ConsoleChat
from bot.app import open_app
from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games.table import ANSWER_GRACE


async def lines(*texts: str):
    for text in texts:
        yield text


async def test_an_answer_never_printed_is_printed_once_after_the_restart(tmp_path, clock, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings(database_path=tmp_path / "console.db")
    async with open_app(settings, clock=clock, engine=RandomMover(seed=1)) as app:
        first = io.StringIO()
        await ConsoleChat(app.games, out=first, as_json=True).run(lines("new @bob", "bob: accept"), interval=3600)
        # The process handles "e3e4", stores the move with its answer, and dies before printing it.
        dying = ConsoleChat(app.games, out=io.StringIO(), as_json=True)
        incoming = dying.incoming("e3e4")
        assert incoming is not None
        await app.games.handle(incoming)

    clock.advance(seconds=ANSWER_GRACE.total_seconds())
    async with open_app(settings, clock=clock, engine=RandomMover(seed=1)) as app:
        again = io.StringIO()
        await ConsoleChat(app.games, out=again, as_json=True).run(lines("board"), interval=3600)
        shown = [json.loads(line) for line in again.getvalue().splitlines()]
        moved = [r for r in shown if (r.get("game") or {}).get("ply") == 1]
        assert len(moved) == 2, shown  # the owed answer, printed once at start, then the board asked for
        assert "you played e4" in moved[0]["text"] and "you played e4" not in moved[1]["text"], shown
        assert await app.storage.pending_notices("console", "console") == []
        game = await app.storage.active_game("console", "console")
        assert game is not None and [m.uci for m in game.moves] == ["e3e4"]
