"""The table page's life around the game (speed-table/1 amendment L) in real browsers against Daphne.

A second tab takes the seat and the first can take it back; abort before the first card; resign
behind a confirmation; a claim once the opponent's page is gone, counted on the server's clock
even when the computer's clock is an hour out; and a socket closed with 4013 in a database outage
reconnects by itself once the database is back. The pages play as a person would (see
test_table_browser.py, whose helpers these share).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from matches.models import Game, Match
from play.models import Table
from play.services import table_open_for_game
from tests.factories import make_match, make_player
from tests.play.servers import database_url
from tests.proxy import CuttableProxy
from tests.web.conftest import TABLE_SERVER_SETTINGS, PageErrors
from tests.web.test_table_browser import log_in, status, try_a_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("time_to_sit_down")]


def _table(match: Match) -> Table:
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=match.player_one.user)
    return table


def _seat(new_page: Callable[..., Page], server: AsgiServer, handle: str, table: Table) -> Page:
    page = new_page()
    log_in(page, server, handle)
    page.goto(f"{server.url}/tables/{table.pk}/")
    _has_state(page)
    return page


def _has_state(page: Page) -> None:
    """Connected, and the first state drawn (the socket opens before the consumer sends it)."""
    expect(page.locator("[data-role=link]")).to_have_text("Connected")
    expect(page.locator("[data-table]")).to_have_attribute("data-v", re.compile(r"^\d+$"))


def _start(pages: list[Page]) -> None:
    for page in pages:
        page.get_by_role("button", name="I'm ready").click()
    for page in pages:
        expect(page.locator("[data-table]")).to_have_attribute(
            "data-status", re.compile("playing|stuck"), timeout=15_000
        )


def _to_draw(page: Page, seat: int) -> int:
    """A seat's draw pile as the page shows it ("5 cards in hand · 15 to draw")."""
    facts = page.locator(f'[data-role=seats] [data-seat="{seat}"] [data-role=seat-facts]').text_content() or ""
    found = re.search(r"(\d+) to draw", facts)
    assert found, facts
    return int(found.group(1))


def _play_one(page: Page, seat: int, *, also: tuple[Page, ...] = (), seconds: float = 60) -> None:
    """Play from this page until one of its seat's cards lands (its draw pile shrinks as its hand refills);
    the pages `also` play too, so a hand that fits nothing is freed by the other seat's cards."""
    before = _to_draw(page, seat)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _to_draw(page, seat) < before:
            return
        moved = [try_a_play(each) for each in (page, *also)]
        page.wait_for_timeout(300 if any(moved) else 150)
    raise AssertionError(f"no card of seat {seat} landed within {seconds} s ({status(page)})")


def _game(match: Match) -> Game:
    return Game.objects.get(match=match, number=1)


def test_a_second_tab_takes_the_seat_and_the_first_can_take_it_back(
    asgi_server: AsgiServer,
    new_page: Callable[..., Page],
    page_errors: list[PageErrors],
    shot: Callable[[Page, str], object],
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, best_of=1)
    table = _table(match)
    first = _seat(new_page, asgi_server, "alice", table)
    other = _seat(new_page, asgi_server, "ben", table)
    _start([first, other])
    _play_one(first, 0, also=(other,))

    # The same person opens the table in a second tab of the same browser: the seat moves there.
    second = first.context.new_page()
    second.set_default_timeout(10_000)
    page_errors.append(PageErrors(second))
    second.goto(first.url)
    _has_state(second)
    lost = first.locator("[data-role=lost]")
    expect(lost).to_be_visible()
    expect(lost).to_contain_text("This seat is now open in another tab")
    expect(first.locator("[data-role=link]")).to_have_text("In another tab")
    for card in first.locator("[data-role=hand] [data-card]").all():
        expect(card).to_be_disabled()
    for pile in first.locator("[data-role=piles] [data-pile]").all():
        expect(pile).to_be_disabled()
    expect(first.locator("[data-role=resign]")).to_be_hidden()
    shot(first, "table-replaced")
    # It does not come back by itself: the seat stays with the newer tab, which plays.
    first.wait_for_timeout(1500)
    expect(second.locator("[data-role=lost]")).to_be_hidden()
    _play_one(second, 0, also=(other,))

    # "Play here instead": the first tab takes the seat back and the second is told. The first tab's
    # refs are its own (a token per page load), so its next play is not taken for the second's.
    first.get_by_role("button", name="Play here instead").click()
    expect(first.locator("[data-role=link]")).to_have_text("Connected")
    expect(first.locator("[data-role=lost]")).to_be_hidden()
    expect(second.locator("[data-role=lost]")).to_contain_text("This seat is now open in another tab")
    _play_one(first, 0, also=(other,))
    assert status(first) in ("playing", "stuck", "over")


