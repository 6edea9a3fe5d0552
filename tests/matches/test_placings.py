"""The pure rules of places and a table's series: finishing orders, timed places, points and tie-breaks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.placings import (
    cards_left_at,
    check_places,
    competition_places,
    points_for,
    race_places,
    sole_winner,
    timed_places,
)
from matches.series import SeriesStep, table_series_step


def test_competition_places_share_equal_keys_and_skip_the_next_place() -> None:
    assert competition_places([3, 1, 3, 7]) == (2, 1, 2, 4)
    assert competition_places([5, 5, 5]) == (1, 1, 1)


def test_a_race_is_won_by_the_speed_call_then_ranked_by_cards_left() -> None:
    # Seat 2 called Speed; seats 0 and 3 hold 4 cards each and share second place; seat 1 is fourth.
    assert race_places(winner=2, cards_left=[4, 9, 0, 4]) == (2, 4, 1, 2)
    assert race_places(winner=None, cards_left=[3, 3, 3]) is None  # a deadlock: void


def test_a_timed_game_ranks_by_cards_played_then_cards_left_then_the_speed_call() -> None:
    assert timed_places(played=[10, 12, 10], left_at_limit=[5, 3, 5], caller=None) == (2, 1, 2)
    assert timed_places(played=[10, 12, 10], left_at_limit=[4, 3, 5], caller=None) == (2, 1, 3)
    # Equal in play and cards left: the Speed call breaks the tie, and only for the caller.
    assert timed_places(played=[10, 10, 10], left_at_limit=[5, 5, 5], caller=1) == (2, 1, 2)
    # The caller need not win a timed game.
    assert timed_places(played=[14, 9], left_at_limit=[2, 7], caller=1) == (1, 2)


def test_cards_left_at_the_limit_adds_back_the_cards_played_after_it() -> None:
    plays = [[100, 900, 2500], [400, 2600, 2700, 2800]]
    assert cards_left_at(cards_left=[5, 0], plays_by_seat=plays, limit=1000) == (6, 3)
    assert cards_left_at(cards_left=[5, 0], plays_by_seat=plays, limit=2600) == (5, 2)


def test_sole_winner_and_points() -> None:
    assert sole_winner((2, 1, 3)) == 1
    assert sole_winner((1, 1, 3)) is None
    assert points_for((2, 1, 2, 4), (3, 1, 0, 0)) == (1, 3, 1, 0)


@pytest.mark.parametrize("bad", [(1, 1, 2), (2, 3, 4), (0, 1, 2), (1, 2, 2, 3)])
def test_check_places_refuses_what_is_not_a_finishing_order(bad: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="not a finishing order"):
        check_places(bad)


@given(st.lists(st.integers(0, 5), min_size=2, max_size=4))
def test_competition_places_are_always_a_valid_finishing_order(keys: list[int]) -> None:
    places = competition_places(keys)
    assert check_places(places) == places
    assert min(places) == 1


IDS = (11, 12, 13, 14)
FOUR = (3, 1, 0, 0)


def _step(games: list[tuple[int, str, list[int] | None]], series: str, length: int) -> SeriesStep:
    return table_series_step(games=games, player_ids=IDS, points_per_place=FOUR, series=series, length=length)


def test_best_of_plays_every_game_unless_the_leader_cannot_be_caught() -> None:
    one = [(1, "decided", [1, 2, 3, 4])]
    assert _step(one, "best_of", 3) == SeriesStep(open_game=2)
    two = [*one, (2, "decided", [1, 3, 2, 4])]
    # 6 points to 1 with one game (3 points) to go: no one can catch seat 0.
    assert _step(two, "best_of", 3) == SeriesStep(winner_id=11)
    close = [(1, "decided", [1, 2, 3, 4]), (2, "decided", [2, 1, 3, 4])]
    assert _step(close, "best_of", 3) == SeriesStep(open_game=3)


def test_first_to_counts_points_and_void_games_count_for_nothing() -> None:
    games = [(1, "void", None), (2, "decided", [2, 1, 3, 4])]
    assert _step(games, "first_to", 4) == SeriesStep(open_game=3)
    games.append((3, "decided", [3, 1, 2, 4]))
    assert _step(games, "first_to", 4) == SeriesStep(winner_id=12)


def test_equal_points_go_to_more_first_places_then_the_latest_game_then_another_game() -> None:
    # After three games of a best of 3: seat 2 has 0 + 3 + 3 = 6 points, the most.
    games = [(1, "decided", [1, 2, 3, 4]), (2, "decided", [4, 2, 1, 3]), (3, "decided", [3, 2, 1, 4])]
    step = _step(games, "best_of", 3)
    assert step.winner_id == 13
    tied = [(1, "decided", [1, 2, 3, 4]), (2, "decided", [2, 1, 3, 4])]
    # 4 points each, one win each: the latest game (seat 1 first) decides.
    assert _step(tied, "best_of", 2) == SeriesStep(winner_id=12)
    level = [(1, "decided", [1, 1, 3, 4])]  # a timed game's shared first place: 3 points each, equal in all
    assert _step(level, "best_of", 1) == SeriesStep(open_game=2)


def test_an_unsettled_game_holds_the_series() -> None:
    games = [(1, "decided", [1, 2, 3, 4]), (2, "awaiting_confirmation", None)]
    assert _step(games, "best_of", 3) == SeriesStep()
