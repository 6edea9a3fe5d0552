"""A whole event run through the pages in headless Chromium: no API call and no JSON typed by hand.

Six players sign up; the organiser creates a single elimination, opens
registration, approves them, opens check-in and checks the last one in; the
organiser enters some results (a score, a game at a time), players submit
logs (files the simulator made, uploaded through the submit page) and confirm
each other's; one result is corrected; the placings come out right. Every
page is checked to ask nothing of any host but the site's own, and the pages
are photographed on a desktop and on a 390 px phone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from playwright.sync_api import Page, expect

from matches.models import Match
from tests.factories import make_user, won_log
from tournaments.models import Entrant, Tournament, TournamentMatch
from web.presenters.names import pairing_names

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["ava", "bo", "cy", "di", "ed", "flo"]
PASSWORD = "copper-lantern-42"
PHONE = {"width": 390, "height": 844}


class Site:
    """The pages of one test, each watched for requests to any other host."""

    def __init__(self, live_server: Any, new_page: Callable[..., Page]) -> None:
        self.url = live_server.url
        self.new_page = new_page
        self.foreign: list[str] = []

    def page(self, **size: Any) -> Page:
        page = self.new_page(**size)
        page.on("request", self._watch)
        return page

    def _watch(self, request: Any) -> None:
        if not (request.url.startswith(self.url) or request.url.startswith(("data:", "blob:", "about:"))):
            self.foreign.append(request.url)

    def log_in(self, page: Page, username: str, password: str) -> None:
        page.goto(f"{self.url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{self.url}/")


def _sign_up(site: Site, handle: str) -> Page:
    page = site.page()
    page.goto(f"{site.url}/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Handle").fill(handle)
    page.get_by_label("Your name").fill(handle.title())
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{site.url}/me/")
    expect(page.get_by_role("heading", name="My matches")).to_be_visible()
    return page


def _pairings(tournament: Tournament) -> dict[str, TournamentMatch]:
    return {
        p.key: p
        for p in TournamentMatch.objects.filter(tournament=tournament).select_related("player_one", "player_two")
    }


def _ready(tournament: Tournament) -> list[TournamentMatch]:
    return [p for p in _pairings(tournament).values() if p.status == TournamentMatch.Status.READY]


def _upload_log(site: Site, page: Page, pairing: TournamentMatch, winner: str, seed: int) -> None:
    """The winner's side submits a simulated log of a game it won, from "My matches"."""
    assert pairing.player_one is not None and pairing.player_two is not None
    names = [pairing.player_one.handle, pairing.player_two.handle]
    document = won_log("speed", names, winner_seat=names.index(winner), start=seed)
    page.goto(f"{site.url}/me/")
    page.locator("[data-role=to-log]").get_by_role("link", name="Submit the log").first.click()
    expect(page.get_by_label("Game")).to_have_value(re.compile(r"\d+"))
    page.get_by_label("Game").select_option(str(Match.objects.get(pk=pairing.match_id).games.get(status="open").pk))
    page.get_by_label("Upload the log file").set_input_files(
        files=[{"name": "game.json", "mimeType": "application/json", "buffer": orjson.dumps(document)}]
    )
    page.get_by_role("button", name="Submit for verification").click()
    expect(page.locator(".verify-status__title")).to_have_text("Verified")


def _confirm_on_my_page(site: Site, page: Page) -> None:
    page.goto(f"{site.url}/me/")
    confirm = page.locator("[data-role=to-confirm]").get_by_role("button", name="Confirm")
    expect(confirm).to_have_count(1)
    confirm.click()
    expect(page.get_by_text("Game 1 confirmed.")).to_be_visible()