def test_a_page_logged_out_elsewhere_stops_and_links_to_the_login(
    asgi_server: AsgiServer, new_page: Callable[..., Page], page_errors: list[PageErrors]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    table = _table(make_match(alice, ben, best_of=1))
    page = _seat(new_page, asgi_server, "alice", table)
    elsewhere = page.context.new_page()
    page_errors.append(PageErrors(elsewhere))
    elsewhere.goto(f"{asgi_server.url}/")
    elsewhere.get_by_role("button", name="Log out").click()
    # The seat's heartbeat finds the session gone and closes with 4003: no reconnecting by itself.
    expect(page.locator("[data-role=lost]")).to_contain_text("You were logged out")
    expect(page.locator("[data-role=link]")).to_have_text("Logged out")
    expect(page.get_by_role("button", name="I'm ready")).to_be_hidden()
    expect(page.locator("[data-role=lost-retry]")).to_be_hidden()
    login = page.get_by_role("link", name="Log in again")
    expect(login).to_have_attribute("href", f"/accounts/login/?next=/tables/{table.pk}/")
    page.wait_for_timeout(1500)
    expect(page.locator("[data-role=link]")).to_have_text("Logged out")


def test_abort_before_the_first_card_ends_the_table_with_nothing_decided(
    asgi_server: AsgiServer, new_page: Callable[..., Page]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, best_of=1)
    table = _table(match)
    pages = [_seat(new_page, asgi_server, handle, table) for handle in ("alice", "ben")]
    for page in pages:
        expect(page.get_by_role("button", name="Abort the game")).to_be_visible()  # while waiting
        expect(page.get_by_role("button", name="Resign")).to_be_hidden()
    _start(pages)
    # Playing, but no card played yet: still abortable, and already resignable.
    expect(pages[1].get_by_role("button", name="Abort the game")).to_be_visible()
    pages[1].get_by_role("button", name="Abort the game").click()
    for page in pages:
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "aborted")
        expect(page.locator("[data-role=status]")).to_have_text("Aborted")
        expect(page.get_by_role("button", name="Abort the game")).to_be_hidden()
        expect(page.locator("[data-role=log-wait]")).to_be_hidden()
    expect(pages[0].locator("[data-role=result]")).to_have_text(
        "ben aborted the game before the first card. Nothing is decided; the game stays open."
    )
    expect(pages[1].locator("[data-role=result]")).to_contain_text("You aborted the game before the first card.")
    assert _game(match).status == Game.Status.OPEN


def test_resign_asks_first_then_decides_the_game_on_both_pages(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, best_of=1)
    table = _table(match)
    pages = [_seat(new_page, asgi_server, handle, table) for handle in ("alice", "ben")]
    _start(pages)
    _play_one(pages[0], 0, also=(pages[1],))
    expect(pages[0].get_by_role("button", name="Abort the game")).to_be_hidden()  # a card was played

    resign = pages[0].get_by_role("button", name="Resign")
    dialog = pages[0].locator("[data-role=resign-dialog]")
    resign.click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("ben wins the game")
    shot(pages[0], "table-resign-dialog")
    pages[0].get_by_role("button", name="Keep playing").click()
    expect(dialog).to_be_hidden()
    pages[0].wait_for_timeout(300)
    assert status(pages[0]) in ("playing", "stuck"), "keeping on playing resigned nothing"

    resign.click()
    pages[0].get_by_role("button", name="Yes, resign").click()
    for page in pages:
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "over")
        expect(page.locator("[data-role=replay]")).to_be_visible(timeout=30_000)
    words = re.compile(r"resigned at \d+:\d\d\.\d: ")
    expect(pages[0].locator("[data-role=result]")).to_have_text(
        re.compile(r"^You " + words.pattern + "ben won by forfeit\\.$")
    )
    expect(pages[1].locator("[data-role=result]")).to_have_text(
        re.compile(r"^alice " + words.pattern + "you won by forfeit\\.$")
    )
    game = _game(match)
    assert game.decided_by == Game.DecidedBy.FORFEIT and game.winner_id == ben.pk

    # The match page, the log's page and the replay say it was a forfeit, and who resigned.
    pages[1].goto(f"{asgi_server.url}/matches/{match.pk}/")
    expect(pages[1].locator("[data-role=forfeit]")).to_contain_text("alice resigned at the table at")
    pages[1].goto(f"{asgi_server.url}/logs/{game.logs.get().pk}/")
    expect(pages[1].locator("[data-role=result]")).to_contain_text("ben won the game by forfeit (alice resigned")
    pages[1].goto(f"{asgi_server.url}/replays/{game.logs.get().pk}/")
    expect(pages[1].locator(".replay-banner")).to_contain_text("ended early at the table")
    expect(pages[1].locator(".replay-banner")).not_to_contain_text("deadlock")


