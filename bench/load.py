"""What every load benchmark's chats do: wait a random gap, then play a random legal move."""

from __future__ import annotations

import asyncio
import random
import time

from makruk import Board, Move


async def next_move(board: Board, rng: random.Random, rate: float, stop_at: float) -> Move | None:
    """Waits an exponential gap (``rate`` moves per second on average, never past ``stop_at``,
    so the rate is counted over the window) and picks a legal move at random; None once the
    window is over or the game has ended."""
    await asyncio.sleep(min(rng.expovariate(rate), max(0.0, stop_at - time.perf_counter())))
    if time.perf_counter() >= stop_at:
        return None
    moves = board.legal_moves()
    if not moves or board.is_game_over():
        return None
    return rng.choice(moves)
