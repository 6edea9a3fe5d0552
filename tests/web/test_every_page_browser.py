"""Every page, on a phone and in the dark: no console error, nothing wider than the screen, a screenshot each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.factories import PASSWORD, load, make_tournament, player, submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(organiser: Any) -> dict[str, Any]:
    verified = submit(load("valid-speed-1001.json"), user=organiser)
    rejected = submit(load("invalid-no_fit-1012.json"), user=organiser)
    players = [player(handle) for handle in ("alice", "ben", "chloe", "dev", "emma")]
    cup = make_tournament(organiser, players, format="single_elimination", name="Phone Cup", best_of=3)
    league = make_tournament(organiser, players, format="swiss", name="Phone League")
    setup = make_tournament(organiser, players, format="round_robin", name="Phone Open", start=False)
    return {"verified": verified, "rejected": rejected, "cup": cup, "league": league, "setup": setup}


def test_every_page_on_a_phone_in_the_dark(
    new_page: Callable[..., Page], live_server: Any, site: dict[str, Any], shot: Callable[[Page, str], Any]
) -> None:
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True, color_scheme="dark")
    pages = {
        "home": "/",
        "tournaments": "/tournaments/",
        "tournament-bracket": f"/tournaments/{site['cup'].pk}/",
        "tournament-swiss": f"/tournaments/{site['league'].pk}/",
        "players": "/players/",
        "player": "/players/tomas/",
        "match": f"/matches/{site['verified'].game.match_id}/",
        "replay": f"/replays/{site['verified'].pk}/#step=30",
        "replay-rejected": f"/replays/{site['rejected'].pk}/#step=16",
        "log": f"/logs/{site['rejected'].pk}/",
        "login": "/accounts/login/",
    }
    for name, path in pages.items():
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, path
        expect(page.locator("main h1").first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width}px wide on a 390px screen"
        shot(page, f"phone-dark-{name}")

    # The signed-in pages too.
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("orga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    for name, path in {
        "organise": "/organise/",
        "organise-tournament": f"/organise/tournaments/{site['cup'].pk}/",
        "organise-new": "/organise/tournaments/new/",
        "organise-delete": f"/organise/tournaments/{site['cup'].pk}/delete/",
        "organise-edit": f"/organise/tournaments/{site['setup'].pk}/edit/",
        "organise-start": f"/organise/tournaments/{site['setup'].pk}/start/",
        "match-new": "/matches/new/",
        "submit": "/submit/",
        "play": "/play/",
    }.items():
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, path
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        shot(page, f"phone-dark-{name}")


def test_tournament_list_on_a_desktop(
    page: Page, live_server: Any, site: dict[str, Any], shot: Callable[[Page, str], Any]
) -> None:
    page.goto(f"{live_server.url}/tournaments/")
    cards = page.locator(".tcard")
    expect(cards).to_have_count(3)
    expect(cards.first).to_contain_text("5 players")
    cards.filter(has_text="Phone League").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Phone League")
    expect(page.locator("[data-role=standings] thead th")).to_contain_text(["#", "Player", "Match wins", "Buchholz"])
    page.goto(f"{live_server.url}/tournaments/")
    shot(page, "tournaments")
