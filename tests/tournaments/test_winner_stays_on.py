"""Winner stays on: the queue, the bound on matches, and standings by wins."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.generators import InvalidResultError, Pairing, winner_stays_on


def test_winner_stays_and_loser_goes_to_the_back() -> None:
    state = winner_stays_on(["a", "b", "c", "d"], [], max_matches=5)
    assert state.next_match == Pairing("a", "b")
    state = winner_stays_on(["a", "b", "c", "d"], ["a"], max_matches=5)
    assert (state.holder, state.queue) == ("a", ("c", "d", "b"))
    assert state.next_match == Pairing("a", "c")
    state = winner_stays_on(["a", "b", "c", "d"], ["a", "c"], max_matches=5)
    assert (state.holder, state.queue) == ("c", ("d", "b", "a"))


def test_event_ends_after_max_matches_with_standings_by_wins() -> None:
    state = winner_stays_on(["a", "b", "c"], ["a", "a", "b"], max_matches=3)
    assert state.finished
    assert state.next_match is None
    assert [(row.rank, row.entrant, row.wins, row.played) for row in state.standings()] == [
        (1, "a", 2, 3),
        (2, "b", 1, 2),
        (3, "c", 0, 1),
    ]


def test_equal_wins_share_a_rank() -> None:
    state = winner_stays_on(["a", "b", "c"], ["a", "c"], max_matches=4)
    assert [(row.rank, row.entrant) for row in state.standings()] == [(1, "a"), (1, "c"), (3, "b")]


def test_rejects_bad_results() -> None:
    with pytest.raises(InvalidResultError, match="not won by"):
        winner_stays_on(["a", "b", "c"], ["c"], max_matches=3)
    with pytest.raises(InvalidResultError, match="3 results"):
        winner_stays_on(["a", "b"], ["a", "a", "a"], max_matches=2)
    with pytest.raises(ValueError, match="at least 1"):
        winner_stays_on(["a", "b"], [], max_matches=0)


@given(
    st.integers(min_value=2, max_value=30), st.integers(min_value=1, max_value=80), st.randoms(use_true_random=False)
)
def test_replaying_random_results(count: int, max_matches: int, rng: random.Random) -> None:
    entrants = list(range(count))
    winners: list[int] = []
    state = winner_stays_on(entrants, winners, max_matches=max_matches)
    while state.next_match is not None:
        match = state.next_match
        assert match.first == state.holder and match.second == state.queue[0]
        winner = rng.choice((match.first, match.second))
        assert isinstance(winner, int)
        winners.append(winner)
        state = winner_stays_on(entrants, winners, max_matches=max_matches)
        assert sorted([state.holder, *state.queue]) == entrants
    assert state.matches_played == max_matches
    assert sum(state.wins.values()) == max_matches
    assert sum(state.played.values()) == 2 * max_matches
    ranks = [row.rank for row in state.standings()]
    wins = [row.wins for row in state.standings()]
    assert wins == sorted(wins, reverse=True)
    assert all(ranks[i] == ranks[i - 1] if wins[i] == wins[i - 1] else ranks[i] == i + 1 for i in range(1, len(ranks)))
