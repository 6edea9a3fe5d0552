"""The extension's games on the table page, in real browsers against Daphne: Spit between two people (one on a
phone, by taps; one on a desktop, by keys), Team Speed and Double Spit against bots, and a Speed Solitaire run,
each watched from a second page.

The pages play as a person would: they read their stock piles or hand and the centre piles off the page, choose
a card that fits (the engine's fit table), and tap, click or key it and then its pile. Every game is played to
its end, and its log verifies and decides it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from benchmarks.asgi_server import AsgiServer
from matches.models import Game
from play.models import Table, TableEvent
from play.services import table_open_for_game, table_practice_create
from replays.models import MatchLog, SolitaireRun
from speedrules import verify_bytes
from tests.factories import make_match, make_player
from tests.play.conftest import fixed_deck
from tests.web.test_table_browser import PILE_KEYS, fits, log_in, no_sideways_scroll, status, try_a_play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("time_to_sit_down")]

GAME_SECONDS = 240


def stock_seen(page: Page) -> dict[str, Any]:
    return page.evaluate(
        """() => ({
            own: [...document.querySelectorAll('[data-role=hand] [data-stock]')].map(b => ({
                card: b.dataset.card || null, down: Number(b.dataset.down),
            })),
            piles: [...document.querySelectorAll('[data-role=piles] [data-pile]')].map(b => b.dataset.top || null),
        })"""
    )


def _press(page: Page, selector: str, *, tap: bool) -> None:
    target = page.locator(selector)
    if tap:
        target.tap(timeout=1500)
    else:
        target.click(timeout=1500)


def try_a_spit_play(page: Page, *, keys: bool = False, tap: bool = False) -> bool:
    """Move a stock top over face-down cards into an empty position, else play a top that fits a centre pile."""
    if status(page) != "playing":
        return False
    table = stock_seen(page)
    own = table["own"]
    empty = [index for index, pile in enumerate(own) if pile["card"] is None]
    covering = [index for index, pile in enumerate(own) if pile["card"] and pile["down"]]
    choices: list[tuple[int, str, int]] = []  # (stock pile, "stock" or "pile", where)
    if empty and covering:
        choices.append((covering[0], "stock", empty[0]))
    for index, pile in enumerate(own):
        for centre, top in enumerate(table["piles"]):
            if pile["card"] and fits(pile["card"], top):
                choices.append((index, "pile", centre))
    if not choices:
        return False
    index, kind, where = choices[0]
    if keys:
        page.keyboard.press(str(index + 1))
        page.keyboard.press(str(where + 1) if kind == "stock" else PILE_KEYS[where])
        return True
    card = own[index]["card"]
    try:
        _press(page, f'[data-role=hand] [data-stock="{index}"][data-card="{card}"]', tap=tap)
        target = (
            f'[data-role=hand] [data-stock="{where}"]'
            if kind == "stock"
            else f'[data-role=piles] [data-pile="{where}"]'
        )
        _press(page, target, tap=tap)
    except PlaywrightTimeout:
        return False  # the table moved on meanwhile: tried again with what the page shows then
    return True


def play_out(pages: list[Page], attempt: Callable[[int, Page], bool]) -> None:
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        if all(status(page) == "over" for page in pages):
            return
        if not any([attempt(index, page) for index, page in enumerate(pages)]):
            pages[0].wait_for_timeout(100)
    raise AssertionError(f"the game did not end within {GAME_SECONDS} s: {[status(page) for page in pages]}")


def ready(pages: list[Page]) -> None:
    for page in pages:
        page.get_by_role("button", name="I'm ready").click()
    for page in pages:
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "playing", timeout=15_000)


def watch(new_page: Callable[..., Page], server: AsgiServer, table: Table, **size: Any) -> Page:
    watcher = new_page(**size)  # not signed in: a spectator
    watcher.goto(f"{server.url}/tables/{table.pk}/")
    expect(watcher.locator("[data-role=you]")).to_have_text("You are watching this table.")
    return watcher


def practice(
    new_page: Callable[..., Page],
    server: AsgiServer,
    handle: str,
    *,
    ruleset: str,
    bots: list[str],
    seed: int,
    **size: Any,
) -> tuple[Table, Page]:
    """A new player's practice table of `ruleset`, dealt from a fixed pack, and their page at it."""
    player = make_player(handle)
    table = table_practice_create(user=player.user, ruleset=ruleset, bots=bots, deck=fixed_deck(ruleset, seed))
    page = new_page(**size)
    log_in(page, server, handle)
    page.goto(f"{server.url}/tables/{table.pk}/")
    return table, page


