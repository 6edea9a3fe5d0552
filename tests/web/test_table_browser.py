"""The table page in real browsers against the real ASGI server (Daphne), sockets and all.

Django's `live_server` is WSGI and serves no WebSocket, so `asgi_server`
starts Daphne in a subprocess on the test database (transactional tests, so
it sees what the test made). The pages play as a person would: they read the
hand and the piles off the page, choose a card that fits (by the engine's
fit table), and click the card and then the pile.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from benchmarks.asgi_server import AsgiServer
from matches.models import Game, Match
from play.services import table_open_for_game, table_practice_create
from speedrules.cards import CARD_ID, EMPTY_PILE, build_pack, fit_table_of
from tests.factories import PASSWORD, make_match, make_player
from tests.play.servers import database_url
from tests.proxy import CuttableProxy
from tests.web.conftest import PageErrors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("time_to_sit_down")]

FITS = fit_table_of(False, False)  # the "speed" preset's fit rule
GAME_SECONDS = 150


@pytest.fixture
def asgi_server_long_stall(transactional_db: None) -> Iterator[AsgiServer]:
    # The same with a stall long enough for a loaded machine's page to be seen choosing its flip.
    with AsgiServer(settings_module="tests.web.table_server_long_stall") as server:
        yield server


def log_in(page: Page, server: AsgiServer, handle: str) -> None:
    page.goto(f"{server.url}/accounts/login/")
    page.get_by_label("Username").fill(handle)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{server.url}/")


def status(page: Page) -> str:
    return page.locator("[data-table]").get_attribute("data-status") or ""


def seen(page: Page) -> dict[str, list[str | None]]:
    return page.evaluate(
        """() => ({
            hand: [...document.querySelectorAll('[data-role=hand] [data-card]')].map(b => b.dataset.card),
            piles: [...document.querySelectorAll('[data-role=piles] [data-pile]')].map(b => b.dataset.top || null),
        })"""
    )


def fits(card: str, top: str | None) -> bool:
    return FITS[CARD_ID[card]][CARD_ID[top] if top else EMPTY_PILE]


PILE_KEYS = "asdfghjk"


def try_a_play(page: Page, *, keys: bool = False) -> bool:
    """Play a hand card that fits a pile (a click on each, or their keys); False when none fits or not playing.

    When the page asks where the draw pile's card goes (California Speed), answer with the first pile.
    """
    flip = page.locator("[data-role=flip-choices] [data-flip]")
    if status(page) == "stuck" and flip.count():
        try:
            flip.first.click(timeout=1500)
        except PlaywrightTimeout:
            return False
        return True
    if status(page) != "playing":
        return False
    table = seen(page)
    for index, card in enumerate(table["hand"]):
        assert card is not None
        for pile, top in enumerate(table["piles"]):
            if fits(card, top):
                if keys:
                    page.keyboard.press(str(index + 1))
                    page.keyboard.press(PILE_KEYS[pile])
                    return True
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
        moved = [try_a_play(page, keys=index % 2 == 1) for index, page in enumerate(pages)]
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
    # The deal is fixed (the service's test hook); the pages then join the table already open.
    deck = build_pack(decks=1, jokers=0)
    random.Random(5).shuffle(deck)
    table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=deck)
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
    expect(pages[0].locator("[data-role=rtt]")).to_have_text(re.compile(r"^\d+ ms \(median \d+ ms\)$"))
    expect(pages[0].locator("[data-role=clock]")).to_have_text(re.compile(r"^\d+:\d\d\.\d$"))

    # A card that fits no pile is refused, and the page says why on the card.
    table = seen(pages[0])
    misfit = next(
        (i for i, card in enumerate(table["hand"]) if card and not any(fits(card, top) for top in table["piles"])),
        None,
    )
    assert misfit is not None, "the fixed deck deals alice a card that fits neither starter"
    if status(pages[0]) == "playing":
        pages[0].locator(f'[data-role=hand] [data-index="{misfit}"]').click()
        pages[0].locator('[data-role=piles] [data-pile="0"]').click()
        expect(pages[0].locator("[data-role=refusal]")).to_contain_text("It does not fit")

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
    asgi_server_long_stall: AsgiServer,
    new_page: Callable[..., Page],
    shot: Callable[[Page, str], object],
    page_errors: list[PageErrors],
) -> None:
    asgi_server = asgi_server_long_stall
    chloe = make_player("chloe")
    # California Speed, dealt so that nobody can move at the start: the page must ask for a flip.
    deck = build_pack(decks=1, jokers=0)
    random.Random(374).shuffle(deck)
    table = table_practice_create(user=chloe.user, ruleset="california", bots=["easy"], deck=deck)
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    log_in(page, asgi_server, "chloe")
    expect(page.get_by_role("navigation", name="Main", include_hidden=True).locator('a[href="/play/"]')).to_have_count(
        1
    )
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    expect(page.locator("[data-role=seats] li")).to_have_count(2)
    expect(page.locator("[data-role=piles] [data-pile]")).to_have_count(4)
    page.get_by_role("button", name="I'm ready").tap()
    expect(page.locator("[data-table]")).to_have_attribute("data-status", "stuck", timeout=15_000)
    expect(page.locator("[data-role=countdown]")).to_contain_text("Nobody can move")
    top = seen(page)["piles"][2]
    page.locator("[data-role=flip-choices] [data-flip]").nth(2).tap()
    expect(page.locator("[data-role=flip]")).to_be_hidden()
    expect(page.locator("[data-role=last]")).to_contain_text("Stalled", timeout=10_000)
    assert seen(page)["piles"][2] != top, "chloe's draw card went where she said"
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
    expect(page.locator("[data-role=proof-check]")).to_contain_text("✓ Checked in your browser", timeout=15_000)
    no_sideways_scroll(page)
    shot(page, "table-practice-over")
    page.locator("[data-role=replay]").click()
    expect(page.locator("[data-replay]")).to_be_visible()


def test_the_page_comes_back_after_a_database_outage_closed_its_socket_with_4013(
    transactional_db: None, new_page: Callable[..., Page]
) -> None:
    """Issue 30: a socket the server closed with 4013 ("try again later") is opened again by the page, which
    stopped for good on every other 4000-4999 close; the seat is still the player's, and the game goes on."""
    dara = make_player("dara")
    table = table_practice_create(user=dara.user, ruleset="speed", bots=["easy"])
    with CuttableProxy(5432) as database:
        server = AsgiServer(
            settings_module="tests.web.table_server_settings", env={"DATABASE_URL": database_url(database.port)}
        ).start()
        try:
            page = new_page()
            log_in(page, server, "dara")
            page.goto(f"{server.url}/tables/{table.pk}/")
            ready = page.get_by_role("button", name="I'm ready")
            expect(ready).to_be_visible()  # the table's first state is drawn
            database.cut()
            try:
                ready.click()  # needs the database: 4013
                expect(page.locator("[data-role=link]")).to_contain_text("Service unavailable: reconnecting in")
                expect(page.locator("[data-link]")).to_have_attribute("data-link", "retrying")
            finally:
                database.restore()
            expect(page.locator("[data-role=link]")).to_have_text("Connected", timeout=20_000)
            ready.click()
            expect(page.locator("[data-table]")).to_have_attribute("data-status", "playing", timeout=15_000)
            page.close()  # before its server stops, or it would try again
        finally:
            server.stop()
    assert "Exception inside application" not in server.log()
