"""The LINE door under load, measured black-box, as LINE and its users would see it.

The bot runs as the real `makruk-bot line` process (its aiohttp server, the real line-bot-sdk,
SQLite or PostgreSQL). This process is everything else: 200 group chats, each a game between
two people, post signed webhooks to the bot, and a fake Messaging API on loopback takes the
bot's replies (and answers its profile look-ups, as LINE does). Every chat waits for the answer
to its move before it plays the next one, at random moments (exponential gaps) that add up to
the offered rate; like LINE, this process then fetches each reply's preview picture. A move's
latency runs from sending its webhook to the bot's reply call arriving.

    .venv/bin/python bench/bench_line.py [--rates 25 50 100 150] [--seconds 20] [--chats 200]
        [--db PATH_OR_URL] [--no-previews] [--profile FILE]

For each rate: a new bot process on a new database, the games set up, then --seconds of load.
Prints offered and answered moves/s, p50 and p99, and moves that got no board or no answer.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import hmac
import itertools
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import next_move  # noqa: E402
from makruk import Board  # noqa: E402

SECRET = "bench-channel-secret"
TOKEN = "bench-access-token"
BOT_ID = "Ubench0bot0000000000000000000000"
ANSWER_TIMEOUT = 30.0  # seconds: a move not answered by then counts as unanswered


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", type=float, nargs="+", default=[25, 50, 100, 150], help="offered moves/s")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--db", help="a SQLite path or postgresql:// URL (default: a new SQLite file per rate)")
    parser.add_argument("--no-previews", action="store_true", help="do not fetch the preview pictures")
    parser.add_argument("--profile", help="run the bot under cProfile, writing its statistics here (one rate)")
    args = parser.parse_args()
    asyncio.run(run(args))


async def run(args: argparse.Namespace) -> None:
    print("| offered moves/s | answered moves/s | moves | p50 ms | p99 ms | max ms | no board | unanswered |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for rate in args.rates:
        with tempfile.TemporaryDirectory() as folder:
            row = await measure(args, rate, Path(folder))
        print(row, flush=True)


class FakeLine:
    """The Messaging API: takes replies (noting when each arrived), answers profile look-ups."""

    def __init__(self) -> None:
        self.waiting: dict[str, asyncio.Future[tuple[float, list[dict[str, Any]]]]] = {}
        self._ids = itertools.count(1)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v2/bot/message/reply", self._reply)
        app.router.add_post("/v2/bot/message/push", self._push)
        app.router.add_get("/v2/bot/message/quota", self._quota)
        app.router.add_get("/v2/bot/message/quota/consumption", self._consumption)
        app.router.add_get("/v2/bot/group/{chat}/member/{user}", self._member)
        app.router.add_get("/v2/bot/profile/{user}", self._member)
        return app

    async def _reply(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        body = await request.json()
        waiter = self.waiting.pop(body.get("replyToken"), None)
        if waiter is not None and not waiter.done():
            waiter.set_result((arrived, body["messages"]))
        return web.json_response({"sentMessages": [{"id": str(next(self._ids))} for _ in body["messages"]]})

    async def _push(self, request: web.Request) -> web.Response:
        body = await request.json()
        return web.json_response({"sentMessages": [{"id": str(next(self._ids))} for _ in body["messages"]]})

    async def _quota(self, request: web.Request) -> web.Response:
        return web.json_response({"type": "none"})

    async def _consumption(self, request: web.Request) -> web.Response:
        return web.json_response({"totalUsage": 0})

    async def _member(self, request: web.Request) -> web.Response:
        user = request.match_info["user"]
        return web.json_response({"userId": user, "displayName": f"Player {user[-6:]}"})


class Line:
    """Posts signed webhooks and waits for the answers."""

    def __init__(self, fake: FakeLine, http: aiohttp.ClientSession, bot_url: str) -> None:
        self.fake = fake
        self.http = http
        self.bot_url = bot_url
        self._n = itertools.count(1)
        self.previews: list[asyncio.Task[None]] = []

    async def say(self, group: str, user: str, text: str, mentions: dict[str, str] | None = None,
                  ) -> tuple[float, list[dict[str, Any]]] | None:
        """Sends one message; the seconds until the reply call arrived and its messages (None: no answer)."""
        n = next(self._n)
        token = f"rt{n}"
        message: dict[str, Any] = {"id": str(n), "type": "text", "text": text, "quoteToken": "q"}
        if mentions:
            message["mention"] = {"mentionees": [
                {"type": "user", "index": text.index(written), "length": len(written), "userId": who}
                for written, who in mentions.items()]}
        event = {"type": "message", "mode": "active", "timestamp": int(time.time() * 1000),
                 "source": {"type": "group", "groupId": group, "userId": user},
                 "webhookEventId": f"01BENCH{os.getpid()}{n:012d}", "deliveryContext": {"isRedelivery": False},
                 "replyToken": token, "message": message}
        body = json.dumps({"destination": BOT_ID, "events": [event]}).encode()
        signature = base64.b64encode(hmac.new(SECRET.encode(), body, hashlib.sha256).digest()).decode()
        answer = asyncio.get_running_loop().create_future()
        self.fake.waiting[token] = answer
        started = time.perf_counter()
        async with self.http.post(f"{self.bot_url}/callback", data=body,
                                  headers={"X-Line-Signature": signature, "Content-Type": "application/json"}) as r:
            await r.read()
            if r.status != 200:
                self.fake.waiting.pop(token, None)
                return None
        try:
            arrived, messages = await asyncio.wait_for(answer, ANSWER_TIMEOUT)
        except TimeoutError:
            self.fake.waiting.pop(token, None)
            return None
        return arrived - started, messages

    def fetch_preview(self, messages: list[dict[str, Any]]) -> None:
        """As LINE does a moment after a reply: fetch the preview of each picture."""
        for message in messages:
            url = message.get("previewImageUrl") or (message.get("baseUrl", "") + "/240" if "baseUrl" in message
                                                    else None)
            if url:
                self.previews.append(asyncio.create_task(self._get(url)))

    async def _get(self, url: str) -> None:
        try:
            async with self.http.get(url) as response:
                await response.read()
        except aiohttp.ClientError:
            pass


def has_board(messages: list[dict[str, Any]]) -> bool:
    return any(m.get("type") in ("image", "imagemap") for m in messages)


async def measure(args: argparse.Namespace, rate: float, folder: Path) -> str:
    fake = FakeLine()
    runner = web.AppRunner(fake.app(), access_log=None)
    await runner.setup()
    api_port, bot_port = free_port(), free_port()
    await web.TCPSite(runner, "127.0.0.1", api_port).start()
    bot = await start_bot(args, folder, api_port, bot_port)
    try:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            line = Line(fake, http, f"http://127.0.0.1:{bot_port}")
            await wait_until_up(http, f"http://127.0.0.1:{bot_port}/healthz")
            chats = await set_up_games(line, args.chats, rate)
            latencies, no_board, unanswered, elapsed = await play(line, chats, rate, args)
            await asyncio.gather(*line.previews)
    finally:
        bot.terminate()
        await bot.wait()
        await runner.cleanup()
    latencies.sort()
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000 if latencies else float("nan")
    peak = latencies[-1] * 1000 if latencies else float("nan")
    return (f"| {rate:.0f} | {len(latencies) / elapsed:.1f} | {len(latencies)} | {p50:.1f} | {p99:.1f} "
            f"| {peak:.0f} | {no_board} | {unanswered} |")


async def start_bot(args: argparse.Namespace, folder: Path, api_port: int, bot_port: int) -> asyncio.subprocess.Process:
    env = {**os.environ, "LINE_CHANNEL_SECRET": SECRET, "LINE_CHANNEL_ACCESS_TOKEN": TOKEN,
           "PUBLIC_BASE_URL": f"http://127.0.0.1:{bot_port}", "LINE_API_BASE_URL": f"http://127.0.0.1:{api_port}",
           "DISCORD_TOKEN": "", "LOG_LEVEL": "ERROR", "DATABASE_PATH": str(folder / "bench.db"),
           "DATABASE_URL": args.db if args.db and "://" in args.db else "", "PYTHONWARNINGS": "ignore"}
    if args.db and "://" not in args.db:
        env["DATABASE_PATH"] = args.db
    profile = ["-m", "cProfile", "-o", str(Path(args.profile).resolve())] if args.profile else []
    return await asyncio.create_subprocess_exec(
        sys.executable, *profile, "-m", "bot", "line", "--host", "127.0.0.1", "--port", str(bot_port),
        cwd=folder, env={**env, "PYTHONPATH": str(ROOT)}, stdin=asyncio.subprocess.DEVNULL)


async def wait_until_up(http: aiohttp.ClientSession, url: str) -> None:
    for _ in range(600):
        try:
            async with http.get(url) as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.05)
    raise RuntimeError("the bot did not start")


async def set_up_games(line: Line, count: int, rate: float) -> list[tuple[str, str, str, Board]]:
    """A game between two people in each group (a challenge and its acceptance)."""
    tag = f"{int(rate)}x{os.getpid()}"
    chats = []
    for i in range(count):
        group = f"Cbench{tag}g{i:05d}"
        white, black = f"Uw{tag}p{i:05d}", f"Ub{tag}p{i:05d}"
        chats.append((group, white, black, Board()))
    gate = asyncio.Semaphore(20)

    async def one(group: str, white: str, black: str) -> None:
        async with gate:
            name = f"@Player {black[-6:]}"
            first = await line.say(group, white, f"/new {name} white", {name: black})
            second = await line.say(group, black, "accept")
            if first is None or second is None:
                raise RuntimeError(f"the game in {group} did not start")

    await asyncio.gather(*(one(g, w, b) for g, w, b, _ in chats))
    return chats


async def play(line: Line, chats: list[tuple[str, str, str, Board]], rate: float, args: argparse.Namespace,
               ) -> tuple[list[float], int, int, float]:
    latencies: list[float] = []
    no_board = unanswered = 0
    rng = random.Random(1)
    per_chat = rate / len(chats)
    started = time.perf_counter()
    stop_at = started + args.seconds

    async def player(group: str, white: str, black: str, board: Board) -> None:
        nonlocal no_board, unanswered
        while True:
            move = await next_move(board, rng, per_chat, stop_at)
            if move is None:
                return
            answer = await line.say(group, white if board.turn else black, move.uci())
            if answer is None:
                unanswered += 1
                return
            seconds, messages = answer
            latencies.append(seconds)
            if not has_board(messages):
                no_board += 1
                return
            if not args.no_previews:
                line.fetch_preview(messages)
            board.push(move)

    await asyncio.gather(*(player(*chat) for chat in chats))
    return latencies, no_board, unanswered, time.perf_counter() - started


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


if __name__ == "__main__":
    main()
