"""The one engine interface the services use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from makruk import Board

from ..services.replay import CountEvent, replay


class EngineError(Exception):
    """The engine could not produce a move (it died, timed out, or answered nonsense)."""


@dataclass(frozen=True)
class EnginePosition:
    """A game as an engine needs it; plain data, so it can cross into another process."""

    start_fen: str
    moves: tuple[str, ...]
    events: tuple[CountEvent, ...] = ()
    promotion: str = "forced"
    perpetual: str = "forbid"

    def board(self) -> Board:
        return replay(self.start_fen, list(self.moves), list(self.events),
                      promotion=self.promotion, perpetual=self.perpetual)


class Engine(Protocol):
    name: str

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        """The UCI of the move the engine plays at ``level`` (1 weakest .. 8 strongest)."""
        ...

    async def wants_count(self, position: EnginePosition) -> bool:
        """Whether the engine, to move, declares the count it is entitled to."""
        ...

    async def accepts_draw(self, position: EnginePosition, *, level: int) -> bool:
        ...
