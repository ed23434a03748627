"""One bot process of the shared-deadlines test: runs the games' clock and the outbox on a
database until nothing is due, sending each notice to a log file other processes append to.

    python -m tests.multiprocess.deadline_worker DATABASE NAME LOG [--pause SECONDS]

The log stands for the platform: a line per send, "key holder channel". A short lease (2 s)
lets a surviving process take over the work of one that was killed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from datetime import timedelta

from bot.clock import SystemClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Notice, Platform
from bot.services.claims import Claims
from bot.services.games import GameService
from storage import open_storage

PLATFORM: Platform = "console"
LEASE = timedelta(seconds=2)


async def work(database: str, name: str, log_path: str, pause: float) -> None:
    clock = SystemClock()
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    async with await open_storage(database, clock=clock.now) as storage:
        claims = Claims(storage, clock, holder=name, lease=LEASE)
        games = GameService(storage, Settings(), clock=clock, engine=RandomMover(seed=1), claims=claims)

        async def send(notice: Notice) -> None:
            await asyncio.sleep(pause)
            os.write(log, f"{notice.key} {name} {notice.channel}\n".encode())  # one write: atomic in O_APPEND

        outbox = games.outbox(PLATFORM, send)
        while True:
            await games.tick(PLATFORM)
            await outbox.drain()
            due = await storage.due_deadlines(clock.now(), platform=PLATFORM)
            if not due and (await storage.notice_counts(PLATFORM)).pending == 0:
                break
            await asyncio.sleep(0.1)  # what is left is another process's, for now
    os.close(log)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database")
    parser.add_argument("name")
    parser.add_argument("log")
    parser.add_argument("--pause", type=float, default=0.0)
    args = parser.parse_args()
    asyncio.run(work(args.database, args.name, args.log, args.pause))


if __name__ == "__main__":
    main()
