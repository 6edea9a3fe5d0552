"""Standings: each metric, tie-break order, shared ranks, head-to-head only inside ties."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import METRICS, MatchRecord, compute_standings

# A small round robin of four. cards_left is what each player still held when
# the games they lost ended, summed over the match.
RECORDS = [
    MatchRecord(("a", "b"), "a", (2, 1), (3, 5)),
    MatchRecord(("c", "a"), "c", (2, 0), (0, 10)),
    MatchRecord(("a", "d"), "a", (2, 0), (0, 4)),
    MatchRecord(("b", "c"), "b", (2, 1), (1, 7)),
    MatchRecord(("b", "d"), "b", (2, 0), (0, 9)),
    MatchRecord(("d", "c"), "d", (2, 1), (2, 3)),
]


def values(key: str) -> dict[str, float]:
    return {str(row.player): row.values[key] for row in compute_standings(RECORDS, [key])}


class TestMetrics:
    def test_match_wins(self) -> None:
        assert values("match_wins") == {"a": 2, "b": 2, "c": 1, "d": 1}

    def test_game_wins(self) -> None:
        assert values("game_wins") == {"a": 2 + 0 + 2, "b": 1 + 2 + 2, "c": 2 + 1 + 1, "d": 0 + 0 + 2}

    def test_game_win_percentage(self) -> None:
        assert values("game_win_pct") == pytest.approx({"a": 400 / 7, "b": 500 / 8, "c": 400 / 8, "d": 200 / 7})

    def test_card_margin(self) -> None:
        # Per match, the cards your opponent held at their losses minus yours at your losses.
        assert values("card_margin") == {
            "a": (5 - 3) + (0 - 10) + (4 - 0),
            "b": (3 - 5) + (7 - 1) + (9 - 0),
            "c": (10 - 0) + (1 - 7) + (2 - 3),
            "d": (0 - 4) + (0 - 9) + (3 - 2),
        }

    def test_buchholz_and_sonneborn_berger(self) -> None:
        assert values("buchholz") == {"a": 2 + 1 + 1, "b": 2 + 1 + 1, "c": 2 + 2 + 1, "d": 2 + 2 + 1}
        assert values("sonneborn_berger") == {"a": 2 + 1, "b": 1 + 1, "c": 2, "d": 1}

    def test_a_bye_is_a_match_win_without_an_opponent(self) -> None:
        rows = compute_standings(
            [MatchRecord.for_bye("x", games_won=2)], ["match_wins", "game_wins", "game_win_pct", "buchholz"]
        )
        assert rows[0].values == {"match_wins": 1, "game_wins": 2, "game_win_pct": 0.0, "buchholz": 0}


class TestOrdering:
    def test_tie_breaks_apply_in_order_and_equal_players_share_a_rank(self) -> None:
        rows = compute_standings(RECORDS, ["match_wins", "buchholz"])
        assert [(row.rank, row.player) for row in rows] == [(1, "a"), (1, "b"), (3, "c"), (3, "d")]
        rows = compute_standings(RECORDS, ["match_wins", "sonneborn_berger"])
        assert [(row.rank, row.player) for row in rows] == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]

    def test_head_to_head_only_separates_players_tied_before_it(self) -> None:
        rows = compute_standings(RECORDS, ["match_wins", "head_to_head"])
        assert [(row.rank, row.player, row.values["head_to_head"]) for row in rows] == [
            (1, "a", 1),  # a beat b
            (2, "b", 0),
            (3, "d", 1),  # d beat c
            (4, "c", 0),
        ]
        # First on its own, everyone is one group: wins against all the others.
        alone = compute_standings(RECORDS, ["head_to_head"])
        assert {row.player: row.values["head_to_head"] for row in alone} == {"a": 2, "b": 2, "c": 1, "d": 1}

    def test_players_without_records_are_listed(self) -> None:
        rows = compute_standings([], ["match_wins"], players=["p", "q"])
        assert [(row.rank, row.player, row.values["match_wins"]) for row in rows] == [(1, "p", 0), (1, "q", 0)]

    def test_unknown_or_repeated_keys_are_a_clear_error(self) -> None:
        with pytest.raises(ValueError, match="unknown tie-break 'elo'; known: buchholz, card_margin") as error:
            compute_standings(RECORDS, ["match_wins", "elo"])
        assert all(key in str(error.value) for key in METRICS)
        with pytest.raises(ValueError, match="twice"):
            compute_standings(RECORDS, ["match_wins", "match_wins"])

    def test_records_are_validated(self) -> None:
        with pytest.raises(ValueError, match="did not play"):
            MatchRecord(("a", "b"), "c")
        with pytest.raises(ValueError, match="bye"):
            MatchRecord(("a", None), "a")


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=2, max_value=20),
    st.lists(st.sampled_from(sorted(METRICS)), min_size=1, max_size=7, unique=True),
    st.randoms(use_true_random=False),
)
def test_rows_are_sorted_by_the_keys_with_competition_ranks(count: int, keys: list[str], rng: random.Random) -> None:
    players = [f"p{index}" for index in range(count)]
    records = []
    for _ in range(rng.randrange(0, 3 * count)):
        first, second = rng.sample(players, 2)
        winner = rng.choice((first, second))
        loser_games = rng.randrange(2)
        games = (2, loser_games) if winner == first else (loser_games, 2)
        held = rng.randrange(1, 15)
        records.append(MatchRecord((first, second), winner, games, (0, held) if winner == first else (held, 0)))
    rows = compute_standings(records, keys, players=players)
    assert sorted(row.player for row in rows) == sorted(players)
    # Head-to-head is computed inside the groups tied on earlier keys, so the
    # rows are still in descending order of the keys taken together.
    keyed = [tuple(row.values[key] for key in keys) for row in rows]
    for index in range(1, len(rows)):
        previous, current = rows[index - 1], rows[index]
        assert keyed[index - 1] >= keyed[index]
        if keyed[index - 1] == keyed[index]:
            assert current.rank == previous.rank
        else:
            assert current.rank == index + 1
