"""``UciEngine`` for code without an event loop (the puzzle generator): each call blocks until done.

The calls run on one private event loop that lives as long as the object, because the engine's
pipes belong to the loop that opened them (a fresh ``asyncio.run`` per call would lose them).
Not for use from inside a running event loop: there, use ``UciEngine`` itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Self

from .base import EnginePosition
from .uci import UciEngine, UciResult


class SyncUciEngine:
    def __init__(self, path: str, *, options: dict[str, object] | None = None) -> None:
        self._runner = asyncio.Runner()
        self.engine = UciEngine(path, options=options)

    @property
    def id_name(self) -> str | None:
        return self.engine.id_name

    def go(self, position: EnginePosition, *, nodes: int | None = None, movetime: int | None = None,
           depth: int | None = None, multipv: int = 1, timeout: float | None = None,
           searchmoves: Sequence[str] = ()) -> UciResult:
        """``UciEngine.go`` at full strength; raises ``EngineError`` when the engine fails."""
        return self._runner.run(self.engine.go(position, nodes=nodes, movetime=movetime, depth=depth,
                                               multipv=multipv, timeout=timeout, searchmoves=searchmoves))

    def new_game(self) -> None:
        self._runner.run(self.engine.new_game())

    def start(self) -> None:
        self._runner.run(self.engine.start())

    def close(self) -> None:
        try:
            self._runner.run(self.engine.aclose())
        finally:
            self._runner.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
