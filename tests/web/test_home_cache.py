"""The home page's site-wide lists come from the cache, and the services that change them invalidate it.

Transactional: the services invalidate when their transaction commits, as in production.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.db import transaction
from django.test import Client

from matches.models import Match
from matches.services import game_set_result, match_annul, match_create, match_create_bulk
from tests.factories import load, make_players, make_tournament, match_for, submit
from tests.queries import database_queries
from tournaments.models import Tournament
from tournaments.services import tournament_start
from tournaments.services.common import tournament_lock

pytestmark = pytest.mark.django_db(transaction=True)


def _home(client: Client) -> tuple[int, Any]:
    with database_queries() as queries:
        response = client.get("/")
    assert response.status_code == 200
    return len(queries), response


def _ids(response: Any, name: str) -> list[int]:
    return [row.pk for row in response.context[name]]


def test_the_lists_are_cached_and_a_new_match_invalidates_them(client: Client) -> None:
    one, two, three = make_players(3)
    first = match_create(players=[one.handle, two.handle], best_of=3)
    cold, response = _home(client)
    assert _ids(response, "running_matches") == [first.pk]
    warm, response = _home(client)
    assert warm == 0 < cold  # no featured tournament: nothing left to read
    # A change behind the services' back is not seen: the list is the cached one.
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED)
    assert _ids(_home(client)[1], "running_matches") == [first.pk]
    Match.objects.filter(pk=first.pk).update(status=Match.Status.IN_PROGRESS)
    second = match_create(players=[two.handle, three.handle], best_of=3)
    assert _ids(_home(client)[1], "running_matches") == [second.pk, first.pk]
    [third] = match_create_bulk(pairs=[(one, three)], best_of=3)
    assert _ids(_home(client)[1], "running_matches") == [third.pk, second.pk, first.pk]


def test_a_finished_match_moves_to_the_results(client: Client, organiser: Any) -> None:
    one, two = make_players(2)
    match = match_create(players=[one.handle, two.handle], best_of=1)
    response = _home(client)[1]
    assert (_ids(response, "running_matches"), _ids(response, "finished_matches")) == ([match.pk], [])
    game_set_result(game_id=match.games.get().pk, user=organiser, winner=one.handle)
    response = _home(client)[1]
    assert (_ids(response, "running_matches"), _ids(response, "finished_matches")) == ([], [match.pk])


def test_an_annulled_match_leaves_the_lists(client: Client, organiser: Any) -> None:
    one, two = make_players(2)
    match = match_create(players=[one.handle, two.handle], best_of=1)
    assert _ids(_home(client)[1], "running_matches") == [match.pk]
    match_annul(match_id=match.pk, correction_id=0, made_by=organiser, reason="never should have met")
    assert _ids(_home(client)[1], "running_matches") == []


def test_a_verified_log_reaches_the_replays_and_the_score(client: Client, organiser: Any) -> None:
    data = load("valid-speed-1001.json")
    match = match_for(orjson.loads(data))  # best of 3
    response = _home(client)[1]
    assert (_ids(response, "running_matches"), _ids(response, "latest_logs")) == ([match.pk], [])
    assert 'aria-label="Score 0 to 0"' in response.content.decode()
    # An organiser's log decides game 1 and the match goes on (log_verify, through matches.services).
    log = submit(data, user=organiser, match=match)
    response = _home(client)[1]
    assert _ids(response, "latest_logs") == [log.pk]
    assert 'aria-label="Score 1 to 0"' in response.content.decode()


def test_a_tournament_that_starts_is_listed(client: Client, organiser: Any) -> None:
    cup = make_tournament(organiser, make_players(4, "t"), format="single_elimination", start=False)
    assert _ids(_home(client)[1], "tournaments_running") == []
    make_tournament(organiser, [], format="swiss", start=False)  # in setup: no change to the lists
    tournament_start(tournament_id=cup.pk, user=organiser)
    response = _home(client)[1]
    assert _ids(response, "tournaments_running") == [cup.pk]
    assert response.context["featured_bracket"]["tournament"] == cup


def test_any_change_under_the_tournament_lock_invalidates_them(client: Client, organiser: Any) -> None:
    cup = make_tournament(organiser, make_players(4, "c"), format="single_elimination")
    assert "Old Cup" not in _home(client)[1].content.decode()
    Tournament.objects.filter(pk=cup.pk).update(name="Old Cup")
    assert "Old Cup" not in _home(client)[1].content.decode()  # cached
    with transaction.atomic():
        tournament_lock(cup.pk)  # what every tournament service takes
    assert "Old Cup" in _home(client)[1].content.decode()
