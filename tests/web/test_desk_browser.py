"""The organiser's desk and the player's words in headless Chromium, on a 390 px phone.

Ben and Cy play a cup's match: Ben reports a win on the match page (Cy gets
the email to confirm; Ben is not offered to dispute his own claim), Cy
disputes it from the link in that email (the organiser gets the email), and
the organiser, on a phone, follows the navigation's badge to the desk and the
desk's "Settle" to the match's result form. The pages show no state names and
none scrolls sideways.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import Page, expect

from matches.models import Game
from matches.services import user_email_set
from tests.factories import PASSWORD, make_player, make_tournament, make_user, ready
from tournaments.services.registration import tournament_registration_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}


def _log_in(page: Page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/")


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width}px wide on a 390px screen"


def _emailed(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if address in message.to]


def test_a_dispute_found_through_the_desk_and_settled(
    live_server: Any, new_page: Callable[..., Page], shot: Callable[[Page, str], Any]
) -> None:
    url = live_server.url
    boss = make_user("boss", organiser=True)
    user_email_set(user=boss, email="boss@example.org")
    ben, cy = make_player("ben"), make_player("cy")
    for player in (ben, cy):
        user_email_set(user=player.user, email=f"{player.handle}@example.org")
    cup = make_tournament(boss, [ben, cy], format="single_elimination", name="Harbour cup")
    (final,) = ready(cup)
    match_path = f"/matches/{final.match_id}/"
    mail.outbox.clear()

    # Ben reports his win; he is not offered to dispute his own claim.
    ben_page = new_page(**PHONE)
    _log_in(ben_page, url, "ben")
    ben_page.goto(f"{url}{match_path}")
    report = ben_page.locator("[data-role=report]")
    report.get_by_label("ben").check()
    report.get_by_role("button", name="Report game 1").click()
    expect(ben_page.locator("[data-role=claim]")).to_be_visible()
    expect(ben_page.get_by_role("button", name="Dispute")).to_have_count(0)
    _no_sideways_scroll(ben_page)

    # Cy is emailed, opens the link, reads the history in words, and disputes.
    (claim,) = _emailed("cy@example.org")
    link = re.search(r"https?://\S+" + re.escape(match_path), claim.body)
    assert link is not None, claim.body
    cy_page = new_page(**PHONE)
    _log_in(cy_page, url, "cy")
    cy_page.goto(f"{url}{match_path}")
    history = cy_page.locator("[data-role=history]")
    expect(history).to_contain_text("being played → waiting for confirmation; the claim: ben won")
    expect(history).not_to_contain_text("awaiting_confirmation")
    cy_page.get_by_placeholder("Why it is wrong").fill("I played my last card first")
    cy_page.get_by_role("button", name="Dispute").click()
    expect(cy_page.get_by_text("an organiser will settle it")).to_be_visible()
    (dispute,) = _emailed("boss@example.org")
    assert "I played my last card first" in dispute.body and match_path in dispute.body

    # The organiser, on a phone: the menu's badge, the Organise link's count, the desk, Settle.
    boss_page = new_page(**PHONE)
    _log_in(boss_page, url, "boss")
    toggle = boss_page.locator("[data-role=nav-toggle]")
    expect(toggle.locator(".count")).to_have_text("1")
    toggle.click()
    organise = boss_page.locator("[data-role=organise-link]")
    expect(organise.locator("[data-role=desk-count]")).to_contain_text("1")
    organise.click()
    boss_page.wait_for_url(f"{url}/organise/")
    desk = boss_page.locator("[data-role=desk-disputes]")
    expect(desk).to_contain_text("Game 1 · ben v cy")
    expect(desk).to_contain_text("Harbour cup · Final")
    _no_sideways_scroll(boss_page)
    shot(boss_page, "desk-phone")
    desk.get_by_role("link", name="Settle").click()
    boss_page.wait_for_url(f"{url}{match_path}#enter-title")
    form = boss_page.locator("[data-role=game-result][data-game='1']")
    form.get_by_label("cy").check()
    form.get_by_placeholder("Reason").fill("The table's judge saw cy finish first")
    form.get_by_role("button", name="Set game 1").click()
    expect(boss_page.locator("[data-game='1']").first).to_contain_text("cy")
    assert Game.objects.get(match_id=final.match_id, number=1).winner_id == cy.pk
    _no_sideways_scroll(boss_page)

    # Nothing waits any more: no badge, and the desk says so.
    boss_page.goto(f"{url}/organise/")
    expect(boss_page.locator("[data-role=desk-count]")).to_have_count(0)
    expect(boss_page.locator("[data-role=desk-empty]")).to_be_visible()
    boss_page.goto(f"{url}/organise/tournaments/{cup.pk}/")
    expect(boss_page.locator("[data-role=desk-counts]")).to_contain_text("0 disputes")
    _no_sideways_scroll(boss_page)


def test_a_new_players_pages_and_emails_settings_at_390px(live_server: Any, new_page: Callable[..., Page]) -> None:
    url = live_server.url
    boss = make_user("boss", organiser=True)
    spring = make_tournament(boss, [], format="round_robin", name="Spring open", start=False)
    tournament_registration_set(tournament_id=spring.pk, user=boss, open=True)
    page = new_page(**PHONE)
    page.goto(f"{url}/accounts/signup/")
    page.get_by_label("Handle").fill("zoe")
    page.get_by_label("Your name").fill("Zoe")
    page.get_by_label("Email (optional)").fill("zoe@example.org")
    page.get_by_label("Password", exact=True).fill("kettle-harbour-19")
    page.get_by_label("Password again").fill("kettle-harbour-19")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{url}/me/")
    ways = page.locator("[data-role=ways-in]")
    expect(ways).to_contain_text("Start here")
    expect(ways.locator("[data-role=open-tournaments]")).to_contain_text("Spring open")
    _no_sideways_scroll(page)
    page.goto(f"{url}/accounts/notifications/")
    expect(page.get_by_label("Email", exact=True)).to_have_value("zoe@example.org")
    page.get_by_label("My match is called to a station").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your settings are saved.")).to_be_visible()
    expect(page.get_by_label("My match is called to a station")).not_to_be_checked()
    expect(page.get_by_label("A result waits for my confirmation")).to_be_checked()
    _no_sideways_scroll(page)
