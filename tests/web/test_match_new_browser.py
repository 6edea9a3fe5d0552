"""The new-match page in a real browser: an organiser seats a four-way table and lands on its match page.

The page's script shows points per place and the time limit only for the
rulesets that read them; hidden, they are not sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from matches.models import Match
from tests.factories import PASSWORD, make_player, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOUR = ["ann", "bo", "cy", "di"]


def test_an_organiser_creates_a_four_way_match_and_lands_on_its_page(
    page: Page, live_server: Any, login: Callable[[Page, str, str], None], shot: Callable[[Page, str], Any]
) -> None:
    for handle in FOUR:
        make_player(handle)
    make_user("org", organiser=True)
    login(page, "org", PASSWORD)
    page.get_by_role("link", name="New match").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New match")
    seats = [page.get_by_label(f"{n} seat", exact=True) for n in ("1st", "2nd", "3rd", "4th")]

    points, limit = page.get_by_label("Points per place"), page.get_by_label("Time limit (seconds)")
    expect(points).to_be_hidden()  # two-player Speed counts games won
    expect(limit).to_be_visible()
    page.get_by_label("Ruleset").select_option("team")
    expect(points).to_be_hidden()
    expect(limit).to_be_hidden()  # no timed Team Speed
    page.get_by_label("Ruleset").select_option("four-way")
    expect(points).to_be_visible()
    expect(limit).to_be_visible()

    for seat, handle in zip(seats, ["bo", "ann", "di", "cy"], strict=True):
        seat.fill(handle)
    page.get_by_label("Series").select_option("first_to")
    page.get_by_label("Games").fill("5")
    points.fill("4-2-1-0")
    shot(page, "match-new-four-way")
    page.get_by_role("button", name="Create the match").click()

    match = Match.objects.get()
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")
    assert [p.handle for p in match.players] == ["bo", "ann", "di", "cy"]
    assert (match.points_per_place, match.series, match.series_length) == ([4, 2, 1, 0], "first_to", 5)
    expect(page.get_by_role("heading", level=1)).to_have_text("Bo, Ann, Di and Cy")  # display names, in seat order
    shot(page, "match-new-four-way-created")


def test_an_error_comes_back_by_its_field_with_the_seats_kept(
    page: Page, live_server: Any, login: Callable[[Page, str, str], None], shot: Callable[[Page, str], Any]
) -> None:
    for handle in FOUR:
        make_player(handle)
    make_user("org", organiser=True)
    login(page, "org", PASSWORD)
    page.goto(f"{live_server.url}/matches/new/")
    page.get_by_label("1st seat", exact=True).fill("ann")
    page.get_by_label("2nd seat", exact=True).fill("bo")
    page.get_by_label("Ruleset").select_option("three-way")
    page.get_by_role("button", name="Create the match").click()
    ruleset_field = page.locator(".field", has=page.get_by_label("Ruleset"))
    expect(ruleset_field.locator(".errorlist")).to_contain_text("seats 3 players, but 2 play here")
    expect(page.get_by_label("2nd seat", exact=True)).to_have_value("bo")
    expect(page.get_by_label("Points per place")).to_be_visible()  # three-way still chosen
    assert not Match.objects.exists()
    shot(page, "match-new-error")
