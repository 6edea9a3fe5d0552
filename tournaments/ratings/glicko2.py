"""Glicko-2, exactly as in Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf).

Ratings are given and returned on the Glicko scale (1500 / 350); the update
works on the Glicko-2 scale (divide by 173.7178), as the paper's steps do.
The volatility is found with the paper's Illinois-method iteration (step 5).

This is not the PyPI `glicko2` package: that one uses the squared rating
where the paper uses the squared rating deviation in the volatility step
(see shared notes/glicko2.md).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
CONVERGENCE = 0.000001

PlayerId = TypeVar("PlayerId", bound=Hashable)


@dataclass(frozen=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility, on the Glicko scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Outcome:
    """One game in a rating period, from the rated player's side: 1 win, 0.5 draw, 0 loss."""

    opponent_rating: float
    opponent_deviation: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(opponent_phi) * (mu - opponent_mu)))


def rate(
    player: Rating,
    outcomes: Sequence[Outcome],
    *,
    tau: float = DEFAULT_TAU,
    convergence: float = CONVERGENCE,
) -> Rating:
    """The player's rating after one rating period with `outcomes` (paper steps 2 to 8).

    With no games the rating and volatility stay and only the deviation grows
    (step 6 applied alone). Raises `ValueError` for a score outside [0, 1].
    """
    for outcome in outcomes:
        if not 0.0 <= outcome.score <= 1.0:
            raise ValueError(f"a game score is between 0 and 1, got {outcome.score}")
    # Step 2: convert to the Glicko-2 scale.
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not outcomes:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)

    # Steps 3 and 4: estimated variance v and estimated improvement delta.
    inverse_variance = 0.0
    improvement_sum = 0.0
    for outcome in outcomes:
        opponent_mu = (outcome.opponent_rating - DEFAULT_RATING) / SCALE
        opponent_phi = outcome.opponent_deviation / SCALE
        g = _g(opponent_phi)
        expected = _expected(mu, opponent_mu, opponent_phi)
        inverse_variance += g * g * expected * (1.0 - expected)
        improvement_sum += g * (outcome.score - expected)
    variance = 1.0 / inverse_variance
    delta = variance * improvement_sum

    # Step 5: new volatility.
    new_sigma = _new_volatility(phi=phi, sigma=sigma, variance=variance, delta=delta, tau=tau, convergence=convergence)

    # Steps 6 and 7: pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    new_mu = mu + new_phi * new_phi * improvement_sum

    # Step 8: back to the Glicko scale.
    return Rating(SCALE * new_mu + DEFAULT_RATING, SCALE * new_phi, new_sigma)


def _new_volatility(
    *, phi: float, sigma: float, variance: float, delta: float, tau: float, convergence: float
) -> float:
    """Step 5: solve f(x) = 0 for x = ln(sigma'^2) with the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi_squared = phi * phi

    def f(x: float) -> float:
        exp_x = math.exp(x)
        return exp_x * (delta * delta - phi_squared - variance - exp_x) / (
            2.0 * (phi_squared + variance + exp_x) ** 2
        ) - (x - a) / (tau * tau)

    # 5.2: initial bracket [A, B].
    upper = a
    if delta * delta > phi_squared + variance:
        lower = math.log(delta * delta - phi_squared - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        lower = a - k * tau
    # The paper names the two ends A (starting at a) and B.
    end_a, end_b = upper, lower
    f_a, f_b = f(end_a), f(end_b)
    # 5.4: iterate until the bracket is narrower than the convergence tolerance.
    while abs(end_b - end_a) > convergence:
        end_c = end_a + (end_a - end_b) * f_a / (f_b - f_a)
        f_c = f(end_c)
        if f_c * f_b <= 0:
            end_a, f_a = end_b, f_b
        else:
            f_a /= 2.0
        end_b, f_b = end_c, f_c
    return math.exp(end_a / 2.0)


@dataclass(frozen=True)
class RatedGame(Generic[PlayerId]):
    """A game between two players in a rating period: `score` is the first player's (1, 0.5, 0)."""

    first: PlayerId
    second: PlayerId
    score: float


def rate_period(
    ratings: Mapping[PlayerId, Rating],
    games: Sequence[RatedGame[PlayerId]],
    *,
    tau: float = DEFAULT_TAU,
    convergence: float = CONVERGENCE,
) -> dict[PlayerId, Rating]:
    """Everyone's rating after one period: each player is rated against opponents' pre-period ratings.

    Players in `ratings` without games get the no-game update (RD grows).
    Raises `KeyError` for a game naming a player not in `ratings`.
    """
    outcomes: dict[PlayerId, list[Outcome]] = {player: [] for player in ratings}
    for game in games:
        first, second = ratings[game.first], ratings[game.second]
        outcomes[game.first].append(Outcome(second.rating, second.deviation, game.score))
        outcomes[game.second].append(Outcome(first.rating, first.deviation, 1.0 - game.score))
    return {
        player: rate(rating, outcomes[player], tau=tau, convergence=convergence) for player, rating in ratings.items()
    }
