"""The new-tournament page's tables options: a ruleset and points per place for each table size.

They reach `tournament_create`, and its errors come back by the field they name.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import PASSWORD
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

TABLES = {
    "name": "Table night",
    "format": "tables",
    "series": "best_of",
    "series_length": "2",
    "ruleset": "speed",
    "seeding": "standard",
    "final_table_size": "4",
}


@pytest.fixture
def orga(organiser: Any) -> Client:
    client = Client()
    assert client.login(username="orga", password=PASSWORD)
    return client


def test_the_tables_fields_are_offered_for_the_tables_format_only(orga: Client) -> None:
    page = orga.get("/organise/tournaments/new/").content.decode()
    for name in ("ruleset_three", "ruleset_four", "points_three", "points_four"):
        tag = re.search(rf'<(?:select|input)[^>]*name="{name}"[^>]*>', page)
        assert tag is not None, name
        assert 'data-formats="tables"' in tag.group(), tag.group()
    assert '<option value="four-way" selected>' in page and '<option value="three-way" selected>' in page
    assert 'value="team"' not in page  # a tournament seats players, not teams


def test_points_and_rulesets_per_table_size_reach_the_tournament(orga: Client) -> None:
    fields = {**TABLES, "points_three": "3, 2, 0", "points_four": "5-3-1-0", "ruleset_three": "three-way"}
    response = orga.post("/organise/tournaments/new/", fields)
    assert response.status_code == 302, response.context["form"].errors
    made = Tournament.objects.get(name="Table night")
    assert (made.points_three, made.points_four) == ([3, 2, 0], [5, 3, 1, 0])
    assert made.ruleset_three["players"] == 3 and made.ruleset_four["players"] == 4


def test_empty_points_keep_the_defaults(orga: Client) -> None:
    assert orga.post("/organise/tournaments/new/", TABLES).status_code == 302
    made = Tournament.objects.get(name="Table night")
    assert (made.points_three, made.points_four) == (None, None)  # read as 2-1-0 and 3-1-0-0


@pytest.mark.parametrize(
    ("more", "field", "words"),
    [
        ({"points_four": "1-2-3-4"}, "points_four", "never rising"),
        ({"points_three": "3-1"}, "points_three", "one whole number per place"),
        ({"points_three": "three"}, "points_three", "Whole numbers"),
        ({"ruleset_four": "speed"}, "ruleset_four", "Select a valid choice"),
        ({"format": "swiss", "series_length": "2"}, "series_length", "best_of must be odd"),
    ],
)
def test_errors_land_by_the_field_they_name(orga: Client, more: dict[str, str], field: str, words: str) -> None:
    response = orga.post("/organise/tournaments/new/", {**TABLES, **more})
    assert response.status_code == 200
    errors = {name: " ".join(found) for name, found in response.context["form"].errors.items()}
    assert list(errors) == [field] and words in errors[field], errors
    assert not Tournament.objects.exists()
