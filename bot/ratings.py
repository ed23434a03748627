"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), one game at a time.

>>> a, b = Rating(1500, 200, 0.06), Rating(1400, 30, 0.06)
>>> round(update(a, [(b, 1.0)]).rating)
1564
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # converts between the Glicko and Glicko-2 scales
TAU = 0.5  # how fast volatility may change; Glickman suggests 0.3 to 1.2
EPSILON = 0.000001
MAX_DEVIATION = 350.0
MIN_DEVIATION = 30.0  # a floor keeps long-time players' ratings able to move


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def update(player: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """The player's new rating after ``games``: (opponent, score 1 / 0.5 / 0)."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    if not games:
        phi_star = math.sqrt(phi**2 + player.volatility**2)
        return Rating(player.rating, min(phi_star * SCALE, MAX_DEVIATION), player.volatility)
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - 1500) / SCALE
        g = _g(opponent.deviation / SCALE)
        e = 1 / (1 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    sigma = _new_volatility(phi, player.volatility, v, delta)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * delta_sum
    deviation = min(max(new_phi * SCALE, MIN_DEVIATION), MAX_DEVIATION)
    return Rating(new_mu * SCALE + 1500, deviation, sigma)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _new_volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = c, f_c
    return math.exp(big_a / 2)
