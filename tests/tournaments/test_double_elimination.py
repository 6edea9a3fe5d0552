"""Double elimination: match counts, the grand final and its reset, drop placement, placings."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.generators import (
    BracketState,
    Empty,
    EntrantId,
    MatchStatus,
    Section,
    Seeding,
    advance,
    double_elimination,
)

from .helpers import losses_by_entrant, play_out


@pytest.mark.parametrize("count", [4, 8, 16, 32])
@pytest.mark.parametrize("reset", [True, False])
def test_match_counts_for_powers_of_two(count: int, reset: bool) -> None:
    bracket = double_elimination(list(range(count)), grand_final_reset=reset)
    assert len(bracket.section(Section.WINNERS)) == count - 1
    assert len(bracket.section(Section.LOSERS)) == count - 2
    assert len(bracket.section(Section.GRAND_FINAL)) == (2 if reset else 1)


@pytest.mark.parametrize("count", [4, 8, 16, 32])
def test_grand_final_is_one_or_two_matches_when_played(count: int) -> None:
    seen: set[int] = set()
    for trial in range(40):
        state, results = play_out(double_elimination(list(range(count))), random.Random(trial))
        grand_finals = [match_id for match_id in results if match_id.startswith("GF")]
        winners_champion = state.matches["GF1"].entrants[0]
        # The reset is played exactly when the losers'-bracket champion wins the first final.
        assert (len(grand_finals) == 2) == (results["GF1"] != winners_champion)
        assert len(results) == (count - 1) + (count - 2) + len(grand_finals)
        seen.add(len(grand_finals))
    assert seen == {1, 2}


def test_reset_not_played_is_void_and_the_first_final_decides() -> None:
    bracket = double_elimination([1, 2, 3, 4])
    results: dict[str, EntrantId] = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 4, "L2-1": 2}
    assert advance(bracket, results).ready == ("GF1",)
    state = advance(bracket, {**results, "GF1": 1})
    assert state.matches["GF2"].status is MatchStatus.VOID
    assert state.finished
    assert [placing.entrant for placing in state.placings] == [1, 2, 4, 3]
    reset = advance(bracket, {**results, "GF1": 2})
    assert reset.ready == ("GF2",)
    assert reset.matches["GF2"].entrants == (1, 2)
    final = advance(bracket, {**results, "GF1": 2, "GF2": 2})
    assert final.champion == 2


def test_placings_for_eight() -> None:
    state, _ = play_out(double_elimination(list(range(8))), random.Random(5))
    assert [placing.label for placing in state.placings] == ["1", "2", "3", "4", "5-6", "5-6", "7-8", "7-8"]


def test_two_entrants_meet_again_in_the_grand_final() -> None:
    bracket = double_elimination(["a", "b"])
    state = advance(bracket, {"W1-1": "a"})
    assert state.matches["GF1"].entrants == ("a", "b")


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=2, max_value=70),
    st.sampled_from(list(Seeding)),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_every_bracket_finishes_with_one_winner_and_complete_placings(
    count: int, seeding: Seeding, reset: bool, rng: random.Random
) -> None:
    bracket = double_elimination(list(range(count)), seeding=seeding, rng_seed=5, grand_final_reset=reset)
    for match in bracket.section(Section.WINNERS):
        assert match.sources != (Empty(), Empty()), "byes never meet"
    state, results = play_out(bracket, rng)
    losses = losses_by_entrant(state)
    champion = state.champion
    assert champion is not None
    assert len(losses.get(champion, [])) <= 1
    for entrant in range(count):
        if entrant == champion:
            continue
        lost_first_final_only = not reset and losses[entrant] == ["GF1"]
        assert len(losses[entrant]) == 2 or lost_first_final_only, f"{entrant} lost {losses[entrant]}"
    assert sorted(placing.entrant for placing in state.placings) == list(range(count))

    # How far each entrant got: the round of the match that ended their run.
    def reached(entrant: EntrantId) -> float:
        if entrant == champion:
            return float("inf")
        last = bracket.by_id[losses[entrant][-1]]
        return 1000.0 if last.section is Section.GRAND_FINAL else last.round

    for placing in state.placings:
        better = sum(reached(other.entrant) > reached(placing.entrant) for other in state.placings)
        equal = sum(reached(other.entrant) == reached(placing.entrant) for other in state.placings)
        assert (placing.place, placing.shared_to) == (better + 1, better + equal)
    played = Counter(bracket.by_id[match_id].section for match_id in results)
    assert played[Section.WINNERS] + played[Section.LOSERS] <= 2 * count - 3


def _met_in_winners_bracket(state: BracketState, results: dict[str, EntrantId]) -> set[frozenset[EntrantId | None]]:
    return {frozenset(state.matches[match_id].entrants) for match_id in results if match_id.startswith("W")}


@pytest.mark.parametrize("count", [8, 16, 32, 64, 128])
def test_droppers_avoid_winners_bracket_rematches_where_possible(count: int) -> None:
    # The first drop (winners' round 2 losers, losers' round 2) can always avoid
    # a rematch from eight entrants up; the second (losers' round 4) needs at
    # least four matches in its round, so 32 entrants.
    checked_rounds = [2] + ([4] if count >= 32 else [])
    for trial in range(30):
        state, results = play_out(double_elimination(list(range(count))), random.Random(trial))
        met = _met_in_winners_bracket(state, results)
        for match_id, view in state.matches.items():
            section_round = match_id.split("-")[0]
            if section_round in {f"L{number}" for number in checked_rounds}:
                assert frozenset(view.entrants) not in met, f"rematch in {match_id}: {view.entrants}"
