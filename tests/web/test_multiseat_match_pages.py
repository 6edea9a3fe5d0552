"""Match pages of a table of three or four and of a timed match, through Django's test client.

A player reports every player's place with a select each; the places reach
`game_report_result` by handle, and every other player confirms on the page.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from matches.models import Game, Match
from matches.services import game_report_result, game_set_result, match_create
from tests.factories import PASSWORD, make_player
from tests.queries import database_queries

pytestmark = pytest.mark.django_db

FOUR = ["ann", "bo", "cy", "di"]


def logged_in(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


@pytest.fixture
def table(organiser: Any) -> Match:
    for handle in FOUR:
        make_player(handle)
    return match_create(players=FOUR, ruleset="four-way", best_of=3, created_by=organiser)


def user_of(handle: str) -> Any:
    return Match.objects.get(player_one__handle="ann").players[FOUR.index(handle)].user


def places_form(places: dict[str, int]) -> dict[str, str]:
    """The report form's fields: one select per seat, `place_<seat>`."""
    return {f"place_{FOUR.index(handle)}": str(place) for handle, place in places.items()}


def test_a_player_reports_every_place_with_a_select_each(table: Match) -> None:
    game = table.games.get()
    page = logged_in(user_of("bo")).get(f"/matches/{table.pk}/").content.decode()
    assert f'action="/games/{game.pk}/report/"' in page
    for seat, handle in enumerate(FOUR):  # a select per player, labelled with the handle, in seat order
        assert f'name="place_{seat}"' in page
        assert f"{handle}&#x27;s place" in page or f"{handle} <select" in page
    response = logged_in(user_of("bo")).post(
        f"/games/{game.pk}/report/", places_form({"ann": 4, "bo": 1, "cy": 2, "di": 2})
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.AWAITING_CONFIRMATION
    assert game.claimed_places == [4, 1, 2, 2]  # by handle, in the match's seat order
    assert game.claimed_winner is not None and game.claimed_winner.handle == "bo"  # the one alone in first
    bo = table.players[1]
    assert game.reports[str(bo.pk)]["places"] == [4, 1, 2, 2]


def test_a_report_missing_a_place_says_whose_and_changes_nothing(table: Match) -> None:
    game = table.games.get()
    client = logged_in(user_of("ann"))
    response = client.post(f"/games/{game.pk}/report/", places_form({"ann": 1, "bo": 2, "cy": 3}), follow=True)
    assert "missing: di" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.reports == {}
    # Places that are no finishing order (three share first, so the next is 4th, not 2nd): the service says so.
    response = client.post(f"/games/{game.pk}/report/", places_form({"ann": 1, "bo": 1, "cy": 1, "di": 2}), follow=True)
    assert "not a finishing order" in html.unescape(response.content.decode())
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN


def test_every_other_player_confirms_on_the_page(table: Match) -> None:
    game = game_report_result(
        game_id=table.games.get().pk, user=user_of("ann"), places={"ann": 1, "bo": 2, "cy": 3, "di": 4}
    )
    page = Client().get(f"/matches/{table.pk}/").content.decode()
    assert "Every other player must confirm" in page
    assert 'data-role="claimed-places"' in page
    assert f"/games/{game.pk}/confirm/" not in logged_in(user_of("ann")).get(f"/matches/{table.pk}/").content.decode()
    logged_in(user_of("bo")).post(f"/games/{game.pk}/confirm/")
    assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION  # one of three is not enough
    bo_page = logged_in(user_of("bo")).get(f"/matches/{table.pk}/").content.decode()
    assert f"/games/{game.pk}/confirm/" not in bo_page  # bo has confirmed; the others have not
    assert '<span class="is-confirmed">bo ✓</span>' in bo_page
    # "My matches" asks cy, not bo, and the navigation counts it for cy only.
    assert logged_in(user_of("cy")).get("/me/").context["page"].to_confirm == [Game.objects.get(pk=game.pk)]
    assert logged_in(user_of("bo")).get("/me/").context["page"].to_confirm == []
    for handle in ("cy", "di"):
        logged_in(user_of(handle)).post(f"/games/{game.pk}/confirm/")
    game.refresh_from_db()
    assert game.status == Game.Status.DECIDED and game.places == [1, 2, 3, 4]


def test_the_organiser_sets_places_or_voids_a_game(table: Match, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    game = table.games.get()
    page = client.get(f"/matches/{table.pk}/").content.decode()
    assert 'data-role="enter-score"' not in page  # a table's games are set one by one
    assert 'name="place_3"' in page and 'name="void"' in page
    response = client.post(
        f"/organise/matches/{table.pk}/result/",
        {"game": game.pk, "reason": "score sheet", **places_form({"ann": 2, "bo": 2, "cy": 1, "di": 4})},
        follow=True,
    )
    assert "Game 1: cy 1st, ann 2nd, bo 2nd, di 4th." in html.unescape(response.content.decode())
    game.refresh_from_db()
    assert game.status == Game.Status.DECIDED and game.places == [2, 2, 1, 4] and game.winner.handle == "cy"
    second = table.games.get(number=2)
    client.post(f"/organise/matches/{table.pk}/result/", {"game": second.pk, "reason": "deadlock", "void": "on"})
    assert Game.objects.get(pk=second.pk).status == Game.Status.VOID


def test_the_page_lists_places_standings_and_names_in_words(table: Match, organiser: Any) -> None:
    game_set_result(
        game_id=table.games.get().pk, user=organiser, winner=None, places={"ann": 2, "bo": 2, "cy": 1, "di": 4}
    )
    response = Client().get(f"/matches/{table.pk}/")
    page = html.unescape(response.content.decode())
    assert "<title>ann, bo, cy and di" in page
    assert "Ann, Bo, Cy and Di</h1>" in page
    assert "A table of 4, in seat order:" in page
    assert 'data-role="points-per-place">3\N{EN DASH}1\N{EN DASH}0\N{EN DASH}0<' in page
    assert '<li data-place="2" data-shared><span class="places__place">2nd (shared)</span> ann and bo</li>' in page
    standings = [(row.handle, row.points, row.firsts) for row in response.context["table"]]
    assert standings == [("cy", 3, 1), ("ann", 1, 0), ("bo", 1, 0), ("di", 0, 0)]


def test_a_timed_match_shows_the_limit_and_each_players_timed_scores(organiser: Any) -> None:
    make_player("ann"), make_player("bo")
    match = match_create(players=["ann", "bo"], ruleset="speed", best_of=3, time_limit_ms=60_000)
    game = match.games.get()
    # The timed scores come only from verified logs; set here as the verification stores them.
    Game.objects.filter(pk=game.pk).update(status="decided", places=[2, 1], timed_scores=[14, 17], decided_by="log")
    page = html.unescape(Client().get(f"/matches/{match.pk}/").content.decode())
    assert 'data-role="time-limit">1 min a game<' in page
    assert "1st</span> bo (17 cards)" in page and "2nd</span> ann (14 cards)" in page
    assert "<strong>ann</strong> 14 · <strong>bo</strong> 17" in page


def test_lists_find_a_player_in_the_third_and_fourth_seats(table: Match, organiser: Any) -> None:
    game_set_result(
        game_id=table.games.get().pk, user=organiser, winner=None, places={"ann": 2, "bo": 3, "cy": 4, "di": 1}
    )
    player_page = Client().get("/players/di/")
    assert [m.pk for m in player_page.context["matches"]] == [table.pk]
    assert player_page.context["record"].games_won == 1
    home = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", Client().get("/").content.decode()))
    assert "ann, bo, cy and di" in home  # the home page's list of matches
    assert logged_in(user_of("di")).get("/me/").context["page"].to_log == [table.games.get(number=2)]


def _queries(client: Client, path: str) -> int:
    with database_queries() as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_a_table_page_costs_the_same_queries_whatever_its_games(table: Match, organiser: Any) -> None:
    client = logged_in(user_of("ann"))
    one_game = _queries(client, f"/matches/{table.pk}/")
    game_set_result(
        game_id=table.games.get().pk, user=organiser, winner=None, places={"ann": 1, "bo": 2, "cy": 3, "di": 4}
    )
    game_report_result(
        game_id=table.games.get(number=2).pk, user=user_of("bo"), places={"ann": 4, "bo": 1, "cy": 2, "di": 3}
    )
    assert _queries(client, f"/matches/{table.pk}/") == one_game


def test_team_speed_reads_as_two_teams_and_a_report_names_a_team(organiser: Any) -> None:
    for handle in FOUR:
        make_player(handle)
    match = match_create(players=FOUR, ruleset="team", best_of=3, created_by=organiser)  # ann and cy v bo and di
    game = match.games.get()
    response = logged_in(user_of("ann")).get(f"/matches/{match.pk}/")
    page = html.unescape(response.content.decode())
    assert "<title>ann and cy v bo and di" in page
    assert [side.players[0][0] for side in response.context["sides"]] == ["ann", "bo"]
    assert 'value="ann"' in page and "ann and cy won" in page and "bo and di won" in page
    logged_in(user_of("ann")).post(f"/games/{game.pk}/report/", {"winner": "ann"})
    game.refresh_from_db()
    assert game.status == Game.Status.AWAITING_CONFIRMATION
    # A partner's claim is their own side's word: cy may not confirm it, bo may.
    assert f"/games/{game.pk}/confirm/" not in logged_in(user_of("cy")).get(f"/matches/{match.pk}/").content.decode()
    bo_page = html.unescape(logged_in(user_of("bo")).get(f"/matches/{match.pk}/").content.decode())
    assert f"/games/{game.pk}/confirm/" in bo_page and "<strong>ann and cy</strong> won, says ann" in bo_page


def test_the_player_page_says_how_team_and_table_games_are_rated(client: Client, organiser: Any) -> None:
    for handle in FOUR:
        make_player(handle)
    team = match_create(players=FOUR, ruleset="team", best_of=1, created_by=organiser)
    game_set_result(game_id=team.games.get().pk, user=organiser, winner="cy")
    team.refresh_from_db()
    assert team.status == Match.Status.FINISHED
    page = client.get("/players/bo/").content.decode()
    assert 'data-role="rating-rule"' in page
    assert "partners are not rated against each other" in page
