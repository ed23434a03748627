"""The Discord door under load: 200 channels, each a game between two people, playing with
`/makruk move` in their game's thread.

The bot is the real `MakrukBot` (discord.py's command tree, interaction and message classes)
over the real game service, SQLite file and renderer; Discord's HTTP layer is faked in-process
as the tests fake it (tests/discord/fakes.py), and interactions come in as gateway payloads
through discord.py's own `ConnectionState`. Each channel plays its next move at random moments
that add up to the offered rate, after the answer to its last one. For each move: the time
from the interaction to its first response (Discord's 3-second deadline: an answer or a
defer) and to the answer with the board.

    .venv/bin/python bench/bench_discord.py [--rates 25 50 100 150] [--seconds 20] [--channels 200]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import next_move  # noqa: E402
from bot.adapters.discord.client import MakrukBot  # noqa: E402
from bot.app import settle_memory  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engines import RandomMover  # noqa: E402
from bot.services.games import GameService  # noqa: E402
from makruk import Board  # noqa: E402
from storage import open_storage  # noqa: E402
from tests.discord.fakes import FakeDiscord, log_in  # noqa: E402
from tests.discord.payloads import COMMAND_ID, Person, text_channel  # noqa: E402

DEADLINE = 3.0  # Discord's: an interaction answered later than this has failed for its user


def main() -> None:
    settle_memory()  # as `makruk-bot` does at start
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", type=float, nargs="+", default=[25, 50, 100, 150], help="offered moves/s")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--channels", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(run(args))


async def run(args: argparse.Namespace) -> None:
    print("| offered moves/s | answered moves/s | moves | first response p99 ms | max ms | answer p50 ms "
          "| answer p99 ms | deferred | late (> 3 s) | no board |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for rate in args.rates:
        with tempfile.TemporaryDirectory() as folder:
            print(await measure(args, rate, Path(folder)), flush=True)


class TimedDiscord(FakeDiscord):
    """The fake Discord, noting when each interaction got its first response and its board."""

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self.first: dict[str, float] = {}
        self.boarded: dict[str, asyncio.Future[float]] = {}
        self.deferred: set[str] = set()

    async def _webhook(self, route, *, payload=None, multipart=None, files=None, params=None) -> Any:
        now = time.perf_counter()
        token = route.webhook_token
        self.first.setdefault(token, now)
        answer = await super()._webhook(route, payload=payload, multipart=multipart, files=files, params=params)
        record = self.sent[-1]
        if record.kind == "defer":
            self.deferred.add(token)
        waiter = self.boarded.get(token)
        if waiter is not None and not waiter.done() and any(name == "board.png" for name, _ in record.files):
            waiter.set_result(now)
        self.sent.clear()  # nothing is looked at afterwards: keep memory flat
        return answer

    def message_payload(self, channel_id: int, body: dict, *, message_id: int | None = None) -> dict:
        message = super().message_payload(channel_id, body, message_id=message_id)
        self.messages.clear()  # Discord keeps the messages, not the bot: nothing here looks at them again
        return message

    async def _http(self, route, *, files=None, form=None, **kwargs) -> Any:
        answer = await super()._http(route, files=files, form=form, **kwargs)
        self.sent.clear()
        return answer


async def measure(args: argparse.Namespace, rate: float, folder: Path) -> str:
    settings = Settings(language="en")
    storage = await open_storage(folder / "bench.db")
    service = GameService(storage, settings, engine=RandomMover(seed=1))
    async with MakrukBot(service, settings, scheduler_seconds=None) as bot:
        await bot.install()
        log_in(bot)
        api = TimedDiscord(bot)
        api.install()
        games = await set_up_games(api, args.channels)
        result = await play(api, games, rate, args.seconds)
    await storage.close()
    firsts, answers, deferred, late, no_board, elapsed = result
    firsts.sort()
    answers.sort()

    def pct(values: list[float], q: float) -> float:
        return values[max(0, int(len(values) * q) - 1)] * 1000 if values else float("nan")

    return (f"| {rate:.0f} | {len(answers) / elapsed:.1f} | {len(answers)} | {pct(firsts, 0.99):.1f} "
            f"| {firsts[-1] * 1000 if firsts else float('nan'):.0f} "
            f"| {statistics.median(answers) * 1000 if answers else float('nan'):.1f} | {pct(answers, 0.99):.1f} "
            f"| {deferred} | {late} | {no_board} |")


async def set_up_games(api: TimedDiscord, count: int) -> list[tuple[Person, Person, dict, Board]]:
    games = []
    for i in range(count):
        channel = text_channel(700100000000000000 + i, f"makruk-{i}")
        api.channels[int(channel["id"])] = channel
        white, black = Person(710000000000000000 + 2 * i, f"w{i}"), Person(710000000000000001 + 2 * i, f"b{i}")
        await api.slash(white, "new", channel=channel, opponent=black, colour="white")
        thread = await accept(api, black, channel)
        games.append((white, black, thread, Board()))
    return games


async def accept(api: TimedDiscord, black: Person, channel: dict) -> dict:
    """Bob accepts (the slash command); returns the game's thread."""
    threads_before = set(api.channels)
    await api.slash(black, "accept", channel=channel)
    made = [cid for cid in api.channels if cid not in threads_before]
    if not made:
        raise RuntimeError(f"no thread was opened in {channel['name']}")
    return api.channels[made[-1]]


async def play(api: TimedDiscord, games: list[tuple[Person, Person, dict, Board]], rate: float, seconds: float,
               ) -> tuple[list[float], list[float], int, int, int, float]:
    firsts: list[float] = []
    answers: list[float] = []
    counts = {"deferred": 0, "late": 0, "no_board": 0}
    rng = random.Random(1)
    per_channel = rate / len(games)
    started = time.perf_counter()
    stop_at = started + seconds
    state = api.bot._connection

    async def player(white: Person, black: Person, thread: dict, board: Board) -> None:
        while True:
            move = await next_move(board, rng, per_channel, stop_at)
            if move is None:
                return
            person = white if board.turn else black
            data = {"id": str(COMMAND_ID), "name": "makruk", "type": 1,
                    "options": [{"type": 1, "name": "move", "options": [
                        {"type": 3, "name": "move", "value": move.uci()}]}]}
            payload = api.interaction(2, person, data, channel=thread)
            token = payload["token"]
            boarded = api.boarded[token] = asyncio.get_running_loop().create_future()
            sent = time.perf_counter()
            state.parse_interaction_create(cast("Any", payload))
            try:
                at = await asyncio.wait_for(boarded, 30)
            except TimeoutError:
                counts["no_board"] += 1
                return
            finally:
                api.boarded.pop(token, None)
            first = api.first.pop(token, at) - sent
            firsts.append(first)
            answers.append(at - sent)
            if token in api.deferred:
                api.deferred.discard(token)
                counts["deferred"] += 1
            if first > DEADLINE:
                counts["late"] += 1
            board.push(move)

    await asyncio.gather(*(player(*game) for game in games))
    return firsts, answers, counts["deferred"], counts["late"], counts["no_board"], time.perf_counter() - started


if __name__ == "__main__":
    main()
