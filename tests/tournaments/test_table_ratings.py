"""Ratings after tables of three and four, finished through the real services, against a replay from scratch."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Game, Match
from matches.placings import competition_places, team_places
from matches.services import game_report_result, game_set_result, match_create
from tests.factories import make_players
from tournaments.audit import audit_records
from tournaments.models import PlayerRating, RatingChange
from tournaments.ratings.glicko2 import Outcome, Rating, rate
from tournaments.ratings.history import RatedMatch, ratings_replay
from tournaments.selectors import rated_match, ratings_from_scratch
from tournaments.services import ratings_recompute

pytestmark = pytest.mark.django_db

SEATS = {"speed": 2, "three-way": 3, "four-way": 4, "team": 4}
TEAMS = ((0, 2), (1, 3))  # the team preset's


def decide(game: Game, organiser: Any, match: Match, places: tuple[int, ...], *, by_reports: bool) -> None:
    """Decide an open game: its players report the same result (one per team in Team Speed), or an organiser sets it."""
    players = list(match.players)
    if len(players) == 2 or match.is_team:
        # Named by a winner: the better place (a two-player game not timed has no shared place), or a winning partner.
        winner = players[places.index(1)].handle
        for player in players[:2] if by_reports else []:  # seats 0 and 1: both players, or one of each team
            game_report_result(game_id=game.pk, user=player.user, winner=winner)
        if not by_reports:
            game_set_result(game_id=game.pk, user=organiser, winner=winner)
        return
    by_handle = {player.handle: place for player, place in zip(players, places, strict=True)}
    for player in players if by_reports else []:
        game_report_result(game_id=game.pk, user=player.user, places=by_handle)
    if not by_reports:
        game_set_result(game_id=game.pk, user=organiser, winner=None, places=by_handle)


def play_out(match: Match, organiser: Any, results: list[tuple[tuple[int, ...], bool]]) -> None:
    """Decide the match's open games in turn with these results, then by seat order until the series ends.

    (Seats level on every tie-break at a table play on: seat order settles them.)
    """
    seats = len(match.player_ids)
    settle = team_places(winning_team=TEAMS[0], seats=4) if match.is_team else tuple(range(1, seats + 1))
    number = 0
    while Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS:
        places, by_reports = results[number] if number < len(results) else (settle, False)
        decide(match.games.get(status=Game.Status.OPEN), organiser, match, places, by_reports=by_reports)
        number += 1
        assert number < 20, "a series ends"


def stored_ratings() -> tuple[dict[tuple[int, int], tuple[float, ...]], dict[int, tuple[float, ...]]]:
    changes = {
        (change.player_id, change.match_id): (
            change.rating_before,
            change.deviation_before,
            change.volatility_before,
            change.rating_after,
            change.deviation_after,
            change.volatility_after,
            change.games,
        )
        for change in RatingChange.objects.all()
    }
    current = {
        row.player_id: (row.rating, row.deviation, row.volatility, row.games) for row in PlayerRating.objects.all()
    }
    return changes, current


def from_scratch() -> tuple[dict[tuple[int, int], tuple[float, ...]], dict[int, tuple[float, ...]]]:
    steps, final = ratings_from_scratch()
    changes = {
        (step.player, step.match): (
            step.before.rating,
            step.before.deviation,
            step.before.volatility,
            step.after.rating,
            step.after.deviation,
            step.after.volatility,
            step.games,
        )
        for step in steps
    }
    games: dict[int, int] = {}
    for step in steps:
        games[step.player] = games.get(step.player, 0) + step.games
    current = {player: (r.rating, r.deviation, r.volatility, games[player]) for player, r in final.items()}
    return changes, current


def test_a_four_player_match_rates_every_seat_from_its_games_places(organiser):
    players = make_players(4)
    match = match_create(players=[p.handle for p in players], ruleset="four-way", best_of=1)
    play_out(match, organiser, [((2, 1, 4, 2), True)])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert rated_match(match=match) == RatedMatch(match.pk, tuple(p.pk for p in players), ((2, 1, 4, 2),))
    _, expected = ratings_replay([RatedMatch(match.pk, tuple(p.pk for p in players), ((2, 1, 4, 2),))])
    for player in players:
        row = PlayerRating.objects.get(player=player)
        assert (row.rating, row.deviation, row.volatility, row.games) == (*_fields(expected[player.pk]), 1)
    ratings = {player.handle: PlayerRating.objects.get(player=player).rating for player in players}
    # First beat three; the shared seconds each beat one, drew one and lost one (level); last beat none.
    assert ratings["p02"] > ratings["p01"] == ratings["p04"] == 1500 > ratings["p03"]
    assert RatingChange.objects.filter(match=match).count() == 4
    audit = audit_records()
    assert audit.differences == [], audit.differences


def test_team_speed_rates_each_player_against_the_other_team_only(organiser):
    players = make_players(4)
    match = match_create(players=[p.handle for p in players], ruleset="team", best_of=1)
    play_out(match, organiser, [(team_places(winning_team=(1, 3), seats=4), True)])
    assert rated_match(match=match) == RatedMatch(
        match.pk, tuple(p.pk for p in players), ((3, 1, 3, 1),), ((0, 2), (1, 3))
    )
    # Two wins each for p02 and p04 (over p01 and p03), no draw between partners.
    expected = rate(Rating(), [Outcome(1500, 350, 1.0), Outcome(1500, 350, 1.0)])
    for player in players:
        row = PlayerRating.objects.get(player=player)
        if player.handle in ("p02", "p04"):
            assert (row.rating, row.deviation, row.volatility) == _fields(expected)
        else:
            assert row.rating < 1500
    audit = audit_records()
    assert audit.differences == [], audit.differences


def _fields(rating: Rating) -> tuple[float, float, float]:
    return (rating.rating, rating.deviation, rating.volatility)


def test_a_timed_game_with_a_shared_first_place_rates_as_a_draw(organiser):
    one, two = make_players(2)
    match = match_create(players=[one.handle, two.handle], best_of=1, time_limit_ms=60_000)
    game_set_result(game_id=match.games.get().pk, user=organiser, winner=two.handle)
    # Game 2 as a verified log of a game level at the limit leaves it (no simulated log ends so).
    Game.objects.create(match=match, number=2, status=Game.Status.DECIDED, places=[1, 1], winner=None)
    assert rated_match(match=match).games == ((2, 1), (1, 1)), "the first from its winner, the second a draw"


@st.composite
def schedules(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A few matches of two to four players (or two teams) from a pool of five, with the results their games take."""
    matches = []
    for _ in range(draw(st.integers(1, 5))):
        ruleset = draw(st.sampled_from(list(SEATS)))
        count = SEATS[ruleset]
        chosen = draw(st.permutations(range(5)))[:count]
        results = draw(
            st.lists(
                st.tuples(st.lists(st.integers(0, count - 1), min_size=count, max_size=count), st.booleans()),
                min_size=1,
                max_size=4,
            )
        )
        places = [(_places(ruleset, keys), by_reports) for keys, by_reports in results]
        best_of = draw(st.sampled_from([1, 3] if count == 2 or ruleset == "team" else [1, 2, 3]))
        matches.append({"ruleset": ruleset, "seats": chosen, "results": places, "best_of": best_of})
    return matches


