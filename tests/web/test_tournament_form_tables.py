"""The new-tournament page's tables options: a ruleset and points per place for each table size.

They are the tables format's own options (a fieldset of their own, fields named "tables-<option>"); they
reach `tournament_create`, and its errors come back by the field they name.
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
    "tables-final_table_size": "4",
}


@pytest.fixture
def orga(organiser: Any) -> Client:
    client = Client()
    assert client.login(username="orga", password=PASSWORD)
    return client


def test_the_tables_fields_are_offered_in_the_tables_fieldset(orga: Client) -> None:
    page = orga.get("/organise/tournaments/new/").content.decode()
    fieldset = re.search(r'<fieldset data-formats="tables">.*?</fieldset>', page, re.DOTALL)
    assert fieldset is not None and "<legend>Tables of three and four options</legend>" in fieldset.group()
    for name in ("ruleset_three", "ruleset_four", "points_three", "points_four", "table_rounds"):
        assert f'name="tables-{name}"' in fieldset.group(), name
    # Winner stays on seats three or four too: the same options, in its own fieldset.
    assert 'name="winner_stays_on-ruleset_three"' in page
    assert '<option value="four-way" selected>' in page and '<option value="three-way" selected>' in page
    assert 'value="team"' not in page  # a tournament seats players, not teams


def test_points_and_rulesets_per_table_size_reach_the_tournament(orga: Client) -> None:
    fields = {
        **TABLES,
        "tables-points_three": "3, 2, 0",
        "tables-points_four": "5-3-1-0",
        "tables-ruleset_three": "three-way",
    }
    response = orga.post("/organise/tournaments/new/", fields)
    assert response.status_code == 302, response.context["form"].errors
    made = Tournament.objects.get(name="Table night")
    assert (made.options["points_three"], made.options["points_four"]) == ([3, 2, 0], [5, 3, 1, 0])
    assert made.options["ruleset_three"]["players"] == 3 and made.options["ruleset_four"]["players"] == 4


def test_empty_points_keep_the_defaults(orga: Client) -> None:
    assert orga.post("/organise/tournaments/new/", TABLES).status_code == 302
    made = Tournament.objects.get(name="Table night")
    assert (made.options["points_three"], made.options["points_four"]) == (None, None)  # read as 2-1-0 and 3-1-0-0


@pytest.mark.parametrize(
    ("more", "field", "words"),
    [
        ({"tables-points_four": "1-2-3-4"}, "tables-points_four", "never rising"),
        ({"tables-points_three": "3-1"}, "tables-points_three", "one whole number per place"),
        ({"tables-points_three": "three"}, "tables-points_three", "Whole numbers"),
        ({"tables-ruleset_four": "speed"}, "tables-ruleset_four", "Select a valid choice"),
        # Another format's bad box does not stop this one: only the chosen format's options are read.
        (
            {"format": "tables", "swiss-swiss_rounds": "x", "tables-table_rounds": "0"},
            "tables-table_rounds",
            "from 1 to 99",
        ),
        ({"format": "swiss", "series_length": "2"}, "series_length", "best_of must be odd"),
    ],
)
def test_errors_land_by_the_field_they_name(orga: Client, more: dict[str, str], field: str, words: str) -> None:
    response = orga.post("/organise/tournaments/new/", {**TABLES, **more})
    assert response.status_code == 200
    errors = {name: " ".join(found) for name, found in response.context["form"].errors.items()}
    assert list(errors) == [field] and words in errors[field], errors
    assert not Tournament.objects.exists()


def test_the_times_at_the_tables_reach_the_tournament_and_its_page_says_them(orga: Client) -> None:
    page = orga.get("/organise/tournaments/new/").content.decode()
    fieldset = re.search(r'<fieldset data-role="table-settings">.*?</fieldset>', page, re.DOTALL)
    assert fieldset is not None
    for name in ("table_claim_seconds", "table_abandon_seconds", "table_no_show_seconds"):
        assert f'name="{name}"' in fieldset.group(), name
    fields = {**TABLES, "table_claim_seconds": "45", "table_abandon_seconds": "300", "table_no_show_seconds": "120"}
    response = orga.post("/organise/tournaments/new/", fields)
    assert response.status_code == 302, response.context["form"].errors
    made = Tournament.objects.get(name="Table night")
    assert made.table_settings == {"claim_seconds": 45, "abandon_seconds": 300, "no_show_seconds": 120}
    shown = re.search(r'data-role="table-settings">([^<]*)<', orga.get(f"/tournaments/{made.pk}/").content.decode())
    assert shown is not None
    assert shown.group(1) == (
        "At the tables: a player away 45 s can be claimed against; a table everyone has left is abandoned after "
        "5 min, and one nobody readied is aborted after as long; a no-show at a called match&#x27;s table "
        "forfeits after 2 min."
    )


def test_empty_times_at_the_tables_are_the_sites_and_the_page_says_nothing(orga: Client) -> None:
    assert orga.post("/organise/tournaments/new/", TABLES).status_code == 302
    made = Tournament.objects.get(name="Table night")
    assert made.table_settings == {}
    assert 'data-role="table-settings">' not in orga.get(f"/tournaments/{made.pk}/").content.decode()


@pytest.mark.parametrize(
    ("more", "field", "words"),
    [
        ({"table_abandon_seconds": "120", "table_no_show_seconds": "120"}, "table_no_show_seconds", "shorter than"),
        ({"table_abandon_seconds": "300", "table_claim_seconds": "700"}, "table_claim_seconds", "600"),
        ({"table_claim_seconds": "300", "table_abandon_seconds": "200"}, "table_claim_seconds", "shorter than"),
        ({"table_no_show_seconds": "10"}, "table_no_show_seconds", "from 30 to 1800"),
    ],
)
def test_times_that_cannot_happen_are_refused_by_their_box(
    orga: Client, more: dict[str, str], field: str, words: str
) -> None:
    response = orga.post("/organise/tournaments/new/", {**TABLES, **more})
    assert response.status_code == 200
    errors = {name: " ".join(found) for name, found in response.context["form"].errors.items()}
    assert list(errors) == [field] and words in errors[field], errors
    assert not Tournament.objects.exists()
