"""The watchers of each game and what they are pushed.

A game's room holds its open sockets. It is pushed its state when the game changes: at once
for a change this process stored (the game service's change feed), and within ``POLL_SECONDS``
for one another process stored (a cheap look at the watched games' versions), and when the
number of watchers changes. Pushes of one room are coalesced: a burst of changes sends the
latest state once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..clock import Clock
from ..services.games import GameService
from ..services.games.queries import GameRecord, MoveChoice
from .state import shared_state, side_of, viewer_state
from .tokens import Bearer

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # how often the watched games' versions are read (other processes' changes)

class Viewer(Protocol):
    """One open socket, as the hub sees it."""

    bearer: Bearer | None

    async def send(self, data: dict[str, Any]) -> None: ...

    async def send_text(self, text: str) -> None: ...

    async def close(self) -> None: ...

@dataclass
class Room:
    game_id: int
    viewers: set[Viewer] = field(default_factory=set)
    version: int = -1  # the version last pushed
    dirty: bool = False
    pushing: asyncio.Task[None] | None = None

class Hub:
    """The rooms of the watched games; ``start`` subscribes to the change feed and starts polling."""

    def __init__(self, games: GameService, clock: Clock, *, base: str = "", poll: float = POLL_SECONDS) -> None:
        self.games = games
        self.clock = clock
        self.base = base
        self.poll = poll
        self.rooms: dict[int, Room] = {}
        self._poller: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.games.feed.subscribe(self._changed)
        self._poller = asyncio.create_task(self._poll(), name="web-poll")

    async def stop(self) -> None:
        """Stops listening and polling, and closes every socket (the server is going away: the
        pages reconnect, to this process's successor or another one)."""
        self.games.feed.unsubscribe(self._changed)
        viewers = [v for room in self.rooms.values() for v in room.viewers]
        await asyncio.gather(*(v.close() for v in viewers), return_exceptions=True)
        tasks = [t for t in [self._poller, *(r.pushing for r in self.rooms.values())] if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def watchers(self, game_id: int) -> int:
        room = self.rooms.get(game_id)
        return len(room.viewers) if room is not None else 0

    def join(self, game_id: int, viewer: Viewer) -> None:
        room = self.rooms.setdefault(game_id, Room(game_id))
        room.viewers.add(viewer)
        self.push(game_id)  # the newcomer's first state, and everyone's new count

    def leave(self, game_id: int, viewer: Viewer) -> None:
        room = self.rooms.get(game_id)
        if room is None:
            return
        room.viewers.discard(viewer)
        if room.viewers:
            self.push(game_id)
        else:
            if room.pushing is not None:
                room.pushing.cancel()
            del self.rooms[game_id]

    def push(self, game_id: int) -> None:
        """Sends the room its state soon (once, however many changes come meanwhile)."""
        room = self.rooms.get(game_id)
        if room is None:
            return
        room.dirty = True
        if room.pushing is None or room.pushing.done():
            room.pushing = asyncio.create_task(self._push(room), name=f"web-push-{game_id}")

    async def pushed(self, game_id: int) -> None:
        """Waits until the room's pending push is sent (for tests and for the sender of a move)."""
        room = self.rooms.get(game_id)
        while room is not None and room.pushing is not None and not room.pushing.done():
            await asyncio.shield(room.pushing)

    async def state_for(self, game_id: int, viewer: Bearer | None,
                        record: GameRecord | None = None) -> dict[str, Any] | None:
        """The state ``viewer`` sees now (None: no such game); ``record``: the game, read already."""
        record = record or await self.games.game_record(game_id)
        if record is None:
            return None
        shared = shared_state(record, watchers=self.watchers(game_id), now=self.clock.now(), base=self.base,
                              catalog=self.games.catalog)
        return self._for(shared, record, viewer)

    def _for(self, shared: dict[str, Any], record: GameRecord, viewer: Bearer | None) -> dict[str, Any]:
        choices = self.games.choices(record) if record.game.status == "active" else []
        return viewer_state(shared, record, viewer, choices)

    def _changed(self, game_id: int, version: int) -> None:
        room = self.rooms.get(game_id)
        if room is not None and version != room.version:
            self.push(game_id)

    async def _push(self, room: Room) -> None:
        while room.dirty:
            room.dirty = False
            try:
                record = await self.games.game_record(room.game_id)
            except Exception:
                log.exception("could not read game %d for its watchers", room.game_id)
                return
            if record is None:
                return
            room.version = record.game.version
            shared = shared_state(record, watchers=len(room.viewers), now=self.clock.now(), base=self.base,
                                  catalog=self.games.catalog)
            await asyncio.gather(*self._sends(shared, record, list(room.viewers)))

    def _sends(self, shared: dict[str, Any], record: GameRecord, viewers: list[Viewer]) -> list[Awaitable[None]]:
        """Each viewer's state: the watchers all see the same, written out once; the legal moves
        are worked out once, and only when a player is watching."""
        sends: list[Awaitable[None]] = []
        watching: str | None = None
        choices: list[MoveChoice] | None = None
        for viewer in viewers:
            if side_of(record, viewer.bearer) is None:
                watching = watching or dumps(viewer_state(shared, record, None, []))
                sends.append(_send_text(viewer, watching))
                continue
            if choices is None:
                choices = self.games.choices(record) if record.game.status == "active" else []
            sends.append(_send(viewer, viewer_state(shared, record, viewer.bearer, choices)))
        return sends

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                versions = await self.games.storage.game_versions(list(self.rooms))
            except Exception:
                continue  # the database is away: the next round looks again
            for game_id, room in list(self.rooms.items()):
                if versions.get(game_id, room.version) != room.version:
                    self.push(game_id)


async def _send(viewer: Viewer, data: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):  # a socket closing meanwhile: its handler leaves the room
        await viewer.send(data)


async def _send_text(viewer: Viewer, text: str) -> None:
    with contextlib.suppress(Exception):
        await viewer.send_text(text)


def dumps(data: Any) -> str:
    """JSON as the sockets send it: compact, and Thai, Japanese and Khmer as they are."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

Owed = Callable[[], Awaitable[None] | None]
