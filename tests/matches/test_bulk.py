"""match_create_bulk: the rows match_create makes, its rules checked once, and a fixed number of statements."""

from __future__ import annotations

from typing import Any

import pytest
from django.forms.models import model_to_dict

from core.errors import Invalid, NotAllowed
from matches.models import Game, Match
from matches.services import match_create, match_create_bulk
from tests.factories import make_players
from tests.queries import database_queries

pytestmark = pytest.mark.django_db

#: What differs between two rows made the same way.
_OWN = ("id", "created_at")


def _fields(match: Match) -> dict[str, Any]:
    row = model_to_dict(match, exclude=_OWN)
    row["created_at_set"] = match.created_at is not None
    return row


@pytest.mark.parametrize(
    "options",
    [
        {"best_of": 3},
        {"first_to": 2, "ruleset": "spit", "confirmation": Match.Confirmation.NONE, "confirm_within": 60},
    ],
)
def test_the_rows_are_those_match_create_makes(organiser: Any, options: dict[str, Any]) -> None:
    one, two = make_players(2)
    single = match_create(players=[one.handle, two.handle], created_by=organiser, **options)
    [bulk] = match_create_bulk(pairs=[(one, two)], created_by=organiser, **options)
    single.refresh_from_db()
    bulk.refresh_from_db()
    assert _fields(bulk) == _fields(single)
    games = [model_to_dict(game, exclude=("id", "match")) for game in (single.games.get(), bulk.games.get())]
    assert games[0] == games[1]
    assert games[1]["number"] == 1 and games[1]["status"] == Game.Status.OPEN


def test_every_pair_gets_its_match_in_order(organiser: Any) -> None:
    players = make_players(6)
    pairs = [(players[0], players[5]), (players[1], players[4]), (players[3], players[2])]
    made = match_create_bulk(pairs=pairs, best_of=1)
    assert [(m.player_one_id, m.player_two_id) for m in made] == [(a.pk, b.pk) for a, b in pairs]
    assert [m.pk for m in made] == sorted(m.pk for m in made)
    assert Game.objects.filter(match__in=made, number=1, status=Game.Status.OPEN).count() == 3
    assert made[0].ruleset is not made[1].ruleset  # each row its own document, as match_create's


def test_statements_do_not_grow_with_the_number_of_matches(organiser: Any) -> None:
    players = make_players(40)
    counts = []
    for size in (2, 20):
        pairs = [(players[2 * n], players[2 * n + 1]) for n in range(size)]
        creator = type(organiser).objects.get(pk=organiser.pk)  # nothing of the last call cached on it
        with database_queries() as queries:
            match_create_bulk(pairs=pairs, best_of=3, created_by=creator)
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert counts[0] <= 6  # the organiser check, two INSERTs, and the savepoint around them


@pytest.mark.parametrize(
    ("pairs", "options", "error", "message"),
    [
        ("same", {"best_of": 1}, Invalid, "two different players"),
        ("ok", {"best_of": 2}, Invalid, "best_of must be odd"),
        ("ok", {"best_of": 1, "first_to": 1}, Invalid, "exactly one of best_of"),
        ("ok", {"best_of": 1, "ruleset": "nope"}, Invalid, "Unknown ruleset preset"),
        ("ok", {"best_of": 1, "ruleset": "four-way"}, Invalid, "seats 4 players, but 2 play here"),
    ],
)
def test_the_rules_of_match_create_refuse_the_whole_batch(
    organiser: Any, pairs: str, options: dict[str, Any], error: type[Exception], message: str
) -> None:
    a, b, c = make_players(3)
    batch = [(a, b), (c, c)] if pairs == "same" else [(a, b), (b, c)]
    with pytest.raises(error, match=f"(?i){message}"):
        match_create_bulk(pairs=batch, created_by=organiser, **options)
    assert not Match.objects.exists()


def test_a_player_creates_no_matches_an_organiser_does(organiser: Any) -> None:
    a, b, c = make_players(3)
    user = a.user
    assert user is not None
    with pytest.raises(NotAllowed, match="challenge the other player"):
        match_create_bulk(pairs=[(a, b), (c, a)], best_of=1, created_by=user)
    assert not Match.objects.exists()
    made = match_create_bulk(pairs=[(a, b), (c, a)], best_of=1, created_by=organiser)
    assert all(match.created_by_id == organiser.pk for match in made)


def test_no_pairs_make_nothing(organiser: Any) -> None:
    assert match_create_bulk(pairs=[], best_of=1, created_by=organiser) == []
    assert not Match.objects.exists()
