"""Single elimination: shape, byes, advancement and final placings."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.generators import (
    Empty,
    InvalidResultError,
    MatchStatus,
    Section,
    Seeded,
    Seeding,
    WinnerOf,
    advance,
    single_elimination,
)

from .helpers import losses_by_entrant, play_out

entrant_counts = st.integers(min_value=2, max_value=70)
seedings = st.sampled_from(list(Seeding))


class TestShape:
    def test_eight_entrants_follow_the_standard_order(self) -> None:
        bracket = single_elimination(list(range(1, 9)))
        first_round = [match.sources for match in bracket.matches if match.round == 1]
        assert first_round == [
            (Seeded(1), Seeded(8)),
            (Seeded(4), Seeded(5)),
            (Seeded(2), Seeded(7)),
            (Seeded(3), Seeded(6)),
        ]
        assert bracket.by_id["R2-1"].sources == (WinnerOf("R1-1"), WinnerOf("R1-2"))
        assert bracket.by_id["R1-3"].winner_to is not None
        assert (bracket.by_id["R1-3"].winner_to.match_id, bracket.by_id["R1-3"].winner_to.slot) == ("R2-2", 0)
        assert bracket.by_id["R3-1"].winner_to is None

    @given(entrant_counts, seedings, st.booleans())
    def test_match_count_rounds_and_positions(self, count: int, seeding: Seeding, third_place: bool) -> None:
        if third_place and count < 3:
            return
        bracket = single_elimination(list(range(count)), seeding=seeding, rng_seed=1, third_place=third_place)
        size = 1 << (count - 1).bit_length()
        main = bracket.section(Section.MAIN)
        assert len(main) == size - 1
        per_round = Counter(match.round for match in main)
        assert per_round == {round_number: size >> round_number for round_number in per_round}
        assert len(bracket.section(Section.THIRD_PLACE)) == int(third_place)
        for match in main:
            assert 1 <= match.position <= size >> match.round

    @given(entrant_counts, seedings)
    def test_byes_never_meet_each_other(self, count: int, seeding: Seeding) -> None:
        bracket = single_elimination(list(range(count)), seeding=seeding, rng_seed=3)
        for match in bracket.matches:
            assert match.sources != (Empty(), Empty())
        state = advance(bracket, {})
        assert not [view for view in state.matches.values() if view.status is MatchStatus.VOID]

    def test_third_place_needs_semi_finals(self) -> None:
        with pytest.raises(ValueError, match="semi-finals"):
            single_elimination([1, 2], third_place=True)


class TestAdvance:
    def test_byes_go_through_without_playing(self) -> None:
        bracket = single_elimination([1, 2, 3, 4, 5])
        state = advance(bracket, {})
        assert state.matches["R1-1"].status is MatchStatus.BYE
        assert state.matches["R1-1"].winner == 1
        # Seeds 2 and 3 both had byes, so their round-two match is ready at once.
        assert state.ready == ("R1-2", "R2-2")
        assert state.matches["R2-2"].entrants == (2, 3)
        assert state.matches["R2-1"].entrants == (1, None)
        assert state.matches["R2-1"].status is MatchStatus.WAITING

    def test_strict_results_are_checked(self) -> None:
        bracket = single_elimination([1, 2, 3, 4])
        with pytest.raises(InvalidResultError, match="not playing"):
            advance(bracket, {"R1-1": 2})
        with pytest.raises(InvalidResultError, match="waiting"):
            advance(bracket, {"R2-1": 1})
        with pytest.raises(InvalidResultError, match="no such match"):
            advance(bracket, {"R9-9": 1})
        with pytest.raises(InvalidResultError, match="bye"):
            advance(single_elimination([1, 2, 3]), {"R1-1": 1})

    def test_third_place_match_decides_third_and_fourth(self) -> None:
        bracket = single_elimination([1, 2, 3, 4], third_place=True)
        state = advance(bracket, {"R1-1": 1, "R1-2": 3, "R2-1": 3, "3P": 4})
        assert state.finished
        assert [(placing.entrant, placing.label) for placing in state.placings] == [
            (3, "1"),
            (1, "2"),
            (4, "3"),
            (2, "4"),
        ]


@settings(max_examples=150, deadline=None)
@given(entrant_counts, seedings, st.booleans(), st.randoms(use_true_random=False))
def test_every_bracket_finishes_with_one_winner_and_complete_placings(
    count: int, seeding: Seeding, third_place: bool, rng: random.Random
) -> None:
    third_place = third_place and count >= 3
    bracket = single_elimination(list(range(count)), seeding=seeding, rng_seed=11, third_place=third_place)
    state, results = play_out(bracket, rng)
    losses = losses_by_entrant(state)
    unbeaten = [entrant for entrant in range(count) if entrant not in losses]
    assert unbeaten == [state.champion]
    final = bracket.section(Section.MAIN)[-1]
    assert state.champion == state.matches[final.match_id].winner
    assert sorted(placing.entrant for placing in state.placings) == list(range(count))
    third = state.matches.get("3P")

    # Placing order follows the round of each entrant's last loss, the
    # third-place match ranking between the semi-finals and the final.
    def reached(entrant: int) -> float:
        if entrant == state.champion:
            return float("inf")
        if third is not None and entrant == third.winner:
            return final.round - 0.5
        if third is not None and entrant == third.loser:
            return final.round - 0.75
        return bracket.by_id[losses[entrant][-1]].round

    by_place = sorted(state.placings, key=lambda placing: placing.place)
    for better, worse in itertools.pairwise(by_place):
        assert reached(better.entrant) >= reached(worse.entrant)
        assert (better.place == worse.place) == (reached(better.entrant) == reached(worse.entrant))
    for placing in state.placings:
        equal = [other for other in state.placings if reached(other.entrant) == reached(placing.entrant)]
        better = [other for other in state.placings if reached(other.entrant) > reached(placing.entrant)]
        assert placing.place == len(better) + 1
        assert placing.shared_to == len(better) + len(equal)
    third_place_played = third is not None and third.status is MatchStatus.DECIDED
    assert len(results) == count - 1 + int(third_place_played)
