"""The weakest player: a random legal move, preferring mates and captures a little."""

from __future__ import annotations

import random

from .base import Analysis, EnginePosition, final_analysis, game_positions


class RandomMover:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        board = position.board()
        moves = board.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        captures = [m for m in moves if board.piece_at(m.to_square) is not None]
        if captures and self._random.random() < 0.5:
            return self._random.choice(captures).uci()
        return self._random.choice(moves).uci()

    async def wants_count(self, position: EnginePosition) -> bool:
        board = position.board()
        return board.can_declare_count() == "pieces"

    async def accepts_draw(self, position: EnginePosition, *, level: int) -> bool:
        return False

    async def analyse(self, position: EnginePosition, *, depth: int | None = None,
                      seconds: float | None = None) -> Analysis:
        """No judgement at all: an even score and a random move."""
        return Analysis(0, None, (await self.best_move(position, level=1),))

    async def analyse_game(self, position: EnginePosition, *, seconds: float) -> list[Analysis]:
        analyses = []
        for step in game_positions(position):
            board = step.board()
            analyses.append(final_analysis(board) or await self.analyse(step))
        return analyses
