"""Seeding at the start: by hand, by rating (unrated last, in entry order), or by a recorded random draw."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.errors import Conflict, Invalid
from matches.models import Player
from tests.factories import make_players, make_tournament
from tournaments.models import Entrant, PlayerRating, Tournament
from tournaments.services import tournament_start
from tournaments.services.seeding import tournament_seed_by_set

pytestmark = pytest.mark.django_db


def _rate(player: Player, rating: float, deviation: float = 80.0) -> None:
    PlayerRating.objects.create(player=player, rating=rating, deviation=deviation, volatility=0.06, games=10)


def _seeds(tournament: Tournament) -> list[str]:
    return [e.player.handle for e in Entrant.objects.filter(tournament=tournament).select_related("player")]


def test_rating_seeding_puts_the_highest_first_and_the_unrated_last_in_entry_order(organiser: Any) -> None:
    players = make_players(6, prefix="s")
    _rate(players[0], 1400)
    _rate(players[2], 1710)
    _rate(players[3], 1600, deviation=120)
    _rate(players[5], 1600, deviation=60)  # the same rating, surer: ahead
    cup = make_tournament(organiser, players, format="round_robin", start=False, seed_by="rating")
    started = tournament_start(tournament_id=cup.pk, user=organiser)
    assert _seeds(cup) == ["s03", "s06", "s04", "s01", "s02", "s05"]
    record = started.seeding_record
    assert record["method"] == "rating"
    assert [(row["seed"], row["handle"], row["rating"]) for row in record["order"]] == [
        (1, "s03", 1710.0),
        (2, "s06", 1600.0),
        (3, "s04", 1600.0),
        (4, "s01", 1400.0),
        (5, "s02", None),
        (6, "s05", None),
    ]


def test_rating_seeding_reads_the_ratings_at_the_start(organiser: Any) -> None:
    players = make_players(3, prefix="t")
    _rate(players[0], 1500)
    cup = make_tournament(organiser, players, format="round_robin", start=False, seed_by="rating")
    _rate(players[2], 1900)  # rated after the tournament was made, before it starts
    tournament_start(tournament_id=cup.pk, user=organiser)
    assert _seeds(cup) == ["t03", "t01", "t02"]


def test_manual_seeding_keeps_the_order_and_records_it(organiser: Any) -> None:
    players = make_players(3, prefix="m")
    _rate(players[2], 2000)
    cup = make_tournament(organiser, players, format="round_robin")
    assert _seeds(cup) == ["m01", "m02", "m03"]
    assert [row["handle"] for row in Tournament.objects.get(pk=cup.pk).seeding_record["order"]] == [
        "m01",
        "m02",
        "m03",
    ]


def test_random_seeding_records_a_draw_that_reproduces_the_order(organiser: Any) -> None:
    players = make_players(8, prefix="r")
    cup = make_tournament(organiser, players, format="round_robin", start=False)
    tournament_seed_by_set(tournament_id=cup.pk, user=organiser, seed_by="random")
    started = tournament_start(tournament_id=cup.pk, user=organiser)
    draw = started.seeding_record["draw"]
    expected = [p.handle for p in players]
    random.Random(draw).shuffle(expected)
    assert _seeds(cup) == expected


def test_the_seeding_method_is_checked_and_fixed_at_the_start(organiser: Any) -> None:
    players = make_players(2, prefix="f")
    cup = make_tournament(organiser, players, format="round_robin", start=False)
    with pytest.raises(Invalid):
        tournament_seed_by_set(tournament_id=cup.pk, user=organiser, seed_by="alphabetical")
    tournament_start(tournament_id=cup.pk, user=organiser)
    with pytest.raises(Conflict):
        tournament_seed_by_set(tournament_id=cup.pk, user=organiser, seed_by="rating")
