"""The new-match page through Django's test client: every kind of match, errors by their field, who may create.

The page's form hands its fields to `matches.services.match_create`; these
tests read the match it made back from the database. Organisers make matches
here; a player's page is the challenge form (tests/web/test_challenge_pages.py).
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from matches.models import Match
from tests.factories import PASSWORD, make_player, make_user

pytestmark = pytest.mark.django_db

FOUR = ["ann", "bo", "cy", "di"]


def logged_in(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


@pytest.fixture
def four(db: None) -> list[Any]:
    return [make_player(handle) for handle in FOUR]


def form(
    *handles: str, ruleset: str = "speed", series: str = "best_of", length: int = 3, **more: str
) -> dict[str, str]:
    """The page's fields: a handle input per seat (`players_0` to `players_3`), empty seats left blank."""
    seats = {f"players_{seat}": handle for seat, handle in enumerate(handles)}
    return {**seats, "ruleset": ruleset, "series": series, "series_length": str(length), **more}


def created(response: Any) -> Match:
    assert response.status_code == 302, _errors(response)
    match = Match.objects.latest("id")
    assert response["Location"] == f"/matches/{match.pk}/"
    return match


def seat_input(page: str, seat: int) -> str:
    found = re.search(rf'<input[^>]*name="players_{seat}"[^>]*>', page)
    assert found is not None
    return found.group()


def _errors(response: Any) -> dict[str, list[str]]:
    return {name: list(errors) for name, errors in response.context["form"].errors.items()}


def test_an_organiser_makes_a_two_player_match_and_lands_on_its_page(organiser: Any, four: list[Any]) -> None:
    client = logged_in(organiser)
    page = client.get("/matches/new/").content.decode()
    assert 'name="players_0"' in page and 'name="players_3"' in page
    assert '<datalist id="player-handles">' in page and '<option value="di">' in page
    assert "Three way (3 players)" in page and "Team (4 players, two teams: seats 1 and 3 against 2 and 4)" in page
    match = created(client.post("/matches/new/", form("ann", "bo", length=5)))
    assert [p.handle for p in match.players] == ["ann", "bo"]
    assert (match.series, match.series_length, match.ruleset_name) == ("best_of", 5, "speed")
    assert match.points_per_place is None and match.time_limit_ms is None and match.created_by == organiser
    assert "game 1 is open" in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_table_of_three_with_its_own_points(organiser: Any, four: list[Any]) -> None:
    client = logged_in(organiser)
    response = client.post(
        "/matches/new/",
        form("cy", "bo", "ann", ruleset="three-way", series="first_to", length=6, points_per_place="3-1-0"),
    )
    match = created(response)
    assert [p.handle for p in match.players] == ["cy", "bo", "ann"]
    assert match.is_table and match.points_per_place == [3, 1, 0]
    assert (match.series, match.series_length) == ("first_to", 6)


def test_a_four_way_table_with_the_default_points_and_an_even_best_of(organiser: Any, four: list[Any]) -> None:
    match = created(logged_in(organiser).post("/matches/new/", form(*FOUR, ruleset="four-way", length=4)))
    assert [p.handle for p in match.players] == FOUR
    assert match.points_per_place == [3, 1, 0, 0] and match.series_length == 4  # a table's best of may be even


def test_a_team_match_seats_one_and_three_against_two_and_four(organiser: Any, four: list[Any]) -> None:
    match = created(logged_in(organiser).post("/matches/new/", form(*FOUR, ruleset="team")))
    assert match.is_team and match.teams == ((0, 2), (1, 3))
    assert match.points_per_place is None


def test_a_timed_match_in_seconds(organiser: Any, four: list[Any]) -> None:
    match = created(logged_in(organiser).post("/matches/new/", form("ann", "di", time_limit_seconds="90")))
    assert match.time_limit_ms == 90_000 and match.ranks_games


def test_an_empty_seat_between_filled_ones_is_skipped(organiser: Any, four: list[Any]) -> None:
    match = created(logged_in(organiser).post("/matches/new/", form("ann", "", "cy", ruleset="speed")))
    assert [p.handle for p in match.players] == ["ann", "cy"]


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        (form("ann", "bo", ruleset="three-way"), "ruleset", "seats 3 players, but 2 play here"),
        (form("ann", "bo", "cy", "di", ruleset="speed"), "ruleset", "seats 2 players, but 4 play here"),
        (form("ann", "nobody"), "players", "No player with handle 'nobody'"),
        (form("ann", "ANN"), "players", "two to four different player handles"),
        (form("ann"), "players", "at least two players"),
        (form("ann", "bo", length=4), "series_length", "best_of must be odd"),
        (form("ann", "bo", points_per_place="1-0"), "points_per_place", "tables of three or four"),
        (form("ann", "bo", "cy", ruleset="three-way", points_per_place="0-1-2"), "points_per_place", "never rising"),
        (form("ann", "bo", "cy", ruleset="three-way", points_per_place="3-x"), "points_per_place", "Whole numbers"),
        (form(*FOUR, ruleset="team", time_limit_seconds="60"), "time_limit_seconds", "not Team Speed"),
        (form("ann", "bo", ruleset="spit", time_limit_seconds="60"), "time_limit_seconds", "Spit"),
    ],
)
def test_errors_land_by_the_field_they_name(
    organiser: Any, four: list[Any], fields: dict[str, str], field: str, words: str
) -> None:
    response = logged_in(organiser).post("/matches/new/", fields)
    assert response.status_code == 200
    errors = _errors(response)
    assert list(errors) == [field] and words in " ".join(errors[field]), errors
    page = html.unescape(response.content.decode())
    assert words in page
    assert not Match.objects.exists()


def test_a_player_makes_no_match_here_even_in_the_match_forms_fields(four: list[Any]) -> None:
    client = logged_in(four[0].user)
    page = client.get("/matches/new/").content.decode()
    assert "Challenge a player" in page and 'name="players_0"' not in page
    response = client.post("/matches/new/", form("ann", "bo"))
    assert response.status_code == 200
    assert list(_errors(response)) == ["challenged"]  # the challenge form's one required field
    assert not Match.objects.exists()


def test_an_organiser_seats_anyone_and_nothing_is_filled_in(organiser: Any, four: list[Any]) -> None:
    client = logged_in(organiser)
    assert "value=" not in seat_input(client.get("/matches/new/").content.decode(), 0)
    assert created(client.post("/matches/new/", form("bo", "cy"))).created_by == organiser


def test_visitors_log_in_first_and_a_user_without_a_player_is_told_why(client: Client, db: None) -> None:
    response = client.get("/matches/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    page = logged_in(make_user("no-player")).get("/matches/new/").content.decode()
    assert "not as a player" in page and "players_0" not in page


def test_the_page_is_linked_from_the_nav_my_matches_and_the_home_page(four: list[Any]) -> None:
    client = logged_in(four[0].user)
    for path in ("/", "/me/"):
        page = client.get(path).content.decode()
        assert page.count('href="/matches/new/"') >= 2, path  # the nav, and the page's own link
    assert 'href="/matches/new/"' not in Client().get("/").content.decode()
