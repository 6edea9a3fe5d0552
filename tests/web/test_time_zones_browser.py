"""Time zones in a real browser: Chromium told its zone (Playwright's `timezone_id`) tells the site.

Sign-up takes the zone from the browser (static/js/time-zone.js fills a hidden box), a visitor's
next page is in it (a cookie), and Settings offer the browser's zone when another is chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from matches.models import TimeZonePreference
from matches.services import user_time_zone_set
from tests.factories import PASSWORD, make_players, make_tournament, make_user
from tournaments.services.schedule import round_schedule_set, tournament_starts_at_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

START = datetime(2030, 1, 15, 17, 0, tzinfo=UTC)  # 12:00 in New York (EST), 02:00 the next day in Tokyo (JST)


@pytest.fixture
def cup(organiser: Any) -> Any:
    tournament = make_tournament(organiser, make_players(4, prefix="w"), format="round_robin", start=False)
    tournament_starts_at_set(tournament_id=tournament.pk, user=organiser, starts_at=START)
    round_schedule_set(tournament_id=tournament.pk, user=organiser, round=2, not_before=START)
    return tournament


def test_sign_up_takes_the_browsers_zone_and_pages_show_times_in_it(
    live_server: Any, new_page: Callable[..., Page], cup: Any
) -> None:
    url = live_server.url
    page = new_page(timezone_id="America/New_York")
    page.goto(f"{url}/accounts/signup/")
    expect(page.locator("input[name=time_zone]")).to_have_value("America/New_York")
    page.get_by_label("Handle").fill("nadia")
    page.get_by_label("Your name").fill("Nadia")
    page.get_by_label("Password", exact=True).fill("kettle-harbour-19")
    page.get_by_label("Password again").fill("kettle-harbour-19")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{url}/me/")
    assert TimeZonePreference.objects.get(user__username="nadia").name == "America/New_York"

    page.goto(f"{url}/tournaments/{cup.pk}/")
    schedule = page.locator("[data-role=schedule]")
    expect(schedule).to_contain_text("Starts 15 Jan 2030, 12:00 EST")
    expect(schedule).to_contain_text("Round 2: not before 15 Jan 2030, 12:00 EST")
    expect(schedule.locator("time").first).to_have_attribute("datetime", "2030-01-15T17:00:00Z")
    expect(page.locator("[data-role=time-zone-note]")).to_contain_text("Times are in America/New_York.")


def test_a_visitors_second_page_is_in_the_browsers_zone(
    live_server: Any, new_page: Callable[..., Page], cup: Any
) -> None:
    page = new_page(timezone_id="Asia/Tokyo")
    page.goto(f"{live_server.url}/tournaments/{cup.pk}/")
    # The first page is UTC (the site has not heard from the browser yet); its script tells it.
    expect(page.locator("[data-role=schedule]")).to_contain_text("15 Jan 2030, 17:00 UTC")
    page.reload()
    expect(page.locator("[data-role=schedule]")).to_contain_text("Starts 16 Jan 2030, 02:00 JST")


def test_settings_offer_the_browsers_zone_when_another_is_chosen(
    live_server: Any, new_page: Callable[..., Page], login: Callable[[Page, str, str], None], cup: Any
) -> None:
    traveller = make_user("traveller")
    user_time_zone_set(user=traveller, name="America/New_York")
    page = new_page(timezone_id="Asia/Tokyo")
    login(page, "traveller", PASSWORD)
    page.goto(f"{live_server.url}/accounts/notifications/")
    select = page.get_by_label("Time zone")
    expect(select).to_have_value("America/New_York")
    hint = page.locator("[data-role=browser-zone]")
    expect(hint).to_contain_text("Your browser is in Asia/Tokyo.")
    hint.get_by_role("button", name="Use it").click()
    expect(select).to_have_value("Asia/Tokyo")
    expect(hint).to_be_hidden()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your settings are saved.")).to_be_visible()
    expect(page.locator("[data-role=browser-zone]")).to_be_hidden()  # the zone chosen is the browser's now
    page.goto(f"{live_server.url}/tournaments/{cup.pk}/")
    expect(page.locator("[data-role=schedule]")).to_contain_text("Starts 16 Jan 2030, 02:00 JST")
