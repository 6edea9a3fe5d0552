"""Playing again after a game, in real browsers against Daphne: both players say yes and sit at the next
game's table together (the helpers are those of test_table_life_browser.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from matches.models import Game
from play.models import TableAgain
from tests.factories import make_match, make_player
from tests.web.test_table_life_browser import _play_one, _seat, _start, _table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("time_to_sit_down")]


def test_both_players_say_play_again_and_land_at_the_next_games_table(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, best_of=3)
    table = _table(match)
    pages = [_seat(new_page, asgi_server, handle, table) for handle in ("alice", "ben")]
    _start(pages)
    _play_one(pages[0], 0, also=(pages[1],))
    pages[0].get_by_role("button", name="Resign").click()
    pages[0].get_by_role("button", name="Yes, resign").click()
    for page in pages:
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "over")
        expect(page.get_by_role("button", name="Play again")).to_be_visible()

    pages[0].get_by_role("button", name="Play again").click()
    expect(pages[0].locator("[data-role=again-words]")).to_have_text("Waiting for ben to say yes.")
    expect(pages[0].get_by_role("button", name="Play again")).to_be_hidden()
    # Ben's page learns of alice's yes from the socket, with no reload.
    expect(pages[1].locator("[data-role=again-words]")).to_have_text("alice would like to play again.")
    shot(pages[1], "table-play-again")
    pages[1].get_by_role("button", name="Play again").click()
    pages[1].wait_for_url(lambda url: not url.endswith(f"/tables/{table.pk}/"))

    new = TableAgain.objects.get(table=table).next_table
    assert new is not None and new.game == Game.objects.get(match=match, number=2)
    for page in pages:
        page.wait_for_url(re.compile(rf"/tables/{new.pk}/$"))
        expect(page.locator("[data-role=link]")).to_have_text("Connected")
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "waiting")
        expect(page.get_by_role("button", name="I'm ready")).to_be_visible()

    # The old table's page opened later stays there and links to the new table.
    pages[0].goto(f"{asgi_server.url}/tables/{table.pk}/")
    expect(pages[0].get_by_role("link", name="Go to the new table")).to_have_attribute("href", f"/tables/{new.pk}/")
    expect(pages[0].locator("[data-role=again-words]")).to_have_text("Everyone said yes: the new table is open.")
    assert pages[0].url.endswith(f"/tables/{table.pk}/")