def verified_log(table: Table) -> Any:
    table.refresh_from_db()
    assert table.status == Table.Status.OVER and table.log_id is not None
    verdict = verify_bytes(bytes(MatchLog.objects.get(pk=table.log_id).data))
    assert verdict.code == "ok", verdict
    return verdict


def test_spit_between_two_people_by_taps_on_a_phone_and_keys_on_a_desktop(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, ruleset="spit", best_of=1)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=fixed_deck("spit", 2))
    desktop, phone = new_page(), new_page(width=390, height=844, has_touch=True, is_mobile=True)
    for page, handle in ((desktop, "alice"), (phone, "ben")):
        log_in(page, asgi_server, handle)
        page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    watcher = watch(new_page, asgi_server, table)
    ready([desktop, phone])

    # Each seat plays from its own five stock piles; the other's lie open above the centre, a spectator sees both.
    for page, other in ((desktop, "ben"), (phone, "alice")):
        expect(page.locator("[data-role=hand-title]")).to_have_text("Your stock piles")
        expect(page.locator("[data-role=hand] button[data-stock]")).to_have_count(5)
        expect(page.locator("[data-role=stocks-seen] [data-seat]")).to_have_count(1)
        expect(page.locator("[data-role=stocks-seen]")).to_contain_text(f"{other}'s stock piles")
    expect(desktop.locator('[data-role=piles] [data-pile="1"]')).to_have_attribute(
        "aria-label", re.compile(r"^Pile 2 \(ben's spit pile\): ")
    )
    expect(watcher.locator("[data-role=stocks-seen] [data-seat]")).to_have_count(2)
    expect(watcher.locator("[data-role=hand-box]")).to_be_hidden()
    no_sideways_scroll(phone)
    shot(phone, "table-spit-phone")
    shot(desktop, "table-spit-desktop")

    play_out([desktop, phone], lambda index, page: try_a_spit_play(page, keys=index == 0, tap=index == 1))

    verdict = verified_log(table)
    types = set(TableEvent.objects.filter(table=table).values_list("data__type", flat=True))
    assert {"play", "move", "speed"} <= types, types  # the pages played from the stock and moved between piles
    game = Game.objects.get(match=match, number=1)
    assert (game.decided_by, game.winner_id) == ("table", (alice, ben)[verdict.winner].pk)
    winner = ("alice", "ben")[verdict.winner]
    expect(watcher.locator("[data-role=result]")).to_have_text(f"{winner} won (Speed called at {_clock(watcher)}).")
    expect((desktop, phone)[verdict.winner].locator("[data-role=result]")).to_contain_text("You won")
    expect(phone.locator("[data-role=replay]")).to_be_visible(timeout=30_000)
    shot(phone, "table-spit-over")


def _clock(page: Page) -> str:
    return page.locator("[data-role=clock]").text_content() or ""


