"""The tables generator and the table standings, pure: no database."""

from __future__ import annotations

from collections.abc import Mapping, Set
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.generators import GeneratorUserError, first_round, repeats, standing_round, table_sizes
from tournaments.standings import MatchRecord, TableRecord, compute_standings


class TestTableSizes:
    @pytest.mark.parametrize(
        ("count", "sizes"),
        [
            (3, [3]),
            (4, [4]),
            (5, [3, 2]),
            (6, [3, 3]),
            (7, [4, 3]),
            (9, [3, 3, 3]),
            (10, [4, 3, 3]),
            (13, [4, 3, 3, 3]),
        ],
    )
    def test_examples(self, count: int, sizes: list[int]) -> None:
        assert table_sizes(count) == sizes

    @pytest.mark.parametrize("count", [0, 1, 2])
    def test_fewer_than_three_is_refused(self, count: int) -> None:
        with pytest.raises(GeneratorUserError, match="at least 3"):
            table_sizes(count)

    @given(st.integers(min_value=6, max_value=2000))
    def test_as_many_fours_as_possible_and_the_rest_threes(self, count: int) -> None:
        sizes = table_sizes(count)
        assert sum(sizes) == count
        assert set(sizes) <= {3, 4}
        assert sizes == sorted(sizes, reverse=True)
        # Any other split into 4s and 3s has fewer 4s.
        fours = sizes.count(4)
        assert not any((count - 4 * more) % 3 == 0 for more in range(fours + 1, count // 4 + 1))


def _brute_force_min_repeats(players: list[int], met: Mapping[int, Set[int]]) -> int:
    """The fewest repeats over every seating with the round's table sizes (small fields only)."""
    sizes = table_sizes(len(players))

    def best(remaining: tuple[int, ...], sizes_left: tuple[int, ...]) -> int:
        if not remaining:
            return 0
        anchor, rest = remaining[0], remaining[1:]
        result = 10**9
        for size in set(sizes_left):
            after = list(sizes_left)
            after.remove(size)
            for others in combinations(rest, size - 1):
                table = (anchor, *others)
                left = tuple(player for player in rest if player not in others)
                result = min(result, repeats([table], met) + best(left, tuple(after)))
        return result

    return best(tuple(players), tuple(sizes))


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[int], dict[int, set[int]]]:
    """A field of 3-10 players in a random standing and random earlier tables."""
    count = draw(st.integers(min_value=3, max_value=10))
    players = draw(st.permutations(list(range(1, count + 1))))
    met: dict[int, set[int]] = {player: set() for player in players}
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        order = draw(st.permutations(players))
        start = 0
        for size in table_sizes(count):
            table = order[start : start + size]
            start += size
            for a, b in combinations(table, 2):
                met[a].add(b)
                met[b].add(a)
    return list(players), met


class TestSeating:
    def test_the_first_round_is_a_snake_by_seed(self) -> None:
        assert first_round(list(range(1, 11))) == [(1, 6, 7, 10), (2, 5, 8), (3, 4, 9)]
        assert first_round([1, 2, 3, 4, 5]) == [(1, 4, 5), (2, 3)]

    def test_without_history_a_later_round_seats_blocks_by_standing(self) -> None:
        ranked = [10, 3, 7, 1, 2, 9, 4, 8, 6, 5]
        assert standing_round(ranked, {}) == [(10, 3, 7, 1), (2, 9, 4), (8, 6, 5)]

    def test_a_repeat_is_avoided_by_the_nearest_swap(self) -> None:
        met = {1: {2}, 2: {1}}
        assert standing_round([1, 2, 3, 4, 5, 6], met) == [(1, 3, 4), (2, 5, 6)]

    def test_ten_after_a_round_of_four_three_three_repeat_one_pair_only(self) -> None:
        tables = first_round(list(range(1, 11)))
        met = {a: {b for b in table if b != a} for table in tables for a in table}
        assert repeats(standing_round(list(range(1, 11)), met), met) == 1

    @settings(max_examples=150, deadline=None)
    @given(histories())
    def test_every_player_sits_once_at_tables_of_the_right_sizes(self, history: tuple[list[int], dict]) -> None:
        ranked, met = history
        tables = standing_round(ranked, met)
        assert sorted(player for table in tables for player in table) == sorted(ranked)
        assert sorted((len(table) for table in tables), reverse=True) == table_sizes(len(ranked))
        # Seats follow the standing at every table.
        for table in tables:
            assert list(table) == sorted(table, key=ranked.index)

    @settings(max_examples=150, deadline=None)
    @given(histories())
    def test_the_fewest_repeat_table_mates_possible(self, history: tuple[list[int], dict]) -> None:
        ranked, met = history
        assert repeats(standing_round(ranked, met), met) == _brute_force_min_repeats(ranked, met)

    @settings(max_examples=100, deadline=None)
    @given(st.integers(min_value=3, max_value=64))
    def test_the_first_round_spreads_the_seeds(self, count: int) -> None:
        tables = first_round(list(range(1, count + 1)))
        assert sorted(player for table in tables for player in table) == list(range(1, count + 1))
        # The top seeds each head a table of their own.
        assert [table[0] for table in tables] == list(range(1, len(tables) + 1))


class TestTableStandings:
    def test_table_points_then_tables_won_then_head_to_head(self) -> None:
        records = [
            TableRecord(players=(1, 2, 3, 4), places=(1, 2, 3, 3), points=(3, 1, 0, 0), winner=1),
            TableRecord(players=(2, 3, 1), places=(1, 2, 3), points=(2, 1, 0), winner=2),
        ]
        rows = compute_standings(records, ["table_points", "match_wins", "head_to_head"], players=[1, 2, 3, 4])
        # 1 and 2 both have 3 points and one table won; 1 finished above 2 once, 2 above 1 once: shared.
        assert [(row.rank, row.player) for row in rows] == [(1, 1), (1, 2), (3, 3), (4, 4)]
        assert rows[2].values == {"table_points": 1, "match_wins": 0, "head_to_head": 0}

    def test_timed_cards_add_up_from_tables_and_two_player_matches(self) -> None:
        records = [
            TableRecord(players=(1, 2, 3), places=(1, 2, 3), points=(2, 1, 0), winner=1, timed=(10, 14, 3)),
            MatchRecord(players=(1, 2), winner=2, games_won=(0, 1), timed=(5, 2)),
        ]
        rows = compute_standings(records, ["timed_cards", "table_points"], players=[1, 2, 3])
        assert [(row.player, row.values["timed_cards"]) for row in rows] == [(2, 16), (1, 15), (3, 3)]

    def test_a_table_record_checks_its_shape(self) -> None:
        with pytest.raises(ValueError, match="one per seat"):
            TableRecord(players=(1, 2, 3), places=(1, 2), points=(2, 1, 0), winner=1)
        with pytest.raises(ValueError, match="did not play"):
            TableRecord(players=(1, 2, 3), places=(1, 2, 3), points=(2, 1, 0), winner=9)
