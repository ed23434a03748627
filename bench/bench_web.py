"""The web board under load, measured black-box, as its players and watchers would see it.

The bot's web board runs in a process of its own (bench/web_server.py: the real aiohttp server,
the real game service, SQLite or PostgreSQL) with --games games between two people. This process
is everyone else: per game, two players signed in over their own WebSockets and --watchers
read-only watchers. Each game's player to move plays a random legal move (one the server listed)
at random moments (exponential gaps) that add up to the offered rate. A move's latency runs from
sending it on the player's socket to each watcher receiving the position with that move: one
sample per watcher.

    .venv/bin/python bench/bench_web.py [--rates 25 50] [--seconds 20] [--games 100] [--watchers 10]
        [--db PATH_OR_URL] [--browser]

It also weighs the page (the HTML, its scripts and styles, every piece) gzipped, and with
--browser measures the first render in Debian's chromium (Playwright): from navigation to the
first piece on the board, the median of five loads.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
PIECES = "KkMmSsNnRrPp"
# Debian's chromium itself (/usr/bin/chromium is a shell wrapper); MAKRUK_CHROMIUM as in tests/browser.
CHROMIUM = os.environ.get("MAKRUK_CHROMIUM", "/usr/lib/chromium/chromium")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", type=float, nargs="+", default=[25.0, 50.0], help="offered moves/s in all")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=10, help="watchers per game")
    parser.add_argument("--db", help="a SQLite path or postgresql:// URL (default: a new SQLite file)")
    parser.add_argument("--browser", action="store_true", help="also measure the first render in chromium")
    args = parser.parse_args()
    asyncio.run(run(args))


async def run(args: argparse.Namespace) -> None:
    print("| offered moves/s | moves | sockets | updates | p50 ms | p99 ms | max ms | missed |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for rate in args.rates:
        server = await start_server(args)
        try:
            setup = json.loads(await asyncio.wait_for(server.stdout.readline(), 120))  # type: ignore[union-attr]
            print(await measure(args, rate, setup), flush=True)
            if rate == args.rates[-1]:
                base = f"http://127.0.0.1:{setup['port']}"
                first = setup["games"][0]["id"]
                print(f"\npage, scripts, styles and pieces: {await page_weight(base, first)}")
                if args.browser:
                    print(f"first render in chromium (median of 5): {await first_render(base, first)}")
        finally:
            server.stdin.close()  # type: ignore[union-attr]
            await server.wait()


async def start_server(args: argparse.Namespace) -> asyncio.subprocess.Process:
    command = [sys.executable, str(ROOT / "bench" / "web_server.py"), "--games", str(args.games)]
    if args.db:
        command += ["--db", args.db]
    return await asyncio.create_subprocess_exec(*command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


class Window:
    """The measured window: players wait for it to open (every socket connected) and stop
    starting moves when it closes."""

    def __init__(self) -> None:
        self.begun = asyncio.Event()
        self.stop = float("inf")

    def open(self, seconds: float) -> None:
        self.stop = time.perf_counter() + seconds
        self.begun.set()


class Game:
    """One game's sockets: its players' and its watchers', and when each move was sent."""

    def __init__(self, spec: dict[str, Any], rng: random.Random) -> None:
        self.id: int = spec["id"]
        self.tokens = {"w": spec["w"], "b": spec["b"]}
        self.rng = rng
        self.sent: dict[int, float] = {}  # ply -> when the move that makes it was sent
        self.latencies: list[float] = []
        self.moves = 0
        self.over = False


async def measure(args: argparse.Namespace, rate: float, setup: dict[str, Any]) -> str:
    base = f"ws://127.0.0.1:{setup['port']}"
    rng = random.Random(1)
    games = [Game(spec, random.Random(rng.random())) for spec in setup["games"]]
    per_game = rate / len(games)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        ready: list[asyncio.Event] = []
        clock = Window()
        tasks = []
        for game in games:
            for _ in range(args.watchers):
                opened = asyncio.Event()
                ready.append(opened)
                tasks.append(asyncio.create_task(watch(http, base, game, opened, clock)))
            for side in ("w", "b"):
                opened = asyncio.Event()
                ready.append(opened)
                tasks.append(asyncio.create_task(play(http, base, game, side, per_game, opened, clock)))
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in ready)), 120)
        clock.open(args.seconds)
        await asyncio.sleep(args.seconds + 2.0)  # the last moves' updates arrive
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    latencies = sorted(ms for game in games for ms in game.latencies)
    moves = sum(game.moves for game in games)
    expected = moves * args.watchers
    if not latencies:
        return f"| {rate:g} | {moves} | {len(ready)} | 0 | - | - | - | {expected} |"
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return (f"| {rate:g} | {moves} | {len(ready)} | {len(latencies)} | {p50:.0f} | {p99:.0f} | {latencies[-1]:.0f} "
            f"| {expected - len(latencies)} |")


