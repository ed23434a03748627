"""Live games' flags on time: N live games running at once on a SQLite file (or PostgreSQL),
each with the side to move's clock running out at a random moment in the next `--spread`
seconds. The real scheduler (with the game service's wake: it sleeps until the next deadline,
not its interval) runs the real `tick` and the outbox; for each flag, its lateness: from the
moment the clock ran out to the moment the chat's notice was handed to the door.

    .venv/bin/python bench/bench_flags.py [--games 500] [--spread 20] [--interval 20] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import settle_memory  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engines import RandomMover  # noqa: E402
from bot.messages import Notice  # noqa: E402
from bot.scheduler import Scheduler  # noqa: E402
from bot.services.games import GameService  # noqa: E402
from makruk import starting_fen  # noqa: E402
from storage import Clocks, GameChanges, NewGame, NewMove, Seat, Storage, TimeControl, open_storage  # noqa: E402


def main() -> None:
    settle_memory()
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--spread", type=float, default=20.0, help="the flags fall within this many seconds")
    parser.add_argument("--interval", type=float, default=20.0, help="the scheduler's interval")
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args.database or str(Path(tmp) / "flags.db"), args.games, args.spread, args.interval))


async def run(database: str, games: int, spread: float, interval: float) -> None:
    async with await open_storage(database) as storage:
        deadlines = await seed(storage, games, spread)
        service = GameService(storage, Settings(language="en"), engine=RandomMover(1), render=lambda view: None)
        late: dict[int, float] = {}

        async def send(notice: Notice) -> None:
            game = notice.reply.game
            if game is not None and game.reason == "timeout" and game.id in deadlines:
                late[game.id] = (datetime.now(UTC) - deadlines[game.id]).total_seconds()

        outbox = service.outbox("console", send, pictures=False)
        scheduler = Scheduler(service.jobs("console", outbox), interval=interval, wake=service.wake("console", outbox))
        started = time.perf_counter()
        task = scheduler.start()
        try:
            while len(late) < games and time.perf_counter() - started < spread + 3 * interval:
                await asyncio.sleep(0.2)
        finally:
            await scheduler.stop()
        assert task.done()
        # When each flag was stored (the game finished, its notice in the outbox), as well.
        stored = [((await storage.get_game(game_id)).updated - deadline).total_seconds()
                  for game_id, deadline in deadlines.items() if game_id in late]
    print(f"{len(late)}/{games} flags in {spread:g} s, scheduler interval {interval:g} s:")
    report("stored (game over, notice written)", stored)
    report("handed to the door", list(late.values()))


def report(what: str, values: list[float]) -> None:
    if not values:
        print(f"  {what}: none")
        return
    values = sorted(values)
    p = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
    print(f"  {what}: lateness p50 {p[49] * 1000:.0f} ms, p99 {p[98] * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms")


async def seed(storage: Storage, games: int, spread: float) -> dict[int, datetime]:
    """`games` live 3+2 games, both first moves made, White's clock running out at a random
    moment within `spread` seconds of a start a little after they are all stored; their
    deadlines by game id."""
    rng = random.Random(1)
    played = []
    for n in range(games):
        white = await storage.get_or_create_player("console", f"w{n}", f"w{n}")
        black = await storage.get_or_create_player("console", f"b{n}", f"b{n}")
        now = datetime.now(UTC)
        game = await storage.create_game(NewGame(
            platform="console", channel=f"flags-{n}", white=Seat.human(white.id), black=Seat.human(black.id),
            start_fen=starting_fen("makruk"), promotion="forced", perpetual="forbid", move_seconds=86400,
            status="active", time_control=TimeControl(180, 2), clocks=Clocks(180_000, 180_000, now),
            deadline=now + timedelta(hours=1),
        ))
        game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"), GameChanges())
        played.append(game)
    # Black's first move, stored for every game before the first flag can fall.
    start = datetime.now(UTC) + timedelta(seconds=2 + games * 0.01)
    deadlines: dict[int, datetime] = {}
    for game in played:
        now = datetime.now(UTC)
        deadline = start + timedelta(seconds=rng.random() * spread)
        left = int((deadline - now).total_seconds() * 1000)
        await storage.append_move(game.id, game.version, NewMove("b6b5", "b5", "b"),
                                  GameChanges(clocks=Clocks(left, 180_000, now), deadline=deadline))
        deadlines[game.id] = deadline
    if datetime.now(UTC) > start:
        print("warning: storing the games took longer than planned; the first flags start late")
    return deadlines


if __name__ == "__main__":
    main()
