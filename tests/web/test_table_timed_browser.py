"""A timed match's table page in Chromium: the clock counts down for the seats and a spectator, and the game
ends by time on the cards played."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from matches.services import match_create
from play.models import Table
from play.services import table_open_for_game
from tests.factories import make_player
from tests.web.test_table_browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("time_to_sit_down")]

LIMIT_MS = 3_000


def _open(new_page: Callable[..., Page], server: AsgiServer, table: Table, handle: str | None) -> Page:
    page = new_page()
    if handle is not None:
        log_in(page, server, handle)
    page.goto(f"{server.url}/tables/{table.pk}/")
    expect(page.locator("[data-role=link]")).to_have_text("Connected")
    return page


def _left(page: Page) -> int:
    return int(page.locator("[data-role=time-limit]").get_attribute("data-left") or "-1")


def test_a_timed_tables_page_counts_the_clock_down_and_ends_by_time(
    asgi_server: AsgiServer, new_page: Callable[..., Page]
) -> None:
    alice = make_player("alice")
    make_player("ben")
    match = match_create(players=["alice", "ben"], ruleset="speed", best_of=1, time_limit_ms=LIMIT_MS)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user)
    pages = [_open(new_page, asgi_server, table, handle) for handle in ("alice", "ben")]
    watcher = _open(new_page, asgi_server, table, None)
    expect(watcher.locator("[data-role=time-limit]")).to_have_text("Timed game: 0:03.0 from the first card")
    for page in pages:
        page.get_by_role("button", name="I'm ready").click()
    for page in (*pages, watcher):
        expect(page.locator("[data-table]")).to_have_attribute(
            "data-status", re.compile("playing|stuck"), timeout=15_000
        )
    expect(watcher.locator("[data-role=time-limit]")).to_contain_text("Time left")
    first = _left(watcher)
    assert 0 <= first <= LIMIT_MS
    # Counting down: a later reading shows less time left (the page redraws it on its own, without a state).
    watcher.wait_for_function(
        f"() => Number(document.querySelector('[data-role=time-limit]').dataset.left) < {first}", timeout=10_000
    )
    for page in (*pages, watcher):
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "over", timeout=20_000)
        expect(page.locator("[data-role=time-limit]")).to_have_text(re.compile(r"^Time is up"))
        expect(page.locator("[data-role=result]")).to_contain_text("Time is up at")
        expect(page.locator("[data-role=result]")).to_contain_text("on the cards played")
    table.refresh_from_db()
    assert table.ended is not None and table.ended["by"] == "time"
