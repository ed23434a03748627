"""Real ``makruk-bot line`` server processes, and the chaos that kills and restarts them.

A ``BotProcess`` keeps one server running on its port: started with the given environment in a
folder of its own (its picture cache, its log), started again after it was killed (after the
pause the killer chose) or after it exited by itself (counted: a server should not give up,
say while the database restarts). ``Chaos`` kills them with SIGKILL at random moments, and
right after some 200s, and restarts the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AFTER_OK = (0.0, 0.04)  # seconds after a 200 at which its server is killed, when it is
EXIT_PAUSE = 0.5  # seconds before starting a server again that exited by itself
STOP_GRACE = 10.0  # seconds a server has to stop on SIGTERM at the end


class BotProcess:
    """One ``makruk-bot line`` server on ``port``, kept running until ``stop``."""

    def __init__(self, name: str, port: int, folder: Path, env: dict[str, str]) -> None:
        self.name = name
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.folder = folder
        self.env = env
        self.log = folder / "bot.log"
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.exits: list[int] = []  # the status of each exit we did not cause
        self._pause: float | None = None  # set by kill: how long to stay down
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._task = asyncio.create_task(self._keep_running(), name=f"bot-{self.name}")

    def kill(self, pause: float) -> bool:
        """SIGKILL, then start again after ``pause`` seconds; False if it was not running."""
        if self.process is None or not self.running or self._stopping:
            return False
        self._pause = pause
        self.process.kill()
        return True

    async def stop(self) -> None:
        self._stopping = True
        if self.process is not None and self.running:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), STOP_GRACE)
            except TimeoutError:
                self.process.kill()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _keep_running(self) -> None:
        while not self._stopping:
            with self.log.open("ab") as log:
                log.write(f"--- start {self.starts + 1} at {time.strftime('%H:%M:%S')}\n".encode())
                log.flush()
                self.process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", "line", "--host", "127.0.0.1", "--port", str(self.port),
                    cwd=self.folder, env={**self.env, "PYTHONPATH": str(ROOT)}, stdin=asyncio.subprocess.DEVNULL,
                    stdout=log, stderr=log)
            self.starts += 1
            status = await self.process.wait()
            if self._stopping:
                return
            pause, self._pause = self._pause, None
            if pause is None:
                self.exits.append(status)
                pause = EXIT_PAUSE
            await asyncio.sleep(pause)


@dataclass
class Kill:
    server: str
    at: float  # time.monotonic()
    after_ok: bool  # right after a 200 of this server


@dataclass
class Chaos:
    """Kills a running server every ``kill_every`` seconds (and, with ``after_ok_chance``,
    the server that just answered 200, 0-40 ms later), starting it again ``restart_after``
    seconds later; restarts the database ``db_restarts`` times (at random moments in the middle
    half). Active from ``run`` until ``seconds`` have passed."""

    servers: list[BotProcess]
    restart_database: Callable[[], Awaitable[None]] | None
    seconds: float
    kill_every: tuple[float, float]
    restart_after: tuple[float, float]
    after_ok_chance: float
    db_restarts: int
    rng: random.Random
    kills: list[Kill] = field(default_factory=list)
    database_restarts: list[float] = field(default_factory=list)  # when each began
    active: bool = False

    async def run(self) -> None:
        self.active = True
        started = time.monotonic()
        end = started + self.seconds
        moments = sorted(self.rng.uniform(0.25, 0.75) * self.seconds for _ in range(self.db_restarts))
        restarts = asyncio.create_task(self._restart_database(started, moments))
        try:
            while True:
                pause = self.rng.uniform(*self.kill_every)
                if time.monotonic() + pause >= end:
                    break
                await asyncio.sleep(pause)
                running = [s for s in self.servers if s.running]
                if running:
                    self._kill(self.rng.choice(running), after_ok=False)
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            await restarts
        finally:
            self.active = False
            restarts.cancel()

    def answered(self, server: BotProcess) -> None:
        """``server`` just answered a webhook 200: perhaps kill it a moment later."""
        if self.active and self.after_ok_chance and self.rng.random() < self.after_ok_chance:
            delay = self.rng.uniform(*AFTER_OK)
            asyncio.get_running_loop().call_later(delay, self._kill, server, True)

    def _kill(self, server: BotProcess, after_ok: bool) -> None:
        if self.active and server.kill(self.rng.uniform(*self.restart_after)):
            self.kills.append(Kill(server.name, time.monotonic(), after_ok))

    async def _restart_database(self, started: float, moments: list[float]) -> None:
        if self.restart_database is None:
            return
        for moment in moments:
            await asyncio.sleep(max(0.0, started + moment - time.monotonic()))
            self.database_restarts.append(time.monotonic())
            await self.restart_database()


def bot_environment(*, database_url: str, secret: str, access_token: str, api_url: str, port: int,
                    log_level: str = "INFO") -> dict[str, str]:
    """What a LINE server process is started with: everything from the environment, no .env."""
    return {**os.environ, "DATABASE_URL": database_url, "LINE_CHANNEL_SECRET": secret,
            "LINE_CHANNEL_ACCESS_TOKEN": access_token, "LINE_API_BASE_URL": api_url,
            "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}", "LINE_LANGUAGE": "en", "DISCORD_TOKEN": "",
            "LOG_LEVEL": log_level, "PYTHONWARNINGS": "ignore"}
