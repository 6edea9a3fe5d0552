"""Tournaments in a real browser: an organiser runs one from the pages; viewers see the bracket and standings."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.factories import PASSWORD, make_tournament, make_user, player, win_match
from tournaments.models import Tournament, TournamentMatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDLES = ["alice", "ben", "chloe", "dev"]


@pytest.fixture
def players() -> list[Any]:
    return [player(handle) for handle in HANDLES]


def pairing(tournament: Tournament, key: str) -> TournamentMatch:
    return TournamentMatch.objects.select_related("match__player_one", "match__player_two").get(
        tournament=tournament, key=key
    )


@pytest.mark.usefixtures("players")
def test_an_organiser_runs_an_elimination_from_the_pages(
    page: Page, live_server: Any, organiser: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    login(page, "orga", PASSWORD)
    page.get_by_role("link", name="Organise").click()
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name").fill("Spring Cup")
    page.get_by_label("Format").select_option("single_elimination")
    page.get_by_label("Games").fill("1")
    shot(page, "organise-new-tournament")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Spring Cup")
    tournament = Tournament.objects.get(name="Spring Cup")

    # Enter the four players, seeding dev first.
    for handle, seed in (("dev", "1"), ("alice", ""), ("ben", ""), ("chloe", "")):
        page.get_by_label("Player handle").fill(handle)
        page.get_by_label("Seed", exact=True).fill(seed)  # not the re-seeding list
        page.get_by_role("button", name="Enter", exact=True).click()
        expect(page.locator(".messages")).to_contain_text(f"{handle} entered")
    rows = page.locator("[data-role=entrants] tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("dev")
    # A mistake is explained, not a crash.
    page.get_by_label("Player handle").fill("nobody")
    page.get_by_role("button", name="Enter", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("There is no player with handle 'nobody'")
    shot(page, "organise-tournament")

    page.get_by_role("button", name="Start with 4 players").click()
    page.get_by_role("button", name="Start now").click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{tournament.pk}/$"))
    bracket = page.locator("[data-bracket]")
    expect(bracket.locator(".bracket__match")).to_have_count(3)
    expect(page.get_by_text("Semi-finals")).to_be_visible()

    # Results come in from verified logs; the bracket follows.
    semi = pairing(tournament, "R1-1")
    win_match(semi.match, winner=semi.match.player_one, user=organiser)
    other = pairing(tournament, "R1-2")
    win_match(other.match, winner=other.match.player_two, user=organiser)
    page.reload()
    final = page.locator("[data-match='R2-1']")
    expect(final).to_contain_text(semi.match.player_one.handle)
    expect(final).to_contain_text(other.match.player_two.handle)
    first_semi = page.locator("[data-match='R1-1']")
    expect(first_semi).to_have_attribute("href", f"/matches/{semi.match_id}/")
    expect(first_semi.locator(".bracket__slot--won")).to_contain_text(semi.match.player_one.handle)
    expect(first_semi.locator(".bracket__slot--won .bracket__score")).to_have_text("1")

    # Hovering a player lights their path: their two slots and the line between.
    winner_id = semi.match.player_one_id
    page.locator(f"[data-match='R1-1'] .bracket__slot[data-entrant='{winner_id}']").hover()
    expect(bracket).to_have_class(re.compile("is-tracing"))
    expect(bracket.locator(f".is-path.bracket__slot[data-entrant='{winner_id}']")).to_have_count(2)
    expect(bracket.locator(f"path.is-path[data-entrant='{winner_id}']")).to_have_count(1)
    shot(page, "tournament-bracket")

    # Correct the first semi-final: the preview says the final gets new players, then it is applied.
    page.goto(f"{live_server.url}/organise/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Correct Semi-final 1").click()  # named in words, not by its key
    loser = semi.match.player_two.handle
    page.get_by_role("radio", name=loser, exact=True).check()
    page.get_by_role("button", name="Preview the change").click()
    preview = page.locator("[data-role=preview]")
    expect(preview).to_contain_text(f"becomes {loser}")
    expect(preview.locator("tbody tr").first).to_contain_text("Final")
    shot(page, "organise-correct-preview")
    assert pairing(tournament, "R1-1").winner_id == winner_id  # a preview changes nothing
    page.get_by_placeholder("Why (kept in the history)").fill("Wrong winner reported")
    page.get_by_role("button", name="Apply the correction").click()
    expect(page.locator(".messages")).to_contain_text("Semi-final 1 corrected")
    expect(page.locator("[data-match='R2-1']")).to_contain_text(loser)
    assert pairing(tournament, "R1-1").winner_id == semi.match.player_two_id


def test_round_robin_standings_with_tie_break_columns(
    page: Page, live_server: Any, organiser: Any, players: list[Any], shot: Callable[[Page, str], Any]
) -> None:
    tournament = make_tournament(organiser, players, format="round_robin", name="League")
    # The earlier handle in the alphabet always wins: alice 3 wins, ben 2, chloe 1, dev 0.
    for row in TournamentMatch.objects.filter(tournament=tournament).select_related(
        "match__player_one", "match__player_two"
    ):
        one, two = row.match.player_one, row.match.player_two
        win_match(row.match, winner=min(one, two, key=lambda p: p.handle), user=organiser)

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    table = page.locator("[data-role=standings]")
    headers = table.locator("thead th")
    expect(headers).to_have_text(["#", "Player", "Match wins", "Head to head", "Game win %", "Card margin"])
    body = table.locator("tbody tr")
    expect(body).to_have_count(4)
    for index, (handle, wins) in enumerate((("alice", "3"), ("ben", "2"), ("chloe", "1"), ("dev", "0"))):
        expect(body.nth(index).locator("th")).to_have_text(handle)
        expect(body.nth(index).locator("td").nth(1)).to_have_text(wins)
    expect(body.first.locator("td").nth(3)).to_have_text("100.0%")
    expect(page.locator(".facts")).to_contain_text("Finished")
    expect(page.locator(".round")).to_have_count(3)
    shot(page, "tournament-standings")

    # The home page shows it too, with the latest bracket when there is one.
    page.goto(f"{live_server.url}/")
    featured = page.locator("[data-role=featured-table]")
    expect(featured).to_contain_text("League: standings")
    expect(featured.locator("tbody tr").first.locator("th")).to_have_text("alice")

    # Rated matches: alice's page charts her rating after each one, and lists the league.
    page.goto(f"{live_server.url}/players/alice/")
    chart = page.get_by_role("img", name=re.compile(r"^Rating history of alice: from 1500 to \d+ over 4 points"))
    expect(chart).to_be_visible()
    expect(chart.locator("circle")).to_have_count(4)  # the start and three matches
    expect(page.locator("[data-role=rating]")).not_to_be_empty()
    expect(page.get_by_role("link", name="League")).to_be_visible()
    shot(page, "player-rating")


def test_organiser_pages_are_for_organisers(
    page: Page, live_server: Any, login: Callable[..., None], page_errors: list[Any]
) -> None:
    make_user("plain")
    page.goto(f"{live_server.url}/organise/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/organise/$"))
    login(page, "plain", PASSWORD)
    expect(page.get_by_role("link", name="Organise")).to_have_count(0)
    response = page.goto(f"{live_server.url}/organise/")
    assert response is not None and response.status == 403
    expect(page.get_by_role("heading", level=1)).to_have_text("Not allowed")
    # The browser logs the 403 itself; that one is expected.
    page_errors[-1].messages[:] = [m for m in page_errors[-1].messages if "403 (Forbidden)" not in m]
