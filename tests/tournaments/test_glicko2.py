"""Glicko-2 against Glickman's worked example, and its basic properties."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.ratings.glicko2 import Outcome, RatedGame, Rating, rate, rate_period

EXAMPLE_PLAYER = Rating(1500, 200, 0.06)
EXAMPLE_GAMES = [Outcome(1400, 30, 1), Outcome(1550, 100, 0), Outcome(1700, 300, 0)]

ratings = st.builds(
    Rating,
    st.floats(min_value=800, max_value=2600),
    st.floats(min_value=30, max_value=350),
    st.floats(min_value=0.03, max_value=0.1),
)
opponents = st.tuples(st.floats(min_value=800, max_value=2600), st.floats(min_value=30, max_value=350))


def test_glickmans_worked_example() -> None:
    # The paper prints 1464.06 / 151.52 / 0.05999 from rounded steps; an exact
    # run of its algorithm lands within these tolerances (shared notes/glicko2.md).
    updated = rate(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=0.5)
    assert updated.rating == pytest.approx(1464.06, abs=0.01)
    assert updated.deviation == pytest.approx(151.52, abs=0.01)
    assert updated.volatility == pytest.approx(0.05999, abs=0.00001)


def test_default_tau_is_the_papers() -> None:
    assert rate(EXAMPLE_PLAYER, EXAMPLE_GAMES) == rate(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=0.5)
    assert rate(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=1.2) != rate(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=0.3)


def test_no_games_only_widens_the_deviation() -> None:
    updated = rate(EXAMPLE_PLAYER, [])
    assert (updated.rating, updated.volatility) == (EXAMPLE_PLAYER.rating, EXAMPLE_PLAYER.volatility)
    # Step 6 alone: phi* = sqrt(phi^2 + sigma^2), on the Glicko-2 scale.
    assert updated.deviation == pytest.approx(173.7178 * math.hypot(200 / 173.7178, 0.06))
    assert updated.deviation > EXAMPLE_PLAYER.deviation


@given(
    st.floats(min_value=1000, max_value=2200),
    st.floats(min_value=100, max_value=350),
    st.lists(
        st.tuples(
            st.floats(min_value=-400, max_value=400),
            st.floats(min_value=30, max_value=350),
            st.sampled_from([0.0, 1.0]),
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_games_shrink_the_deviation(rating: float, deviation: float, games: list[tuple[float, float, float]]) -> None:
    # Games against opponents within 400 points tell the system something, so
    # the deviation ends lower than it started and lower than after a quiet period.
    player = Rating(rating, deviation, 0.06)
    updated = rate(
        player, [Outcome(rating + gap, opponent_deviation, score) for gap, opponent_deviation, score in games]
    )
    assert updated.deviation < player.deviation
    assert updated.deviation < rate(player, []).deviation


@given(ratings, opponents)
def test_a_win_raises_and_a_loss_lowers_the_rating(player: Rating, opponent: tuple[float, float]) -> None:
    assert rate(player, [Outcome(*opponent, 1.0)]).rating > player.rating
    assert rate(player, [Outcome(*opponent, 0.0)]).rating < player.rating


def test_scores_outside_zero_to_one_are_rejected() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        rate(EXAMPLE_PLAYER, [Outcome(1500, 100, 2)])


def test_a_rating_period_rates_everyone_from_pre_period_ratings() -> None:
    before = {
        "p": EXAMPLE_PLAYER,
        "a": Rating(1400, 30),
        "b": Rating(1550, 100),
        "c": Rating(1700, 300),
        "idle": Rating(),
    }
    games = [RatedGame("p", "a", 1.0), RatedGame("b", "p", 1.0), RatedGame("p", "c", 0.0)]
    after = rate_period(before, games)
    assert after["p"] == rate(EXAMPLE_PLAYER, EXAMPLE_GAMES)
    assert after["a"] == rate(before["a"], [Outcome(1500, 200, 0.0)])
    assert after["idle"] == rate(before["idle"], [])
    assert after["b"].rating > before["b"].rating and after["c"].rating > before["c"].rating
