"""Three bot processes on one database run four live Swiss events and a weekly rota's event;
one process is killed once it has paired a round. Every round is paired once, every reminder
sent once, the rota's event made once, and every notice of the events delivered once.

Time runs a minute a second (tournament_worker.FastClock): an event announced to start in
6 minutes reminds at 5 minutes before, starts 6 seconds later, and its games, where nobody
moves, end by forfeit after the first move's 60 seconds, so a round lasts about a second.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.app import open_tournaments
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.services.games import GameService
from storage import NotFound, Storage, open_storage

from .tournament_worker import PLATFORM, FastClock

ROOT = Path(__file__).resolve().parents[2]
EVENTS = 4  # chats c0..c3, one Swiss each (ids 1..4); the rota's chat r0 gets id 5
PLAYERS = 5  # a bye each round
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


async def say(games: GameService, channel: str, user: str, text: str) -> None:
    msg = Incoming(PLATFORM, channel, User(user, user), text, community="guild", manager=True)
    replies = await games.handle(msg)
    assert not [r for r in replies if r.error], [(r.error, r.text) for r in replies]
    await games.delivered(replies)


async def seed(database: str, clock: FastClock) -> None:
    async with await open_storage(database, clock=clock.now) as storage:
        games = GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1))
        open_tournaments(games)
        for chat in range(EVENTS):
            await say(games, f"c{chat}", "alice", "tournament new swiss 3 rounds 1+0 in 6m")
            for player in range(PLAYERS):
                await say(games, f"c{chat}", f"p{chat}x{player}", "join")
        starts = (clock.now() + timedelta(minutes=9)).astimezone(ZoneInfo("Asia/Bangkok"))
        await say(games, "r0", "alice",
                  f"tournament weekly {WEEKDAYS[starts.weekday()]} {starts:%H:%M} swiss 3 rounds 1+0")


async def start(database: str, name: str, log: Path, origin: float) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.multiprocess.tournament_worker", database, name, str(log), str(origin),
        "--events", str(EVENTS + 1), cwd=ROOT, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


def sends(log: Path) -> list[tuple[str, str, str, str]]:
    if not log.exists():
        return []
    return [tuple(line.split()) for line in log.read_text().splitlines()]  # type: ignore[misc]


async def kill_once_it_paired(victim: asyncio.subprocess.Process, log: Path) -> None:
    for _ in range(1500):  # at most 30 s
        if any(holder == "victim" and kind == "tournament_pairings" for _, holder, _, kind in sends(log)):
            return
        if victim.returncode is not None:
            _, err = await victim.communicate()
            raise AssertionError(f"the first process ended before it could be killed:\n{err.decode()}")
        await asyncio.sleep(0.02)
    raise AssertionError("the first process paired no round")


async def test_three_processes_run_the_events_once_and_survive_one_killed(database: str, tmp_path: Path) -> None:
    origin = time.time()
    clock = FastClock(origin)
    log = tmp_path / "sent.log"
    await (await open_storage(database)).close()  # migrated before two processes open it at once
    victim = await start(database, "victim", log, origin)  # at work before the events exist
    await seed(database, clock)
    await kill_once_it_paired(victim, log)
    others = [await start(database, name, log, origin) for name in ("p2", "p3")]
    await asyncio.sleep(0.2)  # the others are at work beside it
    victim.send_signal(signal.SIGKILL)
    await victim.wait()
    for process in others:
        _, err = await asyncio.wait_for(process.communicate(), timeout=120)
        assert process.returncode == 0, err.decode()

    lines = sends(log)
    by_holder = Counter(holder for _, holder, _, _ in lines)
    assert by_holder["victim"] > 0 and by_holder["p2"] + by_holder["p3"] > 0, by_holder
    # A notice is sent again only when a process died between sending it and marking it sent
    # (the platforms drop the second copy by its key): at most the killed one's last.
    repeated = [key for key, count in Counter(key for key, _, _, _ in lines).items() if count > 1]
    assert len(repeated) <= 1, repeated
    sent = {key for key, _, _, _ in lines}
    async with await open_storage(database, clock=clock.now) as storage:
        for tournament_id in range(1, EVENTS + 1):
            await one_event(storage, tournament_id, sent)
        await one_rota_event(storage, sent)
        assert (await storage.notice_counts(PLATFORM)).pending == 0


async def one_event(storage: Storage, tournament_id: int, sent: set[str]) -> None:
    """Each round stored once and told once; one reminder, the nearest; the final standings."""
    state = await storage.tournament_state(tournament_id)
    event = state.tournament
    assert event.status == "finished" and event.last_round >= 2, event
    assert [r.number for r in state.rounds] == list(range(1, event.last_round + 1))
    for number in range(1, event.last_round + 1):
        seated = [p for b in state.boards if b.round == number for p in (b.white, b.black)]
        seated += [b.player_id for b in state.byes if b.round == number]
        assert len(seated) == len(set(seated)), (number, seated)
    games = [b.game_id for b in state.boards if b.game_id is not None]
    assert len(games) == len(set(games))
    mine = {key for key in sent if key.startswith(event.salt)}
    expected = {f"{event.salt}{mark}" for mark in
                ["m5m", "b", "f", *(f"r{n}" for n in range(1, event.last_round + 1)),
                 *(f"s{n}" for n in range(1, event.last_round)), *(f"g{game}" for game in games)]}
    assert mine == expected, sorted(mine ^ expected)  # the hour's reminder came late: skipped, not sent


async def one_rota_event(storage: Storage, sent: set[str]) -> None:
    """The rota made its date's event once, announced once (no entrants: cancelled at its start)."""
    event = await storage.tournament(EVENTS + 1)
    assert event.rota_id is not None and event.channel == "r0" and event.status == "cancelled"
    try:
        extra = await storage.tournament(EVENTS + 2)
    except NotFound:
        extra = None
    assert extra is None, extra
    # Announced when made (its hour's mark passed: skipped), then the 5 minutes' reminder.
    expected = {f"{event.salt}{mark}" for mark in ("a", "m5m", "x")}
    assert {key for key in sent if key.startswith(event.salt)} == expected
