"""A tables tournament's page: tables drawn seat by seat, standings by table points, the final table;
its query count does not grow with the number of tables; and the same in a real browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.factories import PASSWORD, make_tournament, make_user, play_table, player, ready
from tests.queries import database_queries
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db(transaction=True)


def tables_event(organiser: Any, count: int, prefix: str, **options: Any) -> Tournament:
    players = [player(f"{prefix}{n:02d}") for n in range(1, count + 1)]
    return make_tournament(organiser, players, format="tables", name=f"Tables {prefix}", **options)


def play_round(organiser: Any, tournament: Tournament) -> None:
    """Every ready table decided, seats finishing in reverse seat order (the last seat wins)."""
    for pairing in ready(tournament):
        row = TournamentMatch.objects.select_related("player_one", "player_two", "player_three", "player_four").get(
            pk=pairing.pk
        )
        play_table(organiser, row, list(reversed(row.seats)))


def queries_of(client: Client, path: str) -> int:
    with database_queries() as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries)


def test_the_page_query_count_does_not_grow_with_the_tables(organiser: Any) -> None:
    client = Client()
    counts = []
    for count, prefix in ((12, "qa"), (40, "qb")):
        tournament = tables_event(organiser, count, prefix, table_rounds=3)
        play_round(organiser, tournament)  # round 1 decided, round 2 seated
        cold = queries_of(client, f"/tournaments/{tournament.pk}/")
        warm = queries_of(client, f"/tournaments/{tournament.pk}/?page=1&sort=name")
        counts.append((cold, warm))
    assert counts[0] == counts[1], counts
    assert counts[1][1] <= 4


def test_the_page_shows_tables_standings_and_the_final_table(client: Client, organiser: Any) -> None:
    tournament = tables_event(organiser, 7, "pg", table_rounds=1, final_table_size=3)
    body = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    # Round 1: a table of four and a table of three, seats in snake order.
    assert body.count('data-role="seat-table"') == 2
    assert "Round 1, table 1" in body and "Round 1, table 2" in body
    assert "three-way at 3, four-way at 4" in body
    play_round(organiser, tournament)
    body = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Table points" in body
    assert 'data-role="final-table"' in body
    (final,) = ready(tournament)
    assert final.key == "F" and len(final.seat_ids) == 3
    play_round(organiser, tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    body = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "its places are the top places" in body


@pytest.mark.browser
def test_a_tables_tournament_page_in_the_browser(page: Any, live_server: Any, shot: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    organiser = make_user("orga-tables", organiser=True)
    tournament = tables_event(organiser, 10, "br", table_rounds=2)
    play_round(organiser, tournament)
    play_round(organiser, tournament)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    tables = page.locator(".rounds [data-role=seat-table]")
    expect(tables).to_have_count(6)  # two rounds of 4 + 3 + 3
    first = page.locator("[data-key='T1-1'] tbody tr")
    expect(first).to_have_count(4)
    expect(first.nth(0)).to_contain_text("br01")  # seat 1: seed 1 (the snake)
    standings = page.locator("[data-role=standings]")
    expect(standings.get_by_role("columnheader", name="Table points")).to_be_visible()
    expect(standings.locator("tbody tr")).to_have_count(10)
    final = page.locator("[data-role=final-table]")
    expect(final.get_by_role("heading", name="Final table")).to_be_visible()
    expect(final.locator("tbody tr")).to_have_count(4)
    shot(page, "tournament-tables-final-to-play")

    play_round(organiser, tournament)
    page.reload()
    expect(page.locator("[data-role=final-table]")).to_contain_text("its places are the top places")
    expect(page.locator("[data-role=standings] tbody tr").first).to_contain_text(
        page.locator("[data-role=final-table] tr.is-winner th").inner_text()
    )
    shot(page, "tournament-tables-finished")


def test_an_organiser_creates_a_timed_tables_tournament_from_the_page(client: Client, organiser: Any) -> None:
    client.login(username="orga", password=PASSWORD)
    page = client.get("/organise/tournaments/new/").content.decode()
    assert 'value="tables"' in page and "Rounds at tables" in page
    response = client.post(
        "/organise/tournaments/new/",
        {
            "name": "Table night",
            "format": "tables",
            "series": "best_of",
            "series_length": 1,
            "ruleset": "speed",
            "tables-table_rounds": 4,
            "tables-final_table_size": 3,
            "time_limit_seconds": 90,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Tournament.objects.get(name="Table night")
    options = made.options
    assert (made.format, options["table_rounds"], options["final_table_size"], made.time_limit_ms) == (
        "tables",
        4,
        3,
        90_000,
    )
    assert options["ruleset_three"]["players"] == 3 and options["ruleset_four"]["players"] == 4


def test_the_new_tournament_form_sets_the_cap_the_deadline_and_the_seed_order(client: Client, organiser: Any) -> None:
    client.login(username="orga", password=PASSWORD)
    page = client.get("/organise/tournaments/new/").content.decode()
    assert 'data-role="entry"' in page and "Seed order at the start" in page and "Bracket draw" in page
    response = client.post(
        "/organise/tournaments/new/",
        {
            "name": "Capped cup",
            "format": "swiss",
            "series": "best_of",
            "series_length": 1,
            "ruleset": "speed",
            "max_entrants": 8,
            "registration_closes_at": "2027-01-10T18:00",
            "seed_by": "rating",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Tournament.objects.get(name="Capped cup")
    assert (made.max_entrants, made.seed_by) == (8, "rating")
    assert made.registration_closes_at is not None and made.registration_closes_at.isoformat().startswith("2027-01-10")
    edit = client.get(f"/organise/tournaments/{made.pk}/edit/")
    # The entry rules change on the manage page, not in the settings' form.
    assert edit.status_code == 200 and 'data-role="entry"' not in edit.content.decode()