def _places(ruleset: str, keys: list[int]) -> tuple[int, ...]:
    if ruleset == "team":
        return team_places(winning_team=TEAMS[keys[0] % 2], seats=4)
    places = competition_places(keys)
    if ruleset == "speed" and places == (1, 1):
        return (1, 2)  # an untimed two-player game has a winner
    return places


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(schedule=schedules(), interleave=st.booleans())
def test_the_audits_replay_from_scratch_equals_the_ratings_kept_as_matches_finished(organiser, schedule, interleave):
    with transaction.atomic():
        pool = make_players(5, prefix="h")
        made = []
        for spec in schedule:
            players = [pool[index].handle for index in spec["seats"]]
            match = match_create(players=players, ruleset=spec["ruleset"], best_of=spec["best_of"])
            made.append((match, spec["results"]))
        if interleave:
            made.reverse()  # finished in another order than made: rating order is finishing order
        for match, results in made:
            play_out(match, organiser, results)
        stored = stored_ratings()
        assert stored == from_scratch()
        assert len(stored[0]) == sum(len(match.player_ids) for match, _ in made)
        audit = audit_records()
        assert audit.differences == [], [str(difference) for difference in audit.differences]
        ratings_recompute()
        assert stored_ratings() == stored, "recomputing from scratch changes nothing"
        transaction.set_rollback(True)
