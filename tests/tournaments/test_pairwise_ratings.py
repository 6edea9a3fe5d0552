"""Tables of three and four in the ratings, pure: a game's places as pairwise results, one period per match."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.placings import competition_places
from tournaments.ratings.glicko2 import Outcome, RatedGame, Rating, rate, rate_period
from tournaments.ratings.history import RatedMatch, ratings_replay
from tournaments.ratings.pairwise import pair_score, pairwise_games

ratings = st.builds(
    Rating,
    st.floats(min_value=800, max_value=2600),
    st.floats(min_value=30, max_value=350),
    st.floats(min_value=0.03, max_value=0.1),
)


def finishing_orders(seats: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Any valid places for `seats` seats (shared places included), as a race or a timed game ends."""
    return st.lists(st.integers(0, seats - 1), min_size=seats, max_size=seats).map(competition_places)


class TestPairwiseExpansion:
    def test_a_four_player_game_is_six_pairings_with_shared_places_drawn(self) -> None:
        assert pairwise_games(["a", "b", "c", "d"], (1, 2, 2, 4)) == [
            RatedGame("a", "b", 1.0),
            RatedGame("a", "c", 1.0),
            RatedGame("a", "d", 1.0),
            RatedGame("b", "c", 0.5),
            RatedGame("b", "d", 1.0),
            RatedGame("c", "d", 1.0),
        ]

    def test_the_score_is_the_first_seats_whatever_the_seat_order(self) -> None:
        assert pairwise_games(["a", "b", "c", "d"], (2, 4, 1, 2)) == [
            RatedGame("a", "b", 1.0),
            RatedGame("a", "c", 0.0),
            RatedGame("a", "d", 0.5),
            RatedGame("b", "c", 0.0),
            RatedGame("b", "d", 0.0),
            RatedGame("c", "d", 1.0),
        ]

    def test_three_players_make_three_pairings_and_two_make_one(self) -> None:
        assert len(pairwise_games([1, 2, 3], (3, 1, 2))) == 3
        assert pairwise_games([7, 9], (2, 1)) == [RatedGame(7, 9, 0.0)]
        assert pairwise_games([7, 9], (1, 1)) == [RatedGame(7, 9, 0.5)], "a shared first place is a draw"

    def test_partners_in_team_speed_make_no_pairing(self) -> None:
        # Seats 0 and 2 against 1 and 3; the second team won (both partners first).
        assert pairwise_games(["a", "b", "c", "d"], (3, 1, 3, 1), ((0, 2), (1, 3))) == [
            RatedGame("a", "b", 0.0),
            RatedGame("a", "d", 0.0),
            RatedGame("b", "c", 1.0),
            RatedGame("c", "d", 0.0),
        ]

    def test_scores(self) -> None:
        assert (pair_score(1, 3), pair_score(2, 2), pair_score(4, 1)) == (1.0, 0.5, 0.0)

    def test_places_must_be_one_per_player(self) -> None:
        with pytest.raises(ValueError, match="3 players need 3 places, got 4"):
            pairwise_games(["a", "b", "c"], (1, 2, 3, 4))


tables = st.integers(3, 4).flatmap(
    lambda seats: st.tuples(
        st.lists(ratings, min_size=seats, max_size=seats), st.lists(finishing_orders(seats), min_size=1, max_size=3)
    )
)


@given(tables)
def test_a_table_rates_as_its_pairings_rated_as_two_player_games_in_one_period(
    drawn: tuple[list[Rating], list[tuple[int, ...]]],
) -> None:
    start, games = drawn
    players = [f"p{seat}" for seat in range(len(start))]
    before = dict(zip(players, start, strict=True))
    steps, final = ratings_replay([RatedMatch("m", tuple(players), tuple(games))], before)
    # The same pairings written out as two-player games of one period...
    pairings = [
        RatedGame(players[one], players[two], pair_score(places[one], places[two]))
        for places in games
        for one in range(len(players))
        for two in range(one + 1, len(players))
    ]
    assert final == rate_period(before, pairings)
    # ...and each player rated by the paper's update alone against every other player
    # at the table, game after game, from the ratings before the match (exactly).
    for seat, player in enumerate(players):
        outcomes = [
            Outcome(before[other].rating, before[other].deviation, pair_score(places[seat], places[index]))
            for places in games
            for index, other in enumerate(players)
            if index != seat
        ]
        assert final[player] == rate(before[player], outcomes)
    assert [step.games for step in steps] == [len(games)] * len(players), "games played, not pairings"
    assert [step.player for step in steps] == players


def _old_replay(start: dict[str, Rating], winners: list[str]) -> dict[str, Rating]:
    """The two-player replay before tables (a game: 1 to the first player if they won, else 0)."""
    games = [RatedGame("a", "b", 1.0 if winner == "a" else 0.0) for winner in winners]
    return rate_period(start, games)


@given(ratings, ratings, st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=5))
def test_two_player_matches_give_the_same_floats_as_before(one: Rating, two: Rating, winners: list[str]) -> None:
    places = tuple((1, 2) if winner == "a" else (2, 1) for winner in winners)
    _, final = ratings_replay([RatedMatch(1, ("a", "b"), places)], {"a": one, "b": two})
    assert final == _old_replay({"a": one, "b": two}, winners)  # exactly, float for float


def test_a_shared_first_place_in_a_timed_two_player_game_is_a_draw() -> None:
    before = {"a": Rating(1600, 80), "b": Rating(1500, 80)}
    _, final = ratings_replay([RatedMatch(1, ("a", "b"), ((1, 1),))], before)
    assert final == rate_period(before, [RatedGame("a", "b", 0.5)])
    assert final["a"].rating < 1600 and final["b"].rating > 1500, "a draw moves the stronger player down"


def test_a_match_without_a_decided_game_rates_nobody() -> None:
    assert ratings_replay([RatedMatch(1, ("a", "b", "c"), ())]) == ([], {})
