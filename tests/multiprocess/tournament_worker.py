"""One bot process of the shared-tournaments test: runs the games' clock, the tournaments'
tick and the outbox on a database until the test's events are over, sending each notice to a
log file other processes append to.

    python -m tests.multiprocess.tournament_worker DATABASE NAME LOG ORIGIN --events K

Time runs SPEED times faster than the wall clock from ORIGIN (seconds since the epoch, the
same in every process), so an event's reminders, start, 60-second first moves and rounds
pass in seconds, and the 2-minute claims of a killed process run out in two. A log line per
send: "key holder channel kind".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from datetime import UTC, datetime, timedelta

from bot.app import open_tournaments
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Notice, Platform
from bot.services.claims import Claims
from bot.services.games import GameService
from storage import NotFound, Storage, open_storage

PLATFORM: Platform = "console"
SPEED = 60.0  # a minute of the bot's time a second
GIVE_UP = 90.0  # wall seconds: the test fails rather than hang


class FastClock:
    """The wall clock run SPEED times faster from ``origin``: every process reads the same time."""

    def __init__(self, origin: float) -> None:
        self.origin = origin

    def now(self) -> datetime:
        elapsed = (time.time() - self.origin) * SPEED
        return datetime.fromtimestamp(self.origin, UTC) + timedelta(seconds=elapsed)


async def over(storage: Storage, events: int) -> bool:
    """The test's ``events`` (ids 1..events) all ended, and nothing is left to send."""
    for tournament_id in range(1, events + 1):
        try:
            if (await storage.tournament(tournament_id)).status not in ("finished", "cancelled"):
                return False
        except NotFound:
            return False
    return (await storage.notice_counts(PLATFORM)).pending == 0


async def work(database: str, name: str, log_path: str, origin: float, events: int) -> None:
    clock = FastClock(origin)
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    async with await open_storage(database, clock=clock.now) as storage:
        games = GameService(storage, Settings(), clock=clock, engine=RandomMover(seed=1),
                            claims=Claims(storage, clock, holder=name))
        tournaments = open_tournaments(games)

        async def send(notice: Notice) -> None:
            line = f"{notice.key} {name} {notice.channel} {notice.reply.kind}\n"
            os.write(log, line.encode())  # one write: atomic in O_APPEND

        outbox = games.outbox(PLATFORM, send, pictures=False)
        started = time.monotonic()
        while not await over(storage, events):
            if time.monotonic() - started > GIVE_UP:
                raise SystemExit(f"{name}: the events were not over after {GIVE_UP:.0f} s")
            await games.tick(PLATFORM)
            await tournaments.tick(PLATFORM)
            await outbox.drain()
            await asyncio.sleep(0.05)
    os.close(log)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database")
    parser.add_argument("name")
    parser.add_argument("log")
    parser.add_argument("origin", type=float)
    parser.add_argument("--events", type=int, required=True)
    args = parser.parse_args()
    asyncio.run(work(args.database, args.name, args.log, args.origin, args.events))


if __name__ == "__main__":
    main()
