"""Someone sits down at a match's table: the other player's page says so without a reload, and its link leads there."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from play.services import table_open_for_game
from tests.factories import make_match, make_player
from tests.web.test_table_browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("time_to_sit_down")]

# The Daphne fixture and the time to sit down (a table not readied soon aborts), shared with the table page's tests.


def test_the_other_player_sees_the_banner_appear_and_follows_it_to_the_table(
    asgi_server: AsgiServer, new_page: Callable[..., Page]
) -> None:
    chloe, dan = make_player("chloe"), make_player("dan")
    match = make_match(chloe, dan, best_of=1)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=chloe.user)
    table_url = f"{asgi_server.url}/tables/{table.pk}/"

    dans = new_page()
    log_in(dans, asgi_server, "dan")
    dans.goto(f"{asgi_server.url}/me/")
    banner = dans.locator("[data-role=tables-waiting]")
    expect(banner).to_be_empty()

    chloes = new_page()
    log_in(chloes, asgi_server, "chloe")
    chloes.goto(table_url)
    expect(chloes.locator("[data-role=seats]")).to_contain_text("chloe")
    # While dan is away, chloe's table page says so: not here yet, and (once his page showed it) told.
    opponents = chloes.locator("[data-role=opponents]")
    expect(opponents).to_contain_text("dan is not here yet", timeout=15_000)

    # dan's page polls as it always does: the banner appears without a reload.
    expect(banner).to_contain_text("chloe is waiting at your table", timeout=15_000)
    expect(opponents).to_contain_text("told on their page", timeout=15_000)
    expect(opponents).to_contain_text("is on the site")

    dans.locator("[data-role=table-waiting-link]").click()
    dans.wait_for_url(table_url)
    expect(dans.locator("[data-role=you]")).to_contain_text("dan", timeout=15_000)
    expect(dans.locator("[data-role=table-waiting]")).to_have_count(0)  # not on this table's own page
    # Both are seated now: chloe's page stops waiting for him.
    expect(opponents).to_be_hidden(timeout=15_000)
    expect(chloes.locator("[data-role=seats]")).to_contain_text("dan")
