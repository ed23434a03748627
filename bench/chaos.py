"""Group chats that play Makruk through chaos, and what they lost: the fault run of issue 27.

Two real ``makruk-bot line`` server processes share one PostgreSQL database; this process is
LINE and its users. Each group chat plays one game between two people, planned in advance
from a seeded ``random.Random`` (random legal moves, up to ``Plan.plies``): a challenge, its
acceptance, then the moves, each sent as a signed webhook only once its sender saw the answer
to the message before (a reply to its token or a push). Every event goes to a random server;
when a POST fails (no connection, reset, timeout, not 200) the same event (same
``webhookEventId`` and ``replyToken``, ``isRedelivery`` true) goes to the other server after a
short pause, until a 200, as LINE redelivers. Meanwhile ``Chaos`` kills servers and restarts
the database (``bot_processes.py``). Then everything settles (the chats finish their games,
the outbox empties), and every chat is checked against the database and what it was shown:

- lost: an event answered 200 whose change is not in the game, or a change whose answer no
  chat was ever shown;
- double: a change applied twice (the game is not the plan's beginning), or one answer shown
  twice (answers are told apart by the position their board picture names);
- stalled: a game that did not reach its planned end.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import random
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.adapters.line.pictures import Signer
from makruk import Board
from storage import Storage, StorageError, open_storage

from .bot_processes import BotProcess, Chaos, Kill, bot_environment
from .line_api import FakeMessagingApi, Shown

SECRET = "chaos-channel-secret"
TOKEN = "chaos-access-token"
BOT_ID = "Uchaos00bot00000000000000000000"
POST_TIMEOUT = 5.0  # seconds LINE waits for a webhook's answer before it counts as failed
REDELIVERY_PAUSE = (0.05, 1.0)  # first pause before sending an event again, and the longest
QUIET = 3.0  # seconds with every game over and nothing waiting in the outbox: settled
START_TIMEOUT = 90.0  # seconds a server has to answer /healthz at the start
CHALLENGE = " challenges "  # in the English answer to "/new @someone" (challenge.to)


@dataclass(frozen=True)
class Plan:
    """What to play and what to break; the defaults are issue 27's run."""

    chats: int = 30
    plies: int = 68
    seconds: float = 150.0  # how long the chaos lasts (less if every game ends before)
    kill_every: tuple[float, float] = (2.0, 4.0)
    restart_after: tuple[float, float] = (0.5, 2.0)
    after_ok_chance: float = 0.0  # chance that a 200 is followed by a kill of its server
    db_restarts: int = 1
    settle: float = 120.0  # seconds at most, after the chaos, for the games and outbox to finish
    seed: int = 27


@dataclass
class Step:
    """One message of a chat's script and what became of it."""

    index: int  # 0: the challenge, 1: its acceptance, n + 1: the n-th ply
    user: str
    text: str
    mentions: dict[str, str] = field(default_factory=dict)
    event: dict[str, Any] | None = None
    acked_by: str | None = None
    acked_at: float | None = None


class Chat:
    """A group whose two people play one planned game, and what the group was shown."""

    def __init__(self, index: int, seed: int, plies: int) -> None:
        self.index = index
        self.group = f"Cchaos{seed:06d}g{index:04d}"
        self.white, self.black = f"Uchaos{seed:06d}w{index:04d}", f"Uchaos{seed:06d}b{index:04d}"
        self.names = {self.white: f"White {index}", self.black: f"Black {index}"}
        self.rng = random.Random(f"{seed}/{index}")
        board = Board()
        self.moves: list[str] = []
        self.ply_of = {board.fen(): 0}  # the position a board picture names -> its ply
        while len(self.moves) < plies and not board.is_game_over() and board.legal_moves():
            move = self.rng.choice(board.legal_moves())
            board.push(move)
            self.moves.append(move.uci())
            self.ply_of[board.fen()] = len(self.moves)
        opponent = f"@{self.names[self.black]}"
        self.steps = [Step(0, self.white, f"/new {opponent} white", {opponent: self.black}),
                      Step(1, self.black, "accept")]
        self.steps += [Step(ply + 2, (self.white, self.black)[ply % 2], uci) for ply, uci in enumerate(self.moves)]
        self.shown: Counter[int] = Counter()  # step -> how many times its answer was shown
        self.how: dict[int, list[str]] = {}  # step -> "reply"/"push" for each time
        self.strays = 0  # boards shown that name no position of the plan
        self.others: list[str] = []  # what was shown that answers no step of the script
        self.finished = False
        self._seen: dict[int, asyncio.Event] = {}

    def saw(self, shown: Shown, signer: Signer) -> None:
        steps = self._steps_in(shown.messages, signer)
        if not steps:  # a refusal, say: no answer of the script, but worth a look
            self.others.append(" / ".join(str(m.get("text", m.get("type"))) for m in shown.messages)[:120])
        for step in steps:
            self.shown[step] += 1
            self.how.setdefault(step, []).append(shown.how)
            self._event(step).set()

    async def answered(self, step: int) -> None:
        await self._event(step).wait()

    def _event(self, step: int) -> asyncio.Event:
        return self._seen.setdefault(step, asyncio.Event())

    def _steps_in(self, messages: list[dict[str, Any]], signer: Signer) -> list[int]:
        steps = []
        for message in messages:
            if message.get("type") in ("text", "textV2") and CHALLENGE in str(message.get("text")):
                steps.append(0)
            url = message.get("originalContentUrl") or message.get("baseUrl")
            if message.get("type") in ("image", "imagemap") and isinstance(url, str) and "/pictures/" in url:
                picture = signer.picture(url.partition("/pictures/")[2].partition("/")[0])
                ply = self.ply_of.get(picture.view.fen) if picture is not None else None
                if ply is None:
                    self.strays += 1
                else:
                    steps.append(ply + 1)
        return steps


