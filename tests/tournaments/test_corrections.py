"""Corrections: recomputing from results, and which later matches a changed result touches."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.generators import (
    Bracket,
    InvalidResultError,
    LoserOf,
    MatchStatus,
    WinnerOf,
    advance,
    double_elimination,
    plan_correction,
    single_elimination,
)

from .helpers import play_out


def downstream(bracket: Bracket, match_id: str) -> set[str]:
    """Every match reachable from `match_id` through winner/loser sources (or a reset condition)."""
    reached: set[str] = set()
    frontier = [match_id]
    while frontier:
        current = frontier.pop()
        for match in bracket.matches:
            fed = any(
                isinstance(source, WinnerOf | LoserOf) and source.match_id == current for source in match.sources
            ) or (match.played_if is not None and match.played_if.match_id == current)
            if fed and match.match_id not in reached:
                reached.add(match.match_id)
                frontier.append(match.match_id)
    return reached


class TestSingleEliminationCascade:
    def test_changing_a_first_round_winner_resets_the_path_to_the_final(self) -> None:
        bracket = single_elimination(list(range(1, 9)), third_place=True)
        results = {"R1-1": 1, "R1-2": 4, "R1-3": 2, "R1-4": 3, "R2-1": 1, "R2-2": 2, "R3-1": 1, "3P": 4}
        plan = plan_correction(bracket, results, "R1-1", 8)
        assert plan.old_winner == 1 and plan.new_winner == 8
        assert plan.affected_match_ids == ("R2-1", "R3-1", "3P")
        assert plan.dropped_results == ("R2-1", "R3-1", "3P")
        assert plan.results_after == {"R1-1": 8, "R1-2": 4, "R1-3": 2, "R1-4": 3, "R2-2": 2}
        assert plan.state_after.matches["R2-1"].entrants == (8, 4)
        assert plan.state_after.matches["R2-1"].status is MatchStatus.READY
        assert plan.state_after.matches["R3-1"].entrants == (None, 2)
        # The other half of the bracket is untouched.
        assert plan.state_after.matches["R2-2"] == advance(bracket, results).matches["R2-2"]

    def test_a_correction_not_yet_played_on_only_refills(self) -> None:
        bracket = single_elimination(list(range(1, 9)))
        plan = plan_correction(bracket, {"R1-1": 1}, "R1-1", 8)
        assert plan.affected_match_ids == ("R2-1",)
        assert plan.dropped_results == ()
        assert plan.changes[0].before.entrants == (1, None)
        assert plan.changes[0].after.entrants == (8, None)

    def test_clearing_a_result(self) -> None:
        bracket = single_elimination([1, 2, 3, 4])
        plan = plan_correction(bracket, {"R1-1": 1, "R1-2": 2, "R2-1": 2}, "R1-1", None)
        assert plan.results_after == {"R1-2": 2}
        assert plan.dropped_results == ("R2-1",)

    def test_rejects_impossible_corrections(self) -> None:
        bracket = single_elimination([1, 2, 3, 4])
        with pytest.raises(InvalidResultError, match="not playing"):
            plan_correction(bracket, {"R1-1": 1}, "R1-1", 3)
        with pytest.raises(InvalidResultError, match="waiting"):
            plan_correction(bracket, {}, "R2-1", 1)
        with pytest.raises(InvalidResultError, match="no such match"):
            plan_correction(bracket, {}, "nope", 1)


def test_double_elimination_correction_moves_both_winner_and_loser() -> None:
    bracket = double_elimination(list(range(1, 9)))
    results = {"W1-1": 1, "W1-2": 4, "L1-1": 5}
    plan = plan_correction(bracket, results, "W1-1", 8)
    # The new loser (1) takes 8's place in the losers' bracket, so the match 8
    # lost there must be replayed and its winner no longer waits in round two.
    assert set(plan.affected_match_ids) == {"W2-1", "L1-1", "L2-1"}
    assert plan.dropped_results == ("L1-1",)
    assert plan.state_after.matches["L1-1"].entrants == (1, 5)
    assert plan.state_after.matches["L1-1"].status is MatchStatus.READY
    assert plan.state_after.matches["L2-1"].entrants == (None, None)


@settings(max_examples=120, deadline=None)
@given(
    st.integers(min_value=3, max_value=40),
    st.booleans(),
    st.randoms(use_true_random=False),
    st.data(),
)
def test_corrections_touch_only_later_matches_and_leave_consistent_results(
    count: int, double: bool, rng: random.Random, data: st.DataObject
) -> None:
    bracket = double_elimination(list(range(count))) if double else single_elimination(list(range(count)))
    before, results = play_out(bracket, rng)
    match_id = data.draw(st.sampled_from(sorted(results)))
    view = before.matches[match_id]
    new_winner = view.loser
    plan = plan_correction(bracket, results, match_id, new_winner)
    # The corrected results are valid on their own (strict mode raises otherwise).
    after = advance(bracket, plan.results_after)
    assert after == plan.state_after
    assert after.matches[match_id].winner == new_winner
    assert set(plan.affected_match_ids) <= downstream(bracket, match_id)
    for other, other_view in after.matches.items():
        if other not in plan.affected_match_ids and other != match_id:
            assert other_view == before.matches[other]
    for change in plan.changes:
        if change.result_dropped:
            assert change.after.entrants != change.before.entrants or change.after.status is not MatchStatus.DECIDED
    # Every kept later result still has the entrants it was played by.
    for other in plan.results_after:
        if other != match_id:
            assert after.matches[other].entrants == before.matches[other].entrants
