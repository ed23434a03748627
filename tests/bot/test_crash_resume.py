"""The bot is killed (SIGKILL) at random points of games against it and started again on the
same database: every game goes on and reaches its end, no move is applied twice or lost, and
the bot's turn is always played (at start-up when it was thinking at the kill).

The bot runs as the real console door in a child process (``python -m bot console --json``);
the test plays the person, reading the game from the JSON replies.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

from makruk import Board, Move
from storage import open_storage

ROOT = Path(__file__).resolve().parents[2]
KILLS = 20
PERSON = "you"
RESIGN_AFTER = 40  # plies: a game this long ends with the person's resignation


class Bot:
    """One run of the console bot; ``say`` sends a line and returns the replies to it."""

    def __init__(self, process: asyncio.subprocess.Process, log: Path) -> None:
        self.process = process
        self.log = log

    @classmethod
    async def start(cls, db: Path) -> Bot:
        log = db.with_suffix(".log")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "DISCORD_TOKEN": "", "LINE_CHANNEL_SECRET": "",
               "LINE_CHANNEL_ACCESS_TOKEN": "", "FAIRY_STOCKFISH": str(ROOT / "no-such-engine")}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "console", "--db", str(db), "--json", "--lang", "en",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log.open("ab"),
            cwd=ROOT, env=env,
        )
        return cls(process, log)

    async def say(self, text: str) -> list[dict[str, Any]]:
        """Sends ``text`` and then ``help`` as a marker; returns the replies before the marker's."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{PERSON}: {text}\n{PERSON}: help\n".encode())
        await self.process.stdin.drain()
        replies: list[dict[str, Any]] = []
        while True:
            try:
                line = await asyncio.wait_for(self.process.stdout.readline(), 60)
            except TimeoutError:
                raise AssertionError(f"no answer to {text!r}; the bot's log:\n{self._log_tail()}") from None
            assert line, f"the bot stopped answering {text!r}; its log:\n{self._log_tail()}"
            reply = json.loads(line)
            if reply["kind"] == "help":
                return replies
            replies.append(reply)

    def _log_tail(self) -> str:
        return "\n".join(self.log.read_text("utf-8", "replace").splitlines()[-30:])

    async def state(self) -> dict[str, Any] | None:
        """The game being played (with ``me``, the person's colour), or None."""
        replies = await self.say("board")
        shown = [r for r in replies if r["kind"] == "game" or r["error"] in ("no_game", "not_started")]
        if not shown or shown[-1]["error"] is not None:
            return None
        game = shown[-1]["game"]
        return {**game, "me": "w" if game["white"] == PERSON else "b"}

    async def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self._release_pipes()

    async def _release_pipes(self) -> None:
        # Closed pipes let asyncio close the process's transport now, not at garbage collection.
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.stdout.read(), 60)
        except TimeoutError:
            raise AssertionError("a process of the killed bot lives on and holds its output") from None

    async def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await asyncio.wait_for(self.process.wait(), 120)
        await self._release_pipes()


async def test_killed_bots_games_go_on_to_their_end_with_every_move_once(tmp_path: Path) -> None:
    rng = random.Random(20261201)
    db = tmp_path / "bot.db"
    acknowledged: list[str] = []  # the person's moves the bot answered as played
    for run in range(KILLS + 1):
        last = run == KILLS
        bot = await Bot.start(db)
        # A few steps, sometimes none (killed while starting up); the last run plays to the end.
        steps = 10_000 if last else rng.randrange(0, 6)
        for _ in range(steps):
            state = await bot.state()
            if state is None:
                if last:
                    break  # the game reached its end
                colour = "white" if rng.random() < 0.5 else "black"
                assert (await bot.say(f"new bot 1 {colour}"))[0]["error"] is None
                continue
            assert state["turn"] == state["me"], f"the bot's turn is waiting: {state}"
            if state["ply"] >= RESIGN_AFTER:
                await bot.say("resign")
                continue
            move = rng.choice(Board(state["fen"]).legal_moves()).uci()
            replies = await bot.say(move)
            if replies and replies[0]["error"] is None:
                acknowledged.append(move)
        if last:
            await bot.close()
        else:
            await asyncio.sleep(rng.random() * 0.3)  # the kill lands anywhere: thinking, writing, idle
            await bot.kill()
    await _check_database(db, acknowledged)


async def _check_database(db: Path, acknowledged: list[str]) -> None:
    async with await open_storage(db) as storage:
        person = await storage.find_player("console", PERSON)
        assert person is not None
        games = await storage.finished_games(person.id, limit=1000)
        assert games, "no game reached its end"
        assert await storage.active_game("console", "console") is None
        played: list[str] = []
        for game in sorted(games, key=lambda g: g.id):
            board = Board(game.start_fen)
            for record in game.moves:
                move = Move.from_uci(record.uci)
                assert record.by == ("w" if board.turn else "b"), f"a move out of turn in game {game.id}"
                assert board.is_legal(move), f"an illegal move {record.uci} in game {game.id}"
                board.push(move)
            played += [m.uci for m in game.moves]
        # Every move the person saw acknowledged is stored, in order (as a subsequence: the
        # bot's moves stand between them).
        stored = iter(played)
        assert all(uci in stored for uci in acknowledged), "an acknowledged move was lost"
        assert (await storage.notice_counts("console")).dead == 0
