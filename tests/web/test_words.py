"""Words for people: the claimant is not offered to dispute, history without state names, errors without code,
and a new player's page pointing to the tournaments taking entrants and to their registrations waiting."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from matches.services import game_confirm, game_report_result
from tests.factories import PASSWORD, make_match, make_player, make_tournament, won_log
from tournaments.services.registration import registration_create, tournament_registration_set
from web.presenters.history import change_words

pytestmark = pytest.mark.django_db


def signed_in(handle: str) -> Client:
    client = Client()
    assert client.login(username=handle, password=PASSWORD)
    return client


def test_the_claimant_is_not_offered_to_dispute_their_own_claim(alice, ben) -> None:
    match = make_match(alice, ben)
    game = match.games.get()
    game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    mine = signed_in("alice").get(f"/matches/{match.pk}/").content.decode()
    theirs = signed_in("ben").get(f"/matches/{match.pk}/").content.decode()
    dispute = f'action="/games/{game.pk}/dispute/"'
    assert dispute not in mine
    assert dispute in theirs


def test_history_says_what_happened_in_words(alice, ben) -> None:
    match = make_match(alice, ben)
    game = match.games.get()
    game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    game_confirm(game_id=game.pk, user=ben.user)
    page = signed_in("ben").get(f"/matches/{match.pk}/").content.decode()
    history = page[page.index('data-role="history"') :]
    assert "(being played → waiting for confirmation; the claim: alice won)" in history
    assert "(waiting for confirmation → decided; alice won)" in history
    assert "awaiting_confirmation" not in history


def test_change_words_for_a_match_and_for_no_change() -> None:
    assert change_words(
        {"status": "finished", "winner": "a"}, {"status": "annulled", "winner": "a"}, of_game=False
    ) == ("finished → annulled; a won")
    assert change_words({"status": "open"}, {"status": "open"}, of_game=True) == ""
    # A game a correction added had no state before; one it voided keeps no winner.
    assert change_words({}, {"status": "decided", "winner": "a"}, of_game=True) == "not played → decided; a won"
    assert change_words({"status": "decided", "winner": "a"}, {"status": "void"}, of_game=True) == "decided → void"


def test_a_log_that_is_not_one_is_refused_in_words_not_code(alice, ben) -> None:
    match = make_match(alice, ben)
    game = match.games.get()
    client = signed_in("alice")
    page = client.post("/submit/", {"game": game.pk, "text": "{not json"}).content.decode()
    assert "it is not JSON at all" in page
    assert "The body is" not in page
    wrong = json.dumps(won_log("speed", ["carl", "dora"]))
    page = client.post("/submit/", {"game": game.pk, "text": wrong}).content.decode()
    assert "This log is of a game between carl and dora, but the match is alice v ben" in page
    assert "[&#x27;" not in page and "['" not in page


def test_a_new_players_page_points_to_tournaments_taking_entrants_and_their_registration(organiser: Any) -> None:
    zoe = make_player("zoe")
    spring = make_tournament(organiser, [], format="round_robin", name="Spring open", start=False)
    autumn = make_tournament(organiser, [], format="round_robin", name="Autumn open", start=False)
    make_tournament(organiser, [], format="round_robin", name="Closed cup", start=False)
    for cup in (spring, autumn):
        tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    registration_create(tournament_id=autumn.pk, user=zoe.user)
    client = signed_in("zoe")
    for path in ("/me/", "/players/zoe/"):
        page = client.get(path).content.decode()
        ways = page[page.index('data-role="ways-in"') :]
        assert "Start here" in ways
        opened = ways[ways.index('data-role="open-tournaments"') :]
        assert "Spring open" in opened and "Closed cup" not in opened and "Autumn open" not in opened
        pending = ways[ways.index('data-role="pending-registrations"') : ways.index('data-role="open-tournaments"')]
        assert "Autumn open" in pending
    # Someone else's page does not point them anywhere.
    make_player("yan")
    other = signed_in("zoe").get("/players/yan/")
    assert other.status_code == 200
    assert 'data-role="ways-in"' not in other.content.decode()