# Runs before the page's scripts: this computer's clock is an hour fast.
CLOCK_AN_HOUR_FAST = """
(() => {
  const real = Date.now.bind(Date);
  Date.now = () => real() + 3600 * 1000;
})();
"""


def test_a_claim_once_the_opponent_left_counted_on_the_servers_clock(
    asgi_server: AsgiServer, new_page: Callable[..., Page], settings: Any, shot: Callable[[Page, str], object]
) -> None:
    settings.SPEED_TABLE_SETTINGS = {**settings.SPEED_TABLE_SETTINGS, "claim_ms": 4000}
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, best_of=1)
    table = _table(match)
    page = new_page()
    page.add_init_script(CLOCK_AN_HOUR_FAST)
    log_in(page, asgi_server, "alice")
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    _has_state(page)
    other = _seat(new_page, asgi_server, "ben", table)
    _start([page, other])
    claim = page.get_by_role("button", name="Claim the game")
    expect(claim).to_be_hidden()

    other.close()  # ben's page is gone
    away = page.locator("[data-role=away-line]")
    expect(away).to_contain_text("ben has been away for 0:0")
    expect(away).to_contain_text("you may claim the game")
    expect(page.locator('[data-role=seats] [data-seat="1"] [data-role=away-for]')).to_have_text(
        re.compile(r"^away 0:0\d$")
    )
    assert claim.is_hidden(), "not before claim_at"
    shot(page, "table-away")
    expect(claim).to_be_visible(timeout=10_000)
    expect(away).to_contain_text("You may claim the game.")
    claim.click()
    expect(page.locator("[data-table]")).to_have_attribute("data-status", "over")
    expect(page.locator("[data-role=result]")).to_have_text(
        re.compile(r"^ben left the table: you claimed the game at \d+:\d\d\.\d and won by forfeit\.$")
    )
    game = _game(match)
    assert game.decided_by == Game.DecidedBy.FORFEIT and game.winner_id == alice.pk


def test_a_database_outage_closes_with_4013_and_the_page_reconnects_by_itself(
    transactional_db: None, new_page: Callable[..., Page]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, best_of=1)
    table = _table(match)
    with (
        CuttableProxy(5432) as database,
        AsgiServer(settings_module=TABLE_SERVER_SETTINGS, env={"DATABASE_URL": database_url(database.port)}) as server,
    ):
        page = _seat(new_page, server, "alice", table)
        database.cut()
        try:
            # An intent needs the database: the edge answers `unavailable` and closes with 4013, and the
            # page waits for the server's retry_after_ms, then keeps trying (each handshake meets 4013 too).
            page.get_by_role("button", name="I'm ready").click()
            expect(page.locator("[data-role=link]")).to_have_text(
                re.compile(r"^Service unavailable: reconnecting in \d+ s…$")
            )
            expect(page.locator("[data-role=lost]")).to_be_hidden()
            page.wait_for_timeout(1000)
        finally:
            database.restore()
        expect(page.locator("[data-role=link]")).to_have_text("Connected", timeout=30_000)
        expect(page.get_by_role("button", name="I'm ready")).to_be_enabled()
        page.get_by_role("button", name="I'm ready").click()
        expect(page.get_by_role("button", name=re.compile("Ready: waiting"))).to_be_visible()
        page.close()  # before its server goes: a page left open would keep trying to reconnect