def test_a_whole_single_elimination_through_the_pages(
    live_server: Any, new_page: Callable[..., Page], shot: Callable[[Page, str], Any]
) -> None:
    site = Site(live_server, new_page)
    make_user("orga", organiser=True)  # the one account not made through a page: organisers are appointed
    players = {handle: _sign_up(site, handle) for handle in PLAYERS}

    # The organiser creates the event: the form shows only the chosen format's options.
    orga = site.page()
    site.log_in(orga, "orga", "pw-for-tests")
    orga.goto(f"{site.url}/organise/tournaments/new/")
    orga.get_by_label("Name").fill("Friday Cup")
    orga.get_by_label("Description").fill("Six players, one bracket.")
    orga.get_by_label("Format").select_option("single_elimination")
    expect(orga.get_by_label("Swiss rounds")).to_be_hidden()
    expect(
        orga.locator("fieldset[data-formats=single_elimination]").get_by_label("Play a third-place match")
    ).to_be_visible()
    expect(orga.locator("fieldset[data-formats=groups_playoffs]")).to_be_hidden()
    orga.get_by_label("Games").fill("1")
    orga.get_by_role("button", name="Create the tournament").click()
    expect(orga).to_have_url(re.compile(r"/organise/tournaments/\d+/$"))
    cup = Tournament.objects.get(name="Friday Cup")
    manage = f"{site.url}/organise/tournaments/{cup.pk}/"
    orga.get_by_role("button", name="Open registration").click()
    expect(orga.get_by_text("Registration open", exact=True)).to_be_visible()

    # Players register; the organiser approves each, in sign-up order (the seeds).
    for page in players.values():
        page.goto(f"{site.url}/tournaments/{cup.pk}/")
        page.get_by_role("button", name="Register").click()
        expect(page.locator("[data-role=join]")).to_contain_text("An organiser will approve your entry.")
    orga.goto(manage)
    for handle in PLAYERS:
        orga.get_by_role("button", name=f"Approve {handle}").click()
        expect(orga.get_by_text(f"{handle} entered.")).to_be_visible()
    orga.get_by_role("button", name="Open check-in").click()
    for handle in PLAYERS[:5]:
        page = players[handle]
        page.goto(f"{site.url}/tournaments/{cup.pk}/")
        page.get_by_role("button", name="Check in").click()
        expect(page.get_by_text("Checked in for Friday Cup.")).to_be_visible()
    orga.goto(manage)
    expect(orga.locator("[data-role=absent]")).to_contain_text("flo")
    orga.get_by_role("button", name="Check flo in").click()
    expect(orga.locator("[data-role=absent]")).to_have_count(0)
    shot(orga, "event-manage-before-start-desktop")
    orga.locator("[data-role=start]").click()
    orga.get_by_role("button", name="Start now").click()
    expect(orga).to_have_url(f"{site.url}/tournaments/{cup.pk}/")
    assert [e.player.handle for e in Entrant.objects.filter(tournament=cup).select_related("player")] == PLAYERS
    expect(orga.locator("[data-role=up-next] li")).to_have_count(2)
    names = pairing_names(_pairings(cup).values())

    # Quarter-final 1: the organiser enters the score on the match page.
    first, second = sorted(_ready(cup), key=lambda p: p.position)
    assert first.player_one is not None and first.player_two is not None
    expect(orga.locator("[data-role=up-next]")).to_contain_text(names[first.key])
    assert names[first.key].startswith("Quarter-final")
    orga.goto(f"{site.url}/matches/{first.match_id}/")
    orga.locator("#games-one").fill("1")
    orga.locator("#games-two").fill("0")
    orga.locator("#score-reason").fill("Score sheet from the table")
    orga.get_by_role("button", name="Enter the score").click()
    expect(orga.get_by_text("Score entered.")).to_be_visible()
    expect(orga.locator("[data-role=series-score]")).to_have_text("1\N{EN DASH}0")

    # Quarter-final 2: called to a table; one player's log, the opponent confirms from "My matches".
    assert second.player_one is not None and second.player_two is not None
    orga.goto(f"{site.url}/matches/{second.match_id}/")
    orga.get_by_label("Station or table").fill("Table 2")
    orga.get_by_role("button", name="Mark underway").click()
    expect(orga.locator("[data-role=station]")).to_have_text("Table 2")
    orga.goto(f"{site.url}/tournaments/{cup.pk}/")
    expect(orga.locator("[data-role=underway]")).to_contain_text("Table 2")
    shot(orga, "event-tournament-underway-desktop")
    two_winner = second.player_two.handle
    _upload_log(site, players[two_winner], second, two_winner, seed=0)
    loser_page = players[second.player_one.handle]
    loser_page.goto(f"{site.url}/me/")
    expect(loser_page.locator("[data-role=waiting-count]").first).to_contain_text("1")
    shot(loser_page, "event-my-matches-desktop")
    _confirm_on_my_page(site, loser_page)

    # The organiser corrects quarter-final 1: the other player really won.
    orga.goto(manage)
    orga.get_by_role("link", name=f"Correct {names[first.key]}").click()
    corrected_winner = first.player_two.handle
    orga.get_by_role("radio", name=corrected_winner, exact=True).check()
    orga.get_by_role("button", name="Preview the change").click()
    expect(orga.locator("[data-role=preview]")).to_contain_text(corrected_winner)
    orga.get_by_placeholder("Why (kept in the history)").fill("The table reported the wrong player")
    orga.get_by_role("button", name="Apply the correction").click()
    expect(orga.get_by_text(f"{names[first.key]} corrected: {corrected_winner} won.")).to_be_visible()

    # Semi-finals: one set a game at a time by the organiser, one by the players.
    semis = sorted((p for p in _ready(cup) if p.bracket == "main"), key=lambda p: p.position)
    assert len(semis) == 2
    semi_one, semi_two = semis
    assert semi_one.player_one is not None and semi_one.player_two is not None
    assert semi_two.player_one is not None and semi_two.player_two is not None
    orga.goto(f"{site.url}/matches/{semi_one.match_id}/")
    form = orga.locator("[data-role=game-result][data-game='1']")
    form.get_by_label(f"{semi_one.player_one.handle} won").check()
    form.get_by_placeholder("Reason").fill("Seen at the table")
    form.get_by_role("button", name="Set game 1").click()
    expect(orga.get_by_text(f"Game 1: {semi_one.player_one.handle} won.")).to_be_visible()
    _upload_log(site, players[semi_two.player_one.handle], semi_two, semi_two.player_one.handle, seed=100)
    opponent = players[semi_two.player_two.handle]
    opponent.goto(f"{site.url}/matches/{semi_two.match_id}/")
    opponent.get_by_role("button", name="Confirm").click()
    expect(opponent.get_by_text("Game 1 confirmed.")).to_be_visible()

    # The final: the second seat's log, confirmed by the first from "My matches".
    (final,) = _ready(cup)
    assert final.player_one is not None and final.player_two is not None
    champion, runner_up = final.player_two.handle, final.player_one.handle
    _upload_log(site, players[champion], final, champion, seed=200)
    _confirm_on_my_page(site, players[runner_up])

    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    semi_losers = {semi_one.player_two.handle, semi_two.player_two.handle}
    quarter_losers = {first.player_one.handle, second.player_one.handle}
    orga.goto(f"{site.url}/tournaments/{cup.pk}/")
    rows = orga.locator("[data-role=standings] tbody tr")
    expect(rows).to_have_count(6)
    placings = [
        (rows.nth(i).locator("td").first.inner_text(), rows.nth(i).locator("th").inner_text()) for i in range(6)
    ]
    assert placings[0] == ("1", champion)
    assert placings[1] == ("2", runner_up)
    assert {name for place, name in placings[2:4]} == semi_losers and {p for p, _ in placings[2:4]} == {"3-4"}
    assert {name for place, name in placings[4:6]} == quarter_losers and {p for p, _ in placings[4:6]} == {"5-6"}
    shot(orga, "event-finished-desktop")

    # A phone: the menu opens, nothing is wider than the screen.
    phone = site.page(**PHONE)
    site.log_in(phone, champion, PASSWORD)
    for path, name in [
        (f"/tournaments/{cup.pk}/", "event-tournament-phone"),
        (f"/matches/{final.match_id}/", "event-match-phone"),
        ("/me/", "event-my-matches-phone"),
        (f"/tournaments/{cup.pk}/embed/", "event-embed-phone"),
    ]:
        phone.goto(f"{site.url}{path}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
        shot(phone, name)
    phone.goto(f"{site.url}/")
    expect(phone.get_by_role("link", name="My matches")).to_be_hidden()
    phone.get_by_role("button", name="Menu").click()
    expect(phone.get_by_role("link", name="My matches")).to_be_visible()
    shot(phone, "event-menu-phone")
    orga_phone = site.page(**PHONE)
    site.log_in(orga_phone, "orga", "pw-for-tests")
    orga_phone.goto(manage)
    assert orga_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(orga_phone, "event-manage-phone")

    assert site.foreign == [], f"pages asked other hosts: {site.foreign}"