def test_team_speed_against_three_bots_with_a_spectator_on_a_phone(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    table, page = practice(new_page, asgi_server, "dara", ruleset="team", bots=["easy"] * 3, seed=4)
    watcher = watch(new_page, asgi_server, table, width=390, height=844)
    ready([page])

    seats = page.locator("[data-role=seats] > li")
    expect(seats).to_have_count(4)
    for seat, team in enumerate((0, 1, 0, 1)):
        expect(seats.nth(seat)).to_have_attribute("data-team", str(team))
    expect(seats.nth(2)).to_contain_text("team 1, your partner")
    expect(seats.nth(2)).to_contain_text("to draw (the team's)")
    expect(page.locator("[data-role=hand] [data-card]")).to_have_count(4)
    expect(watcher.locator("[data-role=hand-box]")).to_be_hidden()
    no_sideways_scroll(watcher)
    shot(page, "table-team")

    play_out([page], lambda _index, each: try_a_play(each))

    verified_log(table)
    table.refresh_from_db()
    if table.result.get("deadlock"):  # the bots' timing can leave four hands that no flip frees
        words = watcher_words = "Deadlock"
    else:
        side = table.result["winner_team"]
        names = [table.players[seat] for seat in ((0, 2), (1, 3))[side]]
        words = f"{'You' if side == 0 else names[0]} and {names[1]} won"
        watcher_words = f"{names[0]} and {names[1]} won"
    expect(page.locator("[data-role=result]")).to_contain_text(words)
    expect(watcher.locator("[data-role=result]")).to_contain_text(watcher_words)
    expect(page.locator("[data-role=replay]")).to_be_visible(timeout=30_000)


def test_double_spit_by_keys_on_eight_piles(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    table, page = practice(new_page, asgi_server, "erin", ruleset="double-spit", bots=["expert"], seed=3)
    watcher = watch(new_page, asgi_server, table, width=390, height=844)
    ready([page])

    piles = page.locator("[data-role=piles] [data-pile]")
    expect(piles).to_have_count(8)
    expect(piles.nth(7)).to_contain_text("K")  # the eighth pile's key
    expect(watcher.locator("[data-role=piles] [data-pile]")).to_have_count(8)
    no_sideways_scroll(watcher)
    shot(watcher, "table-double-spit-phone")

    play_out([page], lambda _index, each: try_a_play(each, keys=True))

    verified_log(table)
    expect(page.locator("[data-role=result]")).to_contain_text("won")
    expect(watcher.locator("[data-role=result]")).to_contain_text("won")


def test_a_speed_solitaire_run_is_timed_and_ranked(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    table, page = practice(
        new_page,
        asgi_server,
        "fern",
        ruleset="solitaire",
        bots=[],
        seed=3,
        width=390,
        height=844,
        has_touch=True,
        is_mobile=True,
    )
    watcher = watch(new_page, asgi_server, table)
    ready([page])
    expect(page.locator("[data-role=help-game]")).to_contain_text("The run is timed")
    expect(page.locator("[data-role=seats] > li")).to_have_count(1)

    play_out([page], lambda _index, each: try_a_play(each))

    verified_log(table)
    table.refresh_from_db()
    run = SolitaireRun.objects.get(pk=table.solitaire_run_id)
    result = page.locator("[data-role=result]")
    if table.result.get("deadlock"):
        expect(result).to_have_text(
            f"No card fits and no flip frees one: the run ends with {table.result['cards_left']} cards left."
        )
    else:
        expect(result).to_contain_text("You cleared the run in")
        expect(watcher.locator("[data-role=result]")).to_contain_text("fern cleared the run in")
    expect(page.locator("[data-role=replay]")).to_be_visible(timeout=30_000)
    no_sideways_scroll(page)
    shot(page, "table-solitaire-over")
    assert run.player.handle == "fern"
    # Once verified, the run is on the leaderboard, where the table's link leads.
    deadline = time.monotonic() + 30
    while run.status != "verified" and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        run.refresh_from_db()
    assert run.status == "verified"
    page.get_by_role("link", name="The solitaire leaderboard").click()
    page.wait_for_url(f"{asgi_server.url}/solitaire/")
    expect(page.locator("#main")).to_contain_text("fern")
