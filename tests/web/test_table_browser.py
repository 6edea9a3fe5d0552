"""The table page in real browsers against the real ASGI server (Daphne), sockets and all.

Django's `live_server` is WSGI and serves no WebSocket, so `asgi_server`
starts Daphne in a subprocess on the test database (transactional tests, so
it sees what the test made). The pages play as a person would: they read the
hand and the piles off the page, choose a card that fits (by the engine's
fit table), and click the card and then the pile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from benchmarks.asgi_server import AsgiServer
from matches.models import Game, Match
from speedrules.cards import CARD_ID, EMPTY_PILE, fit_table_of
from tests.factories import PASSWORD, make_match, make_player
from tests.web.conftest import PageErrors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = fit_table_of(False, False)  # the "speed" preset's fit rule
GAME_SECONDS = 150


@pytest.fixture
def asgi_server(transactional_db: None) -> Iterator[AsgiServer]:
    # The tests' settings (short stalls and countdown, quick bots), on the test database; Daphne's
    # own process verifies the table's log in-process (eager tasks), as the tests do.
    with AsgiServer(settings_module="speedsite.test_settings") as server:
        yield server


def log_in(page: Page, server: AsgiServer, handle: str) -> None:
    page.goto(f"{server.url}/accounts/login/")
    page.get_by_label("Username").fill(handle)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{server.url}/")


def status(page: Page) -> str:
    return page.locator("[data-table]").get_attribute("data-status") or ""


def try_a_play(page: Page) -> bool:
    """Click a hand card that fits a pile, then that pile; False when none fits (or the page is not playing)."""
    if status(page) != "playing":
        return False
    seen = page.evaluate(
        """() => ({
            hand: [...document.querySelectorAll('[data-role=hand] [data-card]')].map(b => b.dataset.card),
            piles: [...document.querySelectorAll('[data-role=piles] [data-pile]')].map(b => b.dataset.top || null),
        })"""
    )
    for index, card in enumerate(seen["hand"]):
        for pile, top in enumerate(seen["piles"]):
            if FITS[CARD_ID[card]][CARD_ID[top] if top else EMPTY_PILE]:
                # The table moves on meanwhile (the other side plays, the game ends): a click on a
                # card that changed is simply tried again with what the page shows then.
                try:
                    page.locator(f'[data-role=hand] [data-index="{index}"][data-card="{card}"]').click(timeout=1500)
                    page.locator(f'[data-role=piles] [data-pile="{pile}"]').click(timeout=1500)
                except PlaywrightTimeout:
                    return False
                return True
    return False


def play_out(pages: list[Page]) -> None:
    """Play on every page in turn until each shows the game over."""
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        if all(status(page) == "over" for page in pages):
            return
        moved = [try_a_play(page) for page in pages]
        if not any(moved):
            pages[0].wait_for_timeout(100)
    raise AssertionError(f"the game did not end within {GAME_SECONDS} s: {[status(page) for page in pages]}")


def game_won(match: Match) -> bool:
    return Game.objects.get(match=match, number=1).status == Game.Status.DECIDED


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px wide)"


def test_two_players_play_a_game_that_decides_their_match(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, best_of=1)
    pages = []
    for player in (alice, ben):
        page = new_page()
        log_in(page, asgi_server, player.handle)
        page.goto(f"{asgi_server.url}/matches/{match.pk}/")
        page.get_by_role("button", name="Play at a table: game 1").click()
        page.wait_for_url(f"{asgi_server.url}/tables/*/")
        expect(page.locator("[data-role=seats]")).to_contain_text("alice")
        pages.append(page)
    assert pages[0].url == pages[1].url, "both players are at the one table of the game"
    watcher = new_page()  # not signed in: a spectator
    watcher.goto(pages[0].url)
    expect(watcher.locator("[data-role=you]")).to_have_text("You are watching this table.")
    for page in pages:
        page.get_by_role("button", name="I'm ready").click()
    for page in pages:
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "playing", timeout=15_000)
        expect(page.locator("[data-role=hand] [data-card]")).to_have_count(5)
    shot(pages[0], "table-playing")

    play_out(pages)

    for page in pages:
        expect(page.locator("[data-role=result]")).not_to_be_empty()
        expect(page.locator("[data-role=replay]")).to_be_visible(timeout=30_000)
        expect(page.locator("[data-role=proof-check]")).to_contain_text("✓ Checked in your browser", timeout=15_000)
    shot(pages[0], "table-over")
    expect(watcher.locator("[data-table]")).to_have_attribute("data-status", "over")
    expect(watcher.locator("[data-role=hand-box]")).to_be_hidden()
    expect(watcher.locator("[data-role=ready]")).to_be_hidden()
    expect(watcher.locator("[data-role=piles] [data-pile]")).to_have_count(2)
    expect(watcher.locator("[data-role=result]")).to_contain_text("won" if game_won(match) else "Deadlock")
    game = Game.objects.get(match=match, number=1)
    assert game.decided_by == "table"
    match.refresh_from_db()
    if game.status == Game.Status.DECIDED:
        assert match.status == Match.Status.FINISHED
        winner = "alice" if match.winner_id == alice.pk else "ben"
        expect(pages[0].locator("[data-role=result]")).to_contain_text("won")
        assert (winner == "alice") == ("You won" in (pages[0].locator("[data-role=result]").text_content() or ""))
    else:  # a deadlock voids the game, as any verified deadlocked log does
        assert game.status == Game.Status.VOID

    pages[1].locator("[data-role=replay]").click()
    pages[1].wait_for_url(f"{asgi_server.url}/replays/*/")
    expect(pages[1].locator("[data-replay]")).to_be_visible()


def test_practice_against_a_bot_on_a_phone_through_a_server_restart(
    asgi_server: AsgiServer,
    new_page: Callable[..., Page],
    shot: Callable[[Page, str], object],
    page_errors: list[PageErrors],
) -> None:
    make_player("chloe")
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    log_in(page, asgi_server, "chloe")
    expect(page.get_by_role("navigation", name="Main", include_hidden=True).locator('a[href="/play/"]')).to_have_count(
        1
    )
    page.goto(f"{asgi_server.url}/play/")
    page.get_by_label("Ruleset").select_option("speed")
    page.get_by_label("Easy: slow hands").check()
    page.get_by_role("button", name="Start a practice table").click()
    page.wait_for_url(f"{asgi_server.url}/tables/*/")
    expect(page.locator("[data-role=seats] li")).to_have_count(2)
    page.get_by_role("button", name="I'm ready").tap()
    expect(page.locator("[data-table]")).to_have_attribute("data-status", "playing", timeout=15_000)
    no_sideways_scroll(page)
    shot(page, "table-practice-phone")

    # The server dies mid-game: the page reconnects to the new process, gets the whole state, plays on.
    for _ in range(3):
        try_a_play(page)
    assert status(page) in ("playing", "stuck")
    asgi_server.restart()
    expect(page.locator("[data-role=link]")).to_have_text("Connected", timeout=20_000)
    # Chromium itself logs each refused attempt while the server was down: those are this test's doing.
    for errors in page_errors:
        errors.messages = [text for text in errors.messages if "ERR_CONNECTION_REFUSED" not in text]

    play_out([page])

    expect(page.locator("[data-role=result]")).not_to_be_empty()
    expect(page.locator("[data-role=replay]")).to_be_visible(timeout=30_000)
    no_sideways_scroll(page)
    shot(page, "table-practice-over")
    page.locator("[data-role=replay]").click()
    expect(page.locator("[data-replay]")).to_be_visible()