async def watch(http: aiohttp.ClientSession, base: str, game: Game, opened: asyncio.Event,
                clock: Window) -> None:
    """A read-only watcher: each position it is sent, timed against the move that made it."""
    seen = 0  # the last ply this watcher was shown: a position sent again is not timed again
    async with http.ws_connect(f"{base}/g/{game.id}/ws", max_msg_size=0) as ws:
        async for message in ws:
            data = json.loads(message.data)
            if data.get("type") != "state":
                continue
            opened.set()
            ply = len(data["moves"])
            sent = game.sent.get(ply)
            if sent is not None and ply > seen:
                game.latencies.append((time.perf_counter() - sent) * 1000)
            seen = max(seen, ply)


async def play(http: aiohttp.ClientSession, base: str, game: Game, side: str, rate: float, opened: asyncio.Event,
               clock: Window) -> None:
    """A player: signs in, and on their turn waits a random gap and plays a legal move."""
    async with http.ws_connect(f"{base}/g/{game.id}/ws", max_msg_size=0) as ws:
        await ws.send_json({"type": "auth", "token": game.tokens[side]})
        async for message in ws:
            data = json.loads(message.data)
            if data.get("type") != "state":
                continue
            if data.get("viewer", {}).get("side") == side:
                opened.set()
            if data["status"] != "active":
                game.over = True
                return
            if not data["viewer"]["canMove"] or not data["legal"] or len(data["moves"]) + 1 in game.sent:
                continue
            await clock.begun.wait()
            await asyncio.sleep(game.rng.expovariate(rate) if rate > 0 else 3600)
            if time.perf_counter() >= clock.stop:
                continue  # the window is over: no new moves are timed
            move = game.rng.choice(data["legal"])["uci"]
            game.sent[len(data["moves"]) + 1] = time.perf_counter()
            game.moves += 1
            await ws.send_json({"type": "move", "move": move})


async def page_weight(base: str, game_id: int) -> str:
    """The page and everything it loads, each gzipped as a server would send it."""
    async with aiohttp.ClientSession() as http:
        sizes: dict[str, int] = {}
        urls = [f"{base}/g/{game_id}"]
        urls += [f"{base}/web/static/{path.name}" for path in sorted((ROOT / "bot" / "web" / "static").iterdir())
                 if path.is_file()]
        urls += [f"{base}/web/piece/{letter}.svg" for letter in PIECES]
        for url in urls:
            async with http.get(url) as response:
                body = await response.read()
                if response.status != 200:
                    raise RuntimeError(f"{url}: {response.status}")
                sizes[url] = len(gzip.compress(body, 6))
    total = sum(sizes.values())
    return f"{total / 1024:.1f} KB gzipped in {len(sizes)} files (goal <= 100 KB)"


async def first_render(base: str, game_id: int) -> str:
    """Navigation start to the first piece on the board, in the browser's own clock."""
    from playwright.async_api import async_playwright

    marker = """new MutationObserver((_, observer) => {
        if (document.querySelector('[data-piece]')) { window.__firstPiece = performance.now(); observer.disconnect(); }
    }).observe(document, {childList: true, subtree: true});"""
    times = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for _ in range(5):
                context = await browser.new_context(viewport={"width": 360, "height": 640})
                page = await context.new_page()
                await page.add_init_script(marker)
                await page.goto(f"{base}/g/{game_id}")
                await page.wait_for_function("window.__firstPiece !== undefined", timeout=10_000)
                times.append(await page.evaluate("window.__firstPiece"))
                await context.close()
        finally:
            await browser.close()
    return f"{statistics.median(times):.0f} ms (loads: {', '.join(f'{t:.0f}' for t in times)}; goal <= 300 ms)"


if __name__ == "__main__":
    main()
