"""The options `played_at_tables` and `advance_automatically`: through the API (JSON booleans only) and the
organiser's forms, before the start, for every ruleset a tournament plays (Spit too)."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from tests.factories import PASSWORD
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BASE = {"name": "At the tables", "format": "swiss", "best_of": 1}
OPTIONS = ("played_at_tables", "advance_automatically")


def test_the_api_creates_shows_and_replaces_both_options(client_for: Any, organiser: Any) -> None:
    api = client_for(organiser)
    created = api.post("/api/tournaments/", BASE | {"played_at_tables": True}, format="json")
    assert created.status_code == 201, created.json()
    assert (created.json()["played_at_tables"], created.json()["advance_automatically"]) == (True, False)
    url = f"/api/tournaments/{created.json()['id']}/"
    assert api.get(url).json()["played_at_tables"] is True
    both = api.put(url, BASE | dict.fromkeys(OPTIONS, True), format="json")
    assert both.status_code == 200, both.json()
    stored = Tournament.objects.get(pk=created.json()["id"])
    assert (stored.played_at_tables, stored.advance_automatically) == (True, True)
    replaced = api.put(url, BASE, format="json")
    assert replaced.status_code == 200
    assert [replaced.json()[name] for name in OPTIONS] == [False, False], "PUT replaces every setting"


@pytest.mark.parametrize("value", ["true", 1, None, "yes"])
@pytest.mark.parametrize("name", OPTIONS)
def test_the_api_takes_json_booleans_only(client_for: Any, organiser: Any, name: str, value: Any) -> None:
    response = client_for(organiser).post("/api/tournaments/", BASE | {name: value}, format="json")
    assert response.status_code == 400, response.json()
    assert name in str(response.json())
    assert not Tournament.objects.exists()


def test_a_spit_tournament_may_be_played_at_the_tables(client_for: Any, organiser: Any) -> None:
    created = client_for(organiser).post(
        "/api/tournaments/", BASE | {"ruleset": "spit", "played_at_tables": True}, format="json"
    )
    assert created.status_code == 201, created.json()
    assert Tournament.objects.get(pk=created.json()["id"]).played_at_tables is True


FORM = {"format": "swiss", "series": "best_of", "series_length": 1, "ruleset": "speed"}


def test_the_new_and_edit_forms_have_both_checkboxes(client: Client, organiser: Any) -> None:
    client.login(username="orga", password=PASSWORD)
    page = html.unescape(client.get("/organise/tournaments/new/").content.decode())
    assert 'name="played_at_tables"' in page and "Played at the site's tables" in page
    assert 'name="advance_automatically"' in page
    created = client.post("/organise/tournaments/new/", FORM | {"name": "Ticked", "played_at_tables": "on"})
    assert created.status_code == 302, created.content.decode()[:2000]
    cup = Tournament.objects.get(name="Ticked")
    assert (cup.played_at_tables, cup.advance_automatically) == (True, False)
    edit = f"/organise/tournaments/{cup.pk}/edit/"
    assert client.get(edit).context["form"]["played_at_tables"].value() is True
    assert client.post(edit, FORM | {"name": "Ticked", "advance_automatically": "on"}).status_code == 302
    cup.refresh_from_db()
    assert (cup.played_at_tables, cup.advance_automatically) == (False, True)


def test_the_manage_page_says_how_the_event_runs(client: Client, organiser: Any) -> None:
    client.login(username="orga", password=PASSWORD)
    plain = client.post("/organise/tournaments/new/", FORM | {"name": "Plain"})
    assert plain.status_code == 302
    page = client.get(plain["Location"]).content.decode()
    assert 'data-role="at-tables"' not in page and 'data-role="calls-itself"' not in page
    both = client.post(
        "/organise/tournaments/new/",
        FORM | {"name": "Both", "played_at_tables": "on", "advance_automatically": "on"},
    )
    page = client.get(both["Location"]).content.decode()
    assert "played at the tables" in page and "matches called as paired" in page
