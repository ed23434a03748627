"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), one game at a time.

>>> a, b = Rating(1500, 200, 0.06), Rating(1400, 30, 0.06)
>>> round(update(a, [(b, 1.0)]).rating)
1564
"""

from __future__ import annotations

from dataclasses import dataclass

from . import glicko2

TAU = 0.5  # how fast volatility may change; Glickman suggests 0.3 to 1.2
MAX_DEVIATION = 350.0
MIN_DEVIATION = 30.0  # a floor keeps long-time players' ratings able to move


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def update(player: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """The player's new rating after ``games``: (opponent, score 1 / 0.5 / 0); the arithmetic is
    ``glicko2.update``'s (the puzzles' too), with the games' own tau and deviation bounds."""
    after = glicko2.update(_glicko(player), [(_glicko(o), score) for o, score in games], tau=TAU)
    if not games:  # only the deviation grows, up to its ceiling
        return Rating(after.rating, min(after.deviation, MAX_DEVIATION), after.volatility)
    return Rating(after.rating, min(max(after.deviation, MIN_DEVIATION), MAX_DEVIATION), after.volatility)


def _glicko(rating: Rating) -> glicko2.Glicko:
    return glicko2.Glicko(rating.rating, rating.deviation, rating.volatility)