@dataclass
class Report:
    plan: Plan
    kills: list[Kill]
    database_restarts: int
    exits: int  # servers that exited by themselves (and were started again)
    events: int
    redeliveries: int
    lost: int = 0
    double: int = 0
    stalled: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # shown, though no answer of the script: not counted
    refused_replies: int = 0
    repeated_pushes: int = 0
    dropped_lines: list[str] = field(default_factory=list)  # the servers' "dropped ... (counted as handled)"
    chaos_seconds: float = 0.0
    settle_seconds: float = 0.0

    @property
    def kills_after_ok(self) -> int:
        return sum(kill.after_ok for kill in self.kills)

    def table(self) -> str:
        return "\n".join([
            "| chats | kills | database restarts | events | redeliveries | lost | double | stalled |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| {self.plan.chats} | {len(self.kills)} ({self.kills_after_ok} right after a 200) "
            f"| {self.database_restarts} | {self.events} | {self.redeliveries} | {self.lost} | {self.double} "
            f"| {self.stalled} |",
            "",
            f"chaos {self.chaos_seconds:.0f} s, settling {self.settle_seconds:.0f} s; servers that exited by "
            f"themselves: {self.exits}; replies LINE refused (token used or expired): {self.refused_replies}; "
            f"pushes refused as already taken (409): {self.repeated_pushes}; servers' 'dropped ... counted as "
            f"handled' log lines: {len(self.dropped_lines)}; other messages shown: {len(self.notes)}",
        ])

    def details(self, limit: int = 20) -> str:
        lines = []
        for found in (self.problems, self.notes):
            more = len(found) - limit
            lines += found[:limit] + ([f"... and {more} more"] if more > 0 else [])
        return "\n".join(lines)


async def run_chaos(plan: Plan, *, database_url: str, folder: Path,
                    restart_database: Callable[[], Awaitable[None]] | None) -> Report:
    """Plays ``plan`` on two servers over ``database_url`` (logs and caches in ``folder``);
    ``restart_database`` restarts PostgreSQL (None: no database restarts)."""
    return await ChaosRun(plan, database_url, folder, restart_database).run()


