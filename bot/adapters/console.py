"""The console chat: one channel, lines from stdin, replies on stdout.

A line ``NAME: text`` is a message from user NAME; any other line is from user ``you``;
``@NAME`` mentions user NAME. Replies are printed as ``bot: ...`` lines, or with ``--json`` as
one JSON object per reply.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sys
import uuid
from pathlib import Path
from typing import Any, TextIO

from ..commands import parse_command
from ..config import Settings
from ..messages import Incoming, Notice, Reply, User
from ..scheduler import Scheduler
from ..services.games import GameService
from ..services.outbox import Outbox
from ..web.links import player_link, watch_link

CHANNEL = "console"
DEFAULT_USER = "you"
_SPEAKER = re.compile(r"([^\s:@]{1,32}):\s?(.*)", re.DOTALL)
_MENTION = re.compile(r"@([^\s@]{1,32})")


class ConsoleChat:
    def __init__(self, games: GameService, *, out: TextIO = sys.stdout, as_json: bool = False,
                 images: Path | None = None, web: str | None = None, settings: Settings | None = None) -> None:
        self.games = games
        self.out = out
        self.as_json = as_json
        self.images = images
        # ``--web PORT``: the board's address; replies that start a game, and ``board``'s, link to it.
        self.web = web
        self.settings = settings or Settings()
        self._outbox: Outbox | None = None
        self._draining: set[asyncio.Task[int]] = set()
        if images is not None:
            images.mkdir(parents=True, exist_ok=True)

    async def run(self, lines, *, interval: float = 5.0) -> None:
        """Handles every line until the input ends; the scheduler runs alongside."""
        outbox = self.outbox()
        scheduler = Scheduler(self.games.jobs("console", outbox), interval=interval,
                              wake=self.games.wake("console", outbox))
        await scheduler.run_once()  # whatever came due while the chat was closed
        scheduler.start()
        try:
            async for line in lines:
                await self.say(line)
        finally:
            await scheduler.stop()
        await outbox.drain()  # what the last lines made due (an event's next round) is shown before the end

    def outbox(self) -> Outbox:
        """The deliverer of the chat's notices (the scheduler drains it; so may a test)."""
        if self._outbox is None:
            self._outbox = self.games.outbox("console", self._send)
        return self._outbox

    async def say(self, line: str) -> None:
        """Handles one line of input and shows its replies."""
        msg = self.incoming(line.rstrip("\r\n"))
        if msg is None:
            return
        replies = await self.games.handle(msg)
        command = parse_command(msg.text, self.games.catalog)
        board = command is not None and command.name == "board"
        for reply in replies:
            await self.show(reply, board=board)
        await self.games.delivered(replies)

    def deliver_soon(self, platform: str = "console") -> None:
        """The web board stored a move whose answer the chat is owed: the outbox shows it now,
        not at the scheduler's next round."""
        if self._outbox is not None and platform == "console":
            task = asyncio.create_task(self._outbox.drain())
            self._draining.add(task)
            task.add_done_callback(self._draining.discard)

    async def _send(self, notice: Notice) -> None:
        await self.show(notice.reply)

    async def links(self, game_id: int) -> dict[str, Any]:
        """Each player's own link to the web board, and the watchers' link."""
        record = await self.games.game_record(game_id)
        links: dict[str, str] = {}
        if record is not None:
            now = self.games.clock.now()
            for color, user_id in record.user_ids.items():
                if user_id is not None:
                    links[record.names[color]] = player_link(self.settings, game_id, "console", user_id, now,
                                                             base=self.web)
        return {"links": links, "watch": watch_link(self.settings, game_id, base=self.web)}

    def incoming(self, line: str) -> Incoming | None:
        if not line.strip():
            return None
        speaker = _SPEAKER.fullmatch(line)
        name, text = (speaker.group(1), speaker.group(2)) if speaker else (DEFAULT_USER, line)
        mentions = tuple(User(m, m) for m in _MENTION.findall(text))
        # Each line is an event of its own: what it changes is stored with its answer, which the
        # outbox shows after a restart if this process died before printing it.
        return Incoming("console", CHANNEL, User(name, name), text, community=CHANNEL, mentions=mentions,
                        event=uuid.uuid4().hex, private=True)

    async def show(self, reply: Reply, *, board: bool = False) -> None:
        """Prints ``reply``, with the game it carries: the service sets ``Reply.game`` on the
        replies about a game (``board``: the answer to ``board``, which links to the web board)."""
        image_path = self._save_image(reply)
        started = reply.game is not None and reply.game.status == "active" and (reply.game.ply == 0 or board)
        links = await self.links(reply.game.id) if self.web and started and reply.game else None
        if self.as_json:
            game = reply.game
            record = {
                "kind": reply.kind,
                "text": reply.text,
                "error": reply.error,
                "image": str(image_path) if image_path else None,
                "game": game.as_dict() if game else None,
            }
            self.out.write(json.dumps(record | (reply.data or {}) | (links or {}), ensure_ascii=False) + "\n")
        else:
            for line in reply.text.splitlines() or [""]:
                self.out.write(f"bot: {line}\n")
            if image_path:
                self.out.write(f"bot: [board] {image_path}\n")
            if links:
                for name, url in links["links"].items():
                    self.out.write(f"bot: [web] {name}: {url}\n")
                self.out.write(f"bot: [web] {links['watch']}\n")
        self.out.flush()

    def _save_image(self, reply: Reply) -> Path | None:
        if self.images is None or reply.image is None:
            return None
        suffix = ".gif" if reply.image.startswith(b"GIF8") else ".png"  # export ID gif: a replay
        name = hashlib.sha256(reply.image).hexdigest()[:16] + suffix
        path = self.images / name
        if not path.exists():
            path.write_bytes(reply.image)
        return path


async def stdin_lines():
    """Lines of stdin without blocking the event loop (the scheduler keeps running)."""
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        yield line
