"""The Glicko-2 rating system (Mark E. Glickman, "Example of the Glicko-2 system", 2022 revision
of the 2001 paper), as lichess rates players and puzzles: a rating, its deviation (how sure it
is) and its volatility (how erratic the player is), updated after a rating period's results.
A solve is a win against the puzzle, a failure a loss; the puzzle is rated the same way
against the player.  Plain arithmetic, no Django: tests/puzzles/test_glicko.py checks the
paper's worked example to its printed digits.
"""

from __future__ import annotations

import math
from typing import NamedTuple

SCALE = 173.7178  # the Glicko-2 scale's unit in Glicko points (400 / ln 10)
TAU = 0.5  # how much the volatility may change in a period (the paper: 0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of the volatility's iteration


class Rating(NamedTuple):
    """A rating on the Glicko scale: 1500 ± 350 at first, volatility 0.06."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


class Result(NamedTuple):
    """One game of a rating period: the opponent's rating, and the score (1 won, 0 lost, 0.5 drawn)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, results: list[Result], tau: float = TAU) -> Rating:
    """``player``'s rating after a period with ``results`` (none: only the deviation grows)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.deviation / SCALE, player.volatility
    if not results:
        return player._replace(deviation=min(350.0, math.sqrt(phi * phi + sigma * sigma) * SCALE))
    opponents = [((r.opponent.rating - 1500) / SCALE, r.opponent.deviation / SCALE, r.score) for r in results]
    v = 1 / sum(
        _g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _s in opponents
    )
    gain = sum(_g(phi_j) * (score - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, score in opponents)
    sigma_new = _volatility(sigma, phi, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(mu_new * SCALE + 1500, phi_new * SCALE, sigma_new)
