"""The bot's eight playing levels: who plays each, how long it thinks, and its estimated rating.

Levels 1-4 are the built-in engine (pure Python), 5-8 Fairy-Stockfish; without Fairy-Stockfish
levels 5-8 play as the built-in engine's top level. A move takes at most about 3 seconds.
Ratings are on the bot's Glicko-2 scale (new players start at 1500), estimated by the benchmark
in docs/engines.md: level 1 set at 800 and level 8 at 2600, the others placed between by their
measured Elo (rounded; at least 100 apart). Games against the bot are rated against them.

>>> level(4).engine, level(8).engine, builtin_level(7).number
('builtin', 'fairy-stockfish', 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

BUILTIN_TOP = 4
ENGINE_DEVIATION = 60.0  # the levels' ratings are estimates, not measured against people


@dataclass(frozen=True)
class Level:
    number: int
    rating: int
    summary: str
    engine: Literal["builtin", "fairy-stockfish"]
    seconds: float  # thinking time at most (the built-in engine stops sooner on easy moves)
    depth: int = 64  # built-in: full-width depth at most (quiescence search goes further)
    spread: int = 0  # built-in: plays any move within this many centipawns of its best
    skill: int = 20  # Fairy-Stockfish "Skill Level" (0-20): below 20 it varies its moves (and weakens fast)
    nodes: int | None = None  # Fairy-Stockfish: nodes per move


LEVELS: dict[int, Level] = {
    level.number: level
    for level in (
        Level(1, 800, "built-in, 1 ply and captures, picks loosely among moves within 2.5 Bia of its best",
              "builtin", seconds=0.3, depth=1, spread=250),
        Level(2, 1200, "built-in, 2 plies, picks among moves within 1 Bia of its best",
              "builtin", seconds=0.6, depth=2, spread=100),
        Level(3, 1300, "built-in, 3 plies, small randomness (0.3 Bia)",
              "builtin", seconds=1.2, depth=3, spread=30),
        Level(4, 1900, "built-in, iterative deepening for 2.5 s, its best move",
              "builtin", seconds=2.5),
        Level(5, 2000, "Fairy-Stockfish, Skill Level 17, 20,000 nodes",
              "fairy-stockfish", seconds=1.0, skill=17, nodes=20_000),
        Level(6, 2150, "Fairy-Stockfish, Skill Level 19, 60,000 nodes",
              "fairy-stockfish", seconds=1.5, skill=19, nodes=60_000),
        Level(7, 2450, "Fairy-Stockfish, 250,000 nodes",
              "fairy-stockfish", seconds=2.0, nodes=250_000),
        Level(8, 2600, "Fairy-Stockfish at full strength for 2.5 s",
              "fairy-stockfish", seconds=2.5),
    )
}


def level(number: int) -> Level:
    """The level ``number``, clamped to 1-8."""
    return LEVELS[min(max(number, 1), len(LEVELS))]


def builtin_level(number: int) -> Level:
    """What the built-in engine plays at ``number``: itself, or its top level for 5-8."""
    spec = level(number)
    return spec if spec.engine == "builtin" else LEVELS[BUILTIN_TOP]


def rating(number: int) -> int:
    """The estimated rating of a level, which games against the bot are rated against."""
    return level(number).rating
