"""The lobby in real browsers against Daphne: one player posts a game, another accepts it, both sit at one table."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from matches.models import Match
from play.models import Seek, Table
from tests.factories import make_player
from tests.web.test_table_browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def post_a_casual_game(page: Page, server: AsgiServer) -> None:
    """Post a casual California game from the lobby, as a player would."""
    page.goto(f"{server.url}/play/")
    form = page.locator("[data-role=seek-form]")
    form.get_by_label("Ruleset").select_option("california")
    form.get_by_label("Casual: ratings stay as they are").check()
    page.get_by_role("button", name="Post a game").click()


def test_a_game_posted_in_the_lobby_seats_its_player_and_the_first_to_accept(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    make_player("alice")
    make_player("ben")
    seeker, accepter = new_page(), new_page(width=390, height=844)  # the accepter on a phone
    log_in(seeker, asgi_server, "alice")
    post_a_casual_game(seeker, asgi_server)
    expect(seeker.locator("[data-role=my-seek]")).to_contain_text("Waiting for an opponent: California, casual")

    log_in(accepter, asgi_server, "ben")
    accepter.goto(f"{asgi_server.url}/play/")
    offer = accepter.locator("[data-role=seeks] li", has_text="alice")
    expect(offer).to_contain_text("California · casual")
    shot(accepter, "lobby-open-game")
    offer.get_by_role("button", name="Accept").click()
    accepter.wait_for_url(f"{asgi_server.url}/tables/*/")

    # The seeker's lobby hears of it at its next poll and goes to the same table.
    seeker.wait_for_url(f"{asgi_server.url}/tables/*/", timeout=20_000)
    assert seeker.url == accepter.url
    table = Table.objects.get()
    assert seeker.url.endswith(f"/tables/{table.pk}/")
    for page in (seeker, accepter):
        expect(page.locator("[data-role=seats]")).to_contain_text("alice")
        expect(page.locator("[data-role=seats]")).to_contain_text("ben")
        page.get_by_role("button", name="I'm ready").click()
    for page in (seeker, accepter):
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "playing", timeout=15_000)
    match = Match.objects.get()
    assert not match.rated and match.ruleset_name == "california"
    assert Seek.objects.get().status == Seek.Status.TAKEN

    # Back in the lobby, the table is listed to watch and the seeker is not sent away again.
    seeker.goto(f"{asgi_server.url}/play/")
    expect(seeker.locator(f'[data-table-id="{table.pk}"]')).to_contain_text("alice")
    expect(seeker.locator("[data-role=lobby-go]")).to_be_visible()
    assert seeker.url.endswith("/play/")