class ChaosRun:
    """One run: the fake LINE, the two servers, the chats' players, the chaos, the check."""

    def __init__(self, plan: Plan, database_url: str, folder: Path,
                 restart_database: Callable[[], Awaitable[None]] | None) -> None:
        self.plan = plan
        self.database_url = database_url
        self.folder = folder
        self.restart_database = restart_database
        self.rng = random.Random(plan.seed)
        self.fake = FakeMessagingApi(TOKEN)
        self.signer = Signer(SECRET)
        self.chats = [Chat(i, plan.seed, plan.plies) for i in range(plan.chats)]
        self.by_group = {chat.group: chat for chat in self.chats}
        self.fake.on_shown = self._shown
        for chat in self.chats:
            self.fake.names.update(chat.names)
        self.servers: list[BotProcess] = []
        self.chaos: Chaos | None = None
        self.redeliveries = 0
        self.events = 0
        self.started = time.monotonic()
        steps = max(len(chat.steps) for chat in self.chats)
        self.think = 0.8 * plan.seconds / steps  # a game lasts about as long as the chaos

    async def run(self) -> Report:
        runner = web.AppRunner(self.fake.app(), access_log=None)
        await runner.setup()
        api_port = free_port()
        await web.TCPSite(runner, "127.0.0.1", api_port).start()
        connector = aiohttp.TCPConnector(limit=0, force_close=True)  # each POST its own connection
        try:
            async with aiohttp.ClientSession(connector=connector) as http:
                await self._start_servers(http, f"http://127.0.0.1:{api_port}")
                store: Storage | None = None
                try:
                    players = [asyncio.create_task(self._play(http, chat)) for chat in self.chats]
                    chaos_seconds = await self._chaos_phase(players)
                    store = await open_storage(self.database_url)
                    settle_seconds = await self._settle(store, players)
                    for task in players:
                        task.cancel()
                    await asyncio.gather(*players, return_exceptions=True)
                    report = await self._check(store)
                finally:
                    if store is not None:
                        await store.close()
                    await asyncio.gather(*(server.stop() for server in self.servers))
        finally:
            await runner.cleanup()
        report.chaos_seconds, report.settle_seconds = chaos_seconds, settle_seconds
        report.dropped_lines = [line for server in self.servers if server.log.exists()
                                for line in server.log.read_text(errors="replace").splitlines()
                                if "counted as handled" in line]
        return report

    def _shown(self, shown: Shown) -> None:
        chat = self.by_group.get(shown.chat)
        if chat is not None:
            chat.saw(shown, self.signer)

    async def _start_servers(self, http: aiohttp.ClientSession, api_url: str) -> None:
        for name in ("a", "b"):  # one after the other: the first one migrates the database
            port = free_port()
            env = bot_environment(database_url=self.database_url, secret=SECRET, access_token=TOKEN,
                                  api_url=api_url, port=port)
            server = BotProcess(name, port, self.folder / f"server-{name}", env)
            self.servers.append(server)
            server.start()
            await wait_until_up(http, server)

    async def _chaos_phase(self, players: list[asyncio.Task[None]]) -> float:
        """The chaos, until its time is over or every game is."""
        plan = self.plan
        self.chaos = Chaos(self.servers, self.restart_database,
                           plan.seconds, plan.kill_every, plan.restart_after, plan.after_ok_chance,
                           plan.db_restarts, random.Random(plan.seed + 1))
        self.chaos.active = True  # the games' first moves come at the chaos's pace too
        started = time.monotonic()
        chaos = asyncio.create_task(self.chaos.run())
        games = asyncio.create_task(asyncio.wait(players))  # cancelling it leaves the players be
        await asyncio.wait([chaos, games], return_when=asyncio.FIRST_COMPLETED)
        for task in (chaos, games):
            task.cancel()
        await asyncio.gather(chaos, games, return_exceptions=True)
        self.chaos.active = False
        return time.monotonic() - started

    async def _settle(self, store: Storage, players: list[asyncio.Task[None]]) -> float:
        """Waits, at most ``plan.settle`` seconds, until every game is over and the outbox has
        nothing left to push, for ``QUIET`` seconds."""
        started = time.monotonic()
        quiet_since: float | None = None
        while time.monotonic() - started < self.plan.settle:
            now = time.monotonic()
            if all(task.done() for task in players) and await outbox_empty(store):
                quiet_since = quiet_since or now
                if now - quiet_since >= QUIET:
                    break
            else:
                quiet_since = None
            await asyncio.sleep(0.5)
        return time.monotonic() - started

    async def _play(self, http: aiohttp.ClientSession, chat: Chat) -> None:
        await asyncio.sleep(chat.rng.uniform(0, self.think))
        for step in chat.steps:
            if step.index:
                busy = self.chaos is not None and self.chaos.active
                await asyncio.sleep(chat.rng.uniform(0.5, 1.5) * self.think if busy else 0.02)
            await self._deliver(http, chat, step)
            await chat.answered(step.index)
        chat.finished = True

    async def _deliver(self, http: aiohttp.ClientSession, chat: Chat, step: Step) -> None:
        """Posts the step's event until a server answers 200, as LINE does."""
        event = step.event = self._event(chat, step)
        self.events += 1
        self.fake.issue(event["replyToken"], chat.group)
        server = self.rng.choice(self.servers)
        pause = REDELIVERY_PAUSE[0]
        while True:
            if await self._post(http, server, event):
                step.acked_by, step.acked_at = server.name, time.monotonic()
                if self.chaos is not None:
                    self.chaos.answered(server)
                return
            self.redeliveries += 1
            event["deliveryContext"] = {"isRedelivery": True}
            server = next(s for s in self.servers if s is not server)
            await asyncio.sleep(pause)
            pause = min(pause * 2, REDELIVERY_PAUSE[1])

    async def _post(self, http: aiohttp.ClientSession, server: BotProcess, event: dict[str, Any]) -> bool:
        body = json.dumps({"destination": BOT_ID, "events": [event]}, ensure_ascii=False).encode()
        headers = {"X-Line-Signature": sign(body), "Content-Type": "application/json"}
        try:
            async with http.post(f"{server.url}/callback", data=body, headers=headers,
                                 timeout=aiohttp.ClientTimeout(total=POST_TIMEOUT)) as response:
                await response.read()
                return response.status == 200
        except (aiohttp.ClientError, TimeoutError, OSError):
            return False

    def _event(self, chat: Chat, step: Step) -> dict[str, Any]:
        tag = f"{self.plan.seed % 1_000_000:06d}C{chat.index:04d}S{step.index:04d}"
        message: dict[str, Any] = {"id": f"{self.plan.seed % 1_000_000}{chat.index:04d}{step.index:04d}",
                                   "type": "text", "text": step.text, "quoteToken": f"q{tag}"}
        if step.mentions:  # ASCII names: UTF-16 offsets are the string's
            message["mention"] = {"mentionees": [
                {"type": "user", "index": step.text.index(written), "length": len(written), "userId": user}
                for written, user in step.mentions.items()]}
        return {"type": "message", "mode": "active", "timestamp": int(time.time() * 1000),
                "source": {"type": "group", "groupId": chat.group, "userId": step.user},
                "webhookEventId": f"01CHAOS{tag}", "deliveryContext": {"isRedelivery": False},
                "replyToken": f"rt{tag}", "message": message}

    async def _check(self, store: Storage) -> Report:
        chaos = self.chaos
        assert chaos is not None
        report = Report(self.plan, chaos.kills, len(chaos.database_restarts),
                        sum(len(server.exits) for server in self.servers), self.events, self.redeliveries,
                        refused_replies=self.fake.refused_replies, repeated_pushes=self.fake.repeated_pushes)
        for chat in self.chats:
            game = await store.last_game("line", f"group:{chat.group}")
            moves = [m.uci for m in game.moves] if game is not None else []
            applied = 0 if game is None else 1 if game.status == "challenge" else 2 + len(moves)
            where = f"chat {chat.index} ({chat.group})"
            if moves != chat.moves[:len(moves)]:
                report.double += 1
                report.problems.append(f"double: {where}: the game is {' '.join(moves)}, "
                                       f"the plan {' '.join(chat.moves[:len(moves)])}")
            for step in chat.steps:
                what = f"{where} step {step.index} {step.text!r}"
                if step.acked_at is not None and step.index >= applied:
                    report.lost += 1
                    report.problems.append(f"lost: {what}: answered 200 by server {step.acked_by} at "
                                           f"{self._at(step.acked_at)}, not in the game"
                                           f"{self._kill_after(step.acked_by, step.acked_at)}")
                elif step.index < applied and not chat.shown[step.index]:
                    report.lost += 1
                    report.problems.append(f"lost: {what}: applied, its answer never shown "
                                           f"(answered 200 by {step.acked_by} at {self._at(step.acked_at)}"
                                           f"{self._kill_after(step.acked_by, step.acked_at)})")
                if chat.shown[step.index] > 1:
                    report.double += 1
                    report.problems.append(f"double: {what}: its answer shown {chat.shown[step.index]} times "
                                           f"({', '.join(chat.how[step.index])})")
            report.notes += [f"shown in {where}: {text}" for text in chat.others]
            if chat.strays:
                report.notes.append(f"shown in {where}: {chat.strays} boards of positions not in the plan")
            if applied < len(chat.steps):
                report.stalled += 1
                report.problems.append(f"stalled: {where}: {max(0, applied - 2)} of {len(chat.moves)} plies "
                                       f"(game {game.status if game else 'none'})")
        return report

    def _at(self, moment: float | None) -> str:
        return "-" if moment is None else f"{moment - self.started:.2f} s"

    def _kill_after(self, server: str | None, moment: float | None) -> str:
        """When ``server`` was next killed after ``moment``, if within a few seconds."""
        chaos = self.chaos
        if chaos is None or moment is None:
            return ""
        later = [k for k in chaos.kills if k.server == server and 0 <= k.at - moment < 5.0]
        if not later:
            return ""
        return f"; server {server} killed {(later[0].at - moment) * 1000:.0f} ms later"


async def outbox_empty(store: Storage) -> bool:
    try:
        return (await store.notice_counts("line")).pending == 0
    except StorageError:
        return False


async def wait_until_up(http: aiohttp.ClientSession, server: BotProcess) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            async with http.get(f"{server.url}/healthz", timeout=aiohttp.ClientTimeout(total=2)) as response:
                if response.status == 200:
                    return
        except (aiohttp.ClientError, TimeoutError, OSError):
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"server {server.name} did not start: see {server.log}")


def sign(body: bytes) -> str:
    return base64.b64encode(hmac.new(SECRET.encode(), body, hashlib.sha256).digest()).decode()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
