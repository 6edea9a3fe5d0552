"""Round robin on the FIDE Berger tables."""

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.generators import berger_table, round_robin


def as_text(entrants: list[str], *, double: bool = False) -> list[str]:
    return [
        " ".join(f"{pairing.first}-{pairing.second}" for pairing in scheduled.pairings)
        for scheduled in round_robin(entrants, double=double).rounds
    ]


class TestBergerTables:
    def test_four_players(self) -> None:
        assert as_text(["1", "2", "3", "4"]) == ["1-4 2-3", "4-3 1-2", "2-4 3-1"]

    def test_six_players(self) -> None:
        assert as_text(["1", "2", "3", "4", "5", "6"]) == [
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "6-5 1-4 2-3",
            "3-6 4-2 5-1",
        ]

    def test_odd_count_pairs_with_a_dummy_as_the_bye(self) -> None:
        # Three players use the four-player table; pairing with number 4 is the bye.
        schedule = round_robin(["1", "2", "3"])
        assert [
            (as_text(["1", "2", "3"])[index], scheduled.bye) for index, scheduled in enumerate(schedule.rounds)
        ] == [
            ("2-3", "1"),
            ("1-2", "3"),
            ("3-1", "2"),
        ]

    def test_double_round_robin_repeats_with_seats_swapped(self) -> None:
        assert as_text(["1", "2", "3", "4"], double=True) == [
            "1-4 2-3", "4-3 1-2", "2-4 3-1", "4-1 3-2", "3-4 2-1", "4-2 1-3",
        ]  # fmt: skip

    @pytest.mark.parametrize("players", [3, 5, 7])
    def test_table_needs_an_even_count(self, players: int) -> None:
        with pytest.raises(ValueError, match="even"):
            berger_table(players)


@given(st.integers(min_value=2, max_value=40), st.booleans())
def test_everyone_meets_everyone_once_or_twice(count: int, double: bool) -> None:
    entrants = list(range(100, 100 + count))
    schedule = round_robin(entrants, double=double)
    legs = 2 if double else 1
    rounds_per_leg = count - 1 if count % 2 == 0 else count
    assert len(schedule.rounds) == legs * rounds_per_leg
    meetings: Counter[frozenset[int]] = Counter()
    seats: Counter[tuple[int, int]] = Counter()
    for scheduled in schedule.rounds:
        present = [entrant for pairing in scheduled.pairings for entrant in (pairing.first, pairing.second)]
        if scheduled.bye is not None:
            present.append(scheduled.bye)
        assert sorted(present) == entrants, "everyone plays (or sits out) exactly once a round"
        for pairing in scheduled.pairings:
            assert isinstance(pairing.first, int) and isinstance(pairing.second, int)
            meetings[frozenset((pairing.first, pairing.second))] += 1
            seats[(pairing.first, pairing.second)] += 1
    assert set(meetings) == {frozenset(pair) for pair in itertools.combinations(entrants, 2)}
    assert set(meetings.values()) == {legs}
    if double:
        assert all(seats[(second, first)] == 1 for first, second in seats), "the second leg swaps seats"
    byes = Counter(scheduled.bye for scheduled in schedule.rounds if scheduled.bye is not None)
    assert set(byes.values()) <= {legs}
    assert len(byes) == (count if count % 2 else 0)


def test_seats_balance_within_one_per_leg() -> None:
    # Berger tables give each player as even a share of first seats as possible.
    for count in range(4, 21, 2):
        firsts = Counter(
            pairing.first for scheduled in round_robin(list(range(count))).rounds for pairing in scheduled.pairings
        )
        assert max(firsts.values()) - min(firsts.get(player, 0) for player in range(count)) <= 1
