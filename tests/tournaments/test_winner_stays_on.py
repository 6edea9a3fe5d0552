"""Winner stays on: the queue, the bound on matches, and standings by wins."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.generators import (
    GeneratorUserError,
    InvalidResultError,
    Pairing,
    winner_stays_on,
    winner_stays_on_table,
)


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


# --- Three or four at the table: one queue ----------------------------------------------


def test_at_a_table_of_three_the_winner_keeps_the_seat_and_the_others_queue_in_finishing_order() -> None:
    entrants = ["a", "b", "c", "d", "e"]
    state = winner_stays_on_table(entrants, [], max_matches=5, table_size=3)
    assert (state.next_table, state.queue) == (("a", "b", "c"), ("d", "e"))
    # b wins, then c, then a: c and a go to the back, d and e take seats 0 and 2.
    state = winner_stays_on_table(entrants, [("b", "c", "a")], max_matches=5, table_size=3)
    assert (state.seats, state.queue) == (("d", "b", "e"), ("c", "a"))
    state = winner_stays_on_table(entrants, [("b", "c", "a"), ("e", "b", "d")], max_matches=5, table_size=3)
    assert (state.seats, state.queue) == (("c", "a", "e"), ("b", "d"))
    assert state.wins == {"a": 0, "b": 1, "c": 0, "d": 0, "e": 1}
    assert state.played == {"a": 1, "b": 2, "c": 1, "d": 1, "e": 1}


def test_with_few_waiting_the_best_placed_loser_comes_straight_back() -> None:
    # Four players at a table of three: one waits. The runner-up joins the queue behind
    # the one waiting, and the two seats take the waiting player and the runner-up.
    state = winner_stays_on_table(["a", "b", "c", "d"], [("a", "c", "b")], max_matches=3, table_size=3)
    assert (state.seats, state.queue) == (("a", "d", "c"), ("b",))


def test_table_results_that_do_not_fit_are_refused() -> None:
    with pytest.raises(InvalidResultError, match="not the finishing order"):
        winner_stays_on_table(["a", "b", "c", "d"], [("a", "b", "d")], max_matches=3, table_size=3)
    with pytest.raises(InvalidResultError, match="not the finishing order"):
        winner_stays_on_table(["a", "b", "c", "d"], [("a", "b")], max_matches=3, table_size=3)
    with pytest.raises(GeneratorUserError, match="at least 4"):
        winner_stays_on_table(["a", "b", "c"], [], max_matches=3, table_size=4)
    with pytest.raises(GeneratorUserError, match="2, 3 or 4"):
        winner_stays_on_table(["a", "b", "c", "d", "e"], [], max_matches=3, table_size=5)


tables = st.integers(min_value=2, max_value=4).flatmap(
    lambda size: st.tuples(st.just(size), st.integers(min_value=size, max_value=14))
)


@given(tables, st.integers(min_value=1, max_value=60), st.randoms(use_true_random=False))
def test_the_one_queue_as_the_rules_describe_it(shape: tuple[int, int], max_matches: int, rng: random.Random) -> None:
    size, count = shape
    entrants = list(range(count))
    orders: list[tuple[int, ...]] = []
    state = winner_stays_on_table(entrants, orders, max_matches=max_matches, table_size=size)
    while state.next_table is not None:
        order = list(state.seats)
        rng.shuffle(order)
        orders.append(tuple(order))
        after = winner_stays_on_table(entrants, orders, max_matches=max_matches, table_size=size)
        # The losers go to the back of the one queue in their finishing order; the front fills the seats.
        waiting = [*state.queue, *order[1:]]
        seated_now = waiting[: size - 1]
        assert after.queue == tuple(waiting[size - 1 :])
        winner_seat = state.seats.index(order[0])
        assert after.seats[winner_seat] == order[0], "the winner keeps their seat"
        assert [p for seat, p in enumerate(after.seats) if seat != winner_seat] == seated_now, "filled in seat order"
        assert sorted([*after.seats, *after.queue]) == entrants, "everyone is seated or waiting, once"
        state = after
    assert sum(state.wins.values()) == len(orders) == max_matches
    assert sum(state.played.values()) == size * len(orders)


@given(tables, st.randoms(use_true_random=False))
def test_every_entrant_gets_a_turn_soon(shape: tuple[int, int], rng: random.Random) -> None:
    size, count = shape
    # Each match frees size - 1 seats and the queue is first come, first seated: after
    # ceil((count - size) / (size - 1)) matches everyone has played or sits at the table now.
    needed = max(1, -(-(count - size) // (size - 1)))
    entrants = list(range(count))
    orders: list[tuple[int, ...]] = []
    for _ in range(needed):
        state = winner_stays_on_table(entrants, orders, max_matches=needed, table_size=size)
        order = list(state.seats)
        rng.shuffle(order)
        orders.append(tuple(order))
    final = winner_stays_on_table(entrants, orders, max_matches=needed, table_size=size)
    assert {player for player, count in final.played.items() if count} | set(final.seats) == set(entrants)


@given(
    st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=40), st.randoms(use_true_random=False)
)
def test_a_table_of_two_is_the_two_player_queue(count: int, max_matches: int, rng: random.Random) -> None:
    entrants = list(range(count))
    winners: list[int] = []
    orders: list[tuple[int, ...]] = []
    while True:
        pair = winner_stays_on(entrants, winners, max_matches=max_matches)
        table = winner_stays_on_table(entrants, orders, max_matches=max_matches, table_size=2)
        # The two-player replay seats the next challenger when their match starts; the table, as the last ends.
        assert set(table.seats) == {pair.holder, pair.queue[0]} and table.queue == pair.queue[1:]
        if pair.next_match is None:
            assert table.next_table is None
            break
        assert table.next_table is not None and set(table.next_table) == {pair.next_match.first, pair.next_match.second}
        winner = rng.choice(table.next_table)
        loser = next(player for player in table.next_table if player != winner)
        winners.append(int(winner))
        orders.append((winner, loser))
    assert table.wins == pair.wins and table.played == pair.played
