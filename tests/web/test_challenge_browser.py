"""Two players who have never met find each other through a challenge, and play, in real browsers.

Daphne serves the site (`AsgiServer`, as in test_table_browser.py), so the
table's socket works: alice finds ben on the players' list and challenges
him, ben accepts under My matches and lands on the match, and both sit at the
game's one table from the match page and play the game out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from matches.models import Challenge, Game, Match
from tests.factories import make_player
from tests.web.test_table_browser import log_in, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_challenge_accepted_seats_both_players_at_the_matchs_table(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    make_player("alice"), make_player("ben")
    alice, ben = new_page(), new_page()
    log_in(alice, asgi_server, "alice")
    log_in(ben, asgi_server, "ben")

    # alice finds ben among the players and challenges him from his page.
    alice.goto(f"{asgi_server.url}/players/")
    alice.get_by_role("link", name="Ben").first.click()
    alice.locator("#main").get_by_role("link", name="Challenge", exact=True).click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("Challenge a player")
    expect(alice.get_by_label("Player to challenge")).to_have_value("ben")
    alice.get_by_label("Games").fill("1")
    shot(alice, "challenge-form")
    alice.get_by_role("button", name="Send the challenge").click()
    alice.wait_for_url(f"{asgi_server.url}/me/")
    expect(alice.locator("[data-role=challenge-sent]")).to_contain_text("You challenged ben")
    assert not Match.objects.exists()  # nothing to play, or report, before ben says yes

    # ben sees it under My matches and accepts: he lands on the match the challenge made.
    ben.goto(f"{asgi_server.url}/me/")
    received = ben.locator("[data-role=challenge-received]")
    expect(received).to_contain_text("alice challenges you")
    shot(ben, "challenge-received")
    received.get_by_role("button", name="Accept").click()
    match = Match.objects.get()
    ben.wait_for_url(f"{asgi_server.url}/matches/{match.pk}/")
    assert Challenge.objects.get().match == match

    # alice follows the accepted challenge to the match; both sit at its one table.
    alice.reload()
    alice.locator("[data-role=challenge-answered]").get_by_role("link", name="To the match").click()
    alice.wait_for_url(f"{asgi_server.url}/matches/{match.pk}/")
    for page in (ben, alice):
        page.get_by_role("button", name="Play at a table: game 1").click()
        page.wait_for_url(f"{asgi_server.url}/tables/*/")
        expect(page.locator("[data-role=seats]")).to_contain_text("alice")
    assert alice.url == ben.url, "both players are at the one table of the game"
    for page in (alice, ben):
        page.get_by_role("button", name="I'm ready").click()
    for page in (alice, ben):
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "playing", timeout=15_000)
    shot(alice, "challenge-table-playing")
    play_out([alice, ben])
    for page in (alice, ben):
        expect(page.locator("[data-role=result]")).not_to_be_empty()
    game = Game.objects.get(match=match, number=1)
    assert game.decided_by == Game.DecidedBy.TABLE  # the table recorded the game of the challenge's match
