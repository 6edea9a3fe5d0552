"""Seeding: the standard order, byes to the top seeds, random and as-given placement."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.generators import Seeding, bracket_lines, bracket_size, standard_seed_order


class TestStandardSeedOrder:
    def test_eight(self) -> None:
        assert standard_seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]

    def test_sixteen(self) -> None:
        assert standard_seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]

    @pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
    def test_first_round_seeds_add_up_to_size_plus_one(self, size: int) -> None:
        order = standard_seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert {order[line] + order[line + 1] for line in range(0, size, 2)} == {size + 1}

    @pytest.mark.parametrize("size", [4, 8, 16, 32, 64])
    def test_top_seeds_meet_as_late_as_possible(self, size: int) -> None:
        # Seeds 1..2^j sit in different blocks of size/2^j lines.
        order = standard_seed_order(size)
        block = size
        top = 1
        while block >= 2:
            blocks = {order.index(seed) // block for seed in range(1, top + 1)}
            assert len(blocks) == top
            block //= 2
            top *= 2

    @pytest.mark.parametrize("size", [0, 1, 3, 6, 12])
    def test_size_must_be_a_power_of_two(self, size: int) -> None:
        with pytest.raises(ValueError, match="power of two"):
            standard_seed_order(size)


class TestBracketLines:
    @given(st.integers(min_value=2, max_value=200))
    def test_byes_go_to_the_top_seeds_and_never_meet(self, count: int) -> None:
        entrants = list(range(1, count + 1))
        lines = bracket_lines(entrants)
        assert len(lines) == bracket_size(count)
        byes = len(lines) - count
        pairs = [(lines[line], lines[line + 1]) for line in range(0, len(lines), 2)]
        assert all(pair != (None, None) for pair in pairs)
        with_bye = sorted(next(entrant for entrant in pair if entrant is not None) for pair in pairs if None in pair)
        assert with_bye == entrants[:byes]

    def test_random_is_reproducible_and_needs_a_seed(self) -> None:
        entrants = list(range(20))
        first = bracket_lines(entrants, seeding=Seeding.RANDOM, rng_seed=7)
        assert first == bracket_lines(entrants, seeding=Seeding.RANDOM, rng_seed=7)
        assert first != bracket_lines(entrants, seeding=Seeding.RANDOM, rng_seed=8)
        assert sorted(entrant for entrant in first if entrant is not None) == entrants
        with pytest.raises(ValueError, match="rng_seed"):
            bracket_lines(entrants, seeding=Seeding.RANDOM)

    def test_as_given_keeps_the_order_and_gives_the_first_entrants_the_byes(self) -> None:
        assert bracket_lines(["a", "b", "c", "d", "e", "f"], seeding=Seeding.AS_GIVEN) == [
            "a", None, "b", None, "c", "d", "e", "f",
        ]  # fmt: skip
        assert bracket_lines(["a", "b", "c", "d"], seeding=Seeding.AS_GIVEN) == ["a", "b", "c", "d"]

    def test_rejects_too_few_or_repeated_entrants(self) -> None:
        with pytest.raises(ValueError, match="at least 2"):
            bracket_lines([1])
        with pytest.raises(ValueError, match="repeated"):
            bracket_lines([1, 2, 2])
