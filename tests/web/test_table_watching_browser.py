"""A table's page says how many watch it: a spectator's page opens and closes, the seat's page counts it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from play.services import table_practice_create
from tests.factories import make_player
from tests.web.test_table_browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The page polls every five seconds: a count may take that long, and a loaded machine longer.
WITHIN_MS = 20_000


def test_the_seats_page_sees_a_spectator_come_and_go(asgi_server: AsgiServer, new_page: Callable[..., Page]) -> None:
    ben = make_player("ben")
    table = table_practice_create(user=ben.user, ruleset="speed", bots=["easy"])
    seat = new_page()
    log_in(seat, asgi_server, ben.handle)
    seat.goto(f"{asgi_server.url}/tables/{table.pk}/")
    expect(seat.locator("[data-role=seats]")).to_contain_text("ben")
    watching = seat.locator("[data-role=watching]")
    expect(watching).to_have_text("0 watching", timeout=WITHIN_MS)  # the seat is no spectator

    spectator = new_page()  # not signed in
    spectator.goto(f"{asgi_server.url}/tables/{table.pk}/")
    expect(spectator.locator("[data-role=you]")).to_have_text("You are watching this table.")
    expect(spectator.locator("[data-role=watching]")).to_have_text("1 watching", timeout=WITHIN_MS)
    expect(watching).to_have_text("1 watching", timeout=WITHIN_MS)

    spectator.close()
    expect(watching).to_have_text("0 watching", timeout=WITHIN_MS)
