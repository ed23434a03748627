"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) with its parameters as arguments,
and the puzzle trainer's use of it: a player and a puzzle play one game per attempt.

Pure: no storage, no clock. The starting values are lichess's for puzzles: a player starts at
1500 with a deviation of 350 and a volatility of 0.06; a puzzle starts at the bank's estimate of
its difficulty with a deviation of 250; tau is 0.75; one attempt moves a puzzle at most 200.

>>> player, puzzle = Glicko(1500, 350, 0.06), Glicko(1500, 250, 0.06)
>>> after_player, after_puzzle = rate_attempt(player, puzzle, solved=True)
>>> round(after_player.rating), round(after_puzzle.rating)
(1670, 1402)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # the Glicko scale over the Glicko-2 scale
CENTRE = 1500.0
EPSILON = 0.000001  # the volatility iteration's convergence tolerance (the paper's)

PLAYER_START_RATING = 1500.0
PLAYER_START_DEVIATION = 350.0
START_VOLATILITY = 0.06
PUZZLE_START_DEVIATION = 250.0
TAU = 0.75
PUZZLE_MAX_CHANGE = 200.0
MIN_DEVIATION = 45.0  # a floor, so that a long-trained rating can still move
MAX_DEVIATION = 350.0


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating on the Glicko scale (1500 centre), its deviation and its volatility."""

    rating: float = PLAYER_START_RATING
    deviation: float = PLAYER_START_DEVIATION
    volatility: float = START_VOLATILITY


def puzzle_start(estimate: float) -> Glicko:
    """A puzzle's first rating: the bank's estimate of its difficulty, deviation 250."""
    return Glicko(float(estimate), PUZZLE_START_DEVIATION, START_VOLATILITY)


def rate_attempt(player: Glicko, puzzle: Glicko, *, solved: bool) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's ratings after one attempt: a win for the solver or for the
    puzzle, each rated against the other's rating from before."""
    score = 1.0 if solved else 0.0
    new_player = bounded(update(player, [(puzzle, score)], tau=TAU))
    new_puzzle = bounded(update(puzzle, [(player, 1.0 - score)], tau=TAU))
    change = max(-PUZZLE_MAX_CHANGE, min(PUZZLE_MAX_CHANGE, new_puzzle.rating - puzzle.rating))
    return new_player, Glicko(puzzle.rating + change, new_puzzle.deviation, new_puzzle.volatility)


def bounded(rating: Glicko) -> Glicko:
    """The deviation kept within MIN_DEVIATION..MAX_DEVIATION."""
    deviation = min(max(rating.deviation, MIN_DEVIATION), MAX_DEVIATION)
    return Glicko(rating.rating, deviation, rating.volatility)


def update(player: Glicko, results: Sequence[tuple[Glicko, float]], *, tau: float) -> Glicko:
    """The player's rating after one rating period of ``results``: (opponent, score 1 / 0.5 / 0).

    >>> me = Glicko(1500, 200, 0.06)
    >>> games = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    >>> after = update(me, games, tau=0.5)
    >>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)
    """
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    if not results:  # step 6 only: the deviation grows with time
        return Glicko(player.rating, math.sqrt(phi**2 + player.volatility**2) * SCALE, player.volatility)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        g = _g(opponent.deviation / SCALE)
        expected = _expected(mu, (opponent.rating - CENTRE) / SCALE, g)
        v_inverse += g * g * expected * (1 - expected)
        improvement += g * (score - expected)
    v = 1 / v_inverse
    delta = v * improvement
    sigma = new_volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * improvement
    return Glicko(new_mu * SCALE + CENTRE, new_phi * SCALE, sigma)


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """The player's expected score against ``opponent`` (the chance a player solves a puzzle).

    >>> round(expected_score(Glicko(1500, 200), Glicko(1400, 30)), 3)
    0.639
    """
    mu = (player.rating - CENTRE) / SCALE
    return _expected(mu, (opponent.rating - CENTRE) / SCALE, _g(opponent.deviation / SCALE))


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_opponent: float, g: float) -> float:
    return 1 / (1 + math.exp(-g * (mu - mu_opponent)))
