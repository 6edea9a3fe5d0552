"""The public pages and the log submission in a real browser, each checked and photographed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from playwright.sync_api import Page, expect

from matches.services import organiser_grant
from replays.models import MatchLog
from replays.services import log_verify
from tests.factories import PASSWORD, SPEC_EXAMPLES, load, make_player, make_user, match_for, submit
from tests.web.conftest import PageErrors

DASH = "\u2013"  # the en dash between the two numbers of a score

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_submit_a_log_through_the_page_and_see_it_verified(
    page: Page, live_server: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    data = load("valid-speed-1001.json")
    match = match_for(orjson.loads(data))
    login(page, "tomas", PASSWORD)  # a player of the match

    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.get_by_role("link", name="Submit a log for game 1").click()
    expect(page.get_by_label("Game")).to_have_value(str(match.games.get().pk))
    page.get_by_label("Or paste the JSON").fill(data.decode())
    shot(page, "submit")
    page.get_by_role("button", name="Submit for verification").click()

    page.wait_for_url(re.compile(r"/logs/\d+/$"))
    status = page.locator("[data-log-status]")
    expect(status).to_have_attribute("data-status", "verified")
    expect(status).to_contain_text("Awaiting confirmation: tomas says tomas won.")
    shot(page, "log-verified")
    page.get_by_role("link", name="Watch the replay").click()
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "true")

    # Tomas's log is his word alone: the score waits for quinn, who confirms on the match page.
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("[data-role=claim]")).to_contain_text("Awaiting confirmation")
    expect(page.locator("[data-role=series-score]")).to_have_text(f"0{DASH}0")
    page.context.clear_cookies()
    login(page, "quinn", PASSWORD)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("[data-role=series-score]")).to_have_text(f"1{DASH}0")


def test_the_verdict_arrives_live_without_a_reload(
    page: Page, live_server: Any, login: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No worker picks the log up until the test says so: it stays pending.
    monkeypatch.setattr("replays.services.submission.logs_enqueue_verification", lambda *, log_ids, force=False: None)
    data = load("valid-speed-1001.json")
    match = match_for(orjson.loads(data))
    login(page, "quinn", PASSWORD)
    page.goto(f"{live_server.url}/submit/?game={match.games.get().pk}")
    page.get_by_label("Or paste the JSON").fill(data.decode())
    page.get_by_role("button", name="Submit for verification").click()
    page.wait_for_url(re.compile(r"/logs/\d+/$"))

    status = page.locator("[data-log-status]")
    expect(status).to_have_attribute("data-status", "pending")
    expect(status).to_contain_text("Verifying")
    page.evaluate("window.__sameDocument = true")

    log = MatchLog.objects.get(game__match=match)
    assert log.status == MatchLog.Status.PENDING
    log_verify(log_id=log.pk)  # what the worker would do

    expect(status).to_have_attribute("data-status", "verified", timeout=15_000)
    expect(status).to_contain_text("Awaiting confirmation: quinn says tomas won.")
    assert page.evaluate("window.__sameDocument") is True  # updated in place, not reloaded
    # The live region is what a screen reader hears.
    expect(page.locator("[data-log-status] [aria-live=polite]")).to_contain_text("Verified")


def test_upload_a_rejected_log_and_follow_the_link_to_the_failing_event(
    page: Page, live_server: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    data = load("invalid-no_fit-1012.json")
    match = match_for(orjson.loads(data))
    login(page, "ben", PASSWORD)
    page.goto(f"{live_server.url}/submit/")
    page.get_by_label("Game").select_option(str(match.games.get().pk))
    page.get_by_label("Upload the log file").set_input_files(str(SPEC_EXAMPLES / "invalid-no_fit-1012.json"))
    page.get_by_role("button", name="Submit for verification").click()

    status = page.locator("[data-log-status]")
    expect(status).to_have_attribute("data-status", "rejected")
    expect(status).to_contain_text("Rejected: no_fit at event 16")
    expect(status).to_contain_text(MatchLog.objects.get(game__match=match).message)  # the engine's own words
    shot(page, "log-rejected")
    status.get_by_role("link", name="See the replay at the failing event").click()
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "16")
    expect(page).to_have_url(re.compile(r"#step=16$"))


def test_the_submit_form_explains_what_is_wrong(page: Page, live_server: Any, login: Callable[..., None]) -> None:
    data = load("valid-speed-1001.json")
    match = match_for(orjson.loads(data))
    login(page, "tomas", PASSWORD)
    page.goto(f"{live_server.url}/submit/")
    page.get_by_role("button", name="Submit for verification").click()
    expect(page.get_by_role("alert")).to_contain_text("Upload the log file or paste its JSON.")
    # A log of other players is refused by the service, and the page says why.
    page.get_by_label("Or paste the JSON").fill(load("invalid-no_fit-1012.json").decode())
    page.get_by_role("button", name="Submit for verification").click()
    expect(page.get_by_role("alert")).to_contain_text("the match is tomas v quinn")
    assert not MatchLog.objects.filter(game__match=match).exists()


def test_submitting_needs_a_login(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/submit/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/submit/$"))


def test_match_page_shows_the_series_and_how_each_game_was_decided(
    page: Page, live_server: Any, organiser: Any, shot: Callable[[Page, str], Any]
) -> None:
    rejected = submit(load("invalid-no_fit-1012.json"), user=organiser)
    match = rejected.game.match
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben v Mara")
    expect(page.locator("[data-role=series-score]")).to_have_text(f"0{DASH}0")
    row = page.locator("tr[data-game='1']")
    expect(row).to_contain_text("No result yet")  # no table is playing it: nothing says it is being played
    expect(row).to_contain_text("no_fit at event 16")
    expect(row.get_by_role("link", name="See where")).to_have_attribute("href", f"/replays/{rejected.pk}/#step=16")

    verified = submit(load("valid-speed-1001.json"), user=organiser)
    page.goto(f"{live_server.url}/matches/{verified.game.match_id}/")
    row = page.locator("tr[data-game='1']")
    expect(row).to_contain_text("tomas won")
    expect(row).to_contain_text("Verified log")
    expect(row.get_by_role("link", name="Replay")).to_have_attribute("href", f"/replays/{verified.pk}/")
    expect(page.locator("[data-role=series-score]")).to_have_text(f"1{DASH}0")
    shot(page, "match")


def test_home_player_and_players_pages(
    new_page: Callable[..., Page], live_server: Any, organiser: Any, shot: Callable[[Page, str], Any]
) -> None:
    log = submit(load("valid-speed-1001.json"), user=organiser)
    submit(load("valid-jokers-wild-1005.json"), user=organiser)
    page = new_page()
    page.goto(f"{live_server.url}/")
    replays = page.get_by_role("region", name="Latest verified replays")
    expect(replays.get_by_role("link", name="tomas v quinn, game 1")).to_have_attribute("href", f"/replays/{log.pk}/")
    shot(page, "home")

    page.get_by_role("link", name="Players").first.click()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()
    expect(page.get_by_role("link", name="tomas")).to_be_visible()
    page.get_by_role("searchbox", name="Search players").fill("chl")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("link", name="chloe")).to_be_visible()
    expect(page.get_by_role("link", name="tomas")).to_have_count(0)
    shot(page, "players")

    page.goto(f"{live_server.url}/players/tomas/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Tomas")
    expect(page.locator(".facts")).to_contain_text(f"1{DASH}0")
    shot(page, "player")

    phone = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    phone.goto(f"{live_server.url}/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "home-phone")


def test_log_in_and_out(page: Page, live_server: Any, login: Callable[..., None]) -> None:
    make_user("someone")
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("someone")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("Please enter a correct username and password")
    login(page, "someone", PASSWORD)
    expect(page.locator(".site-account")).to_contain_text("someone")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()


def test_the_error_watch_catches_console_errors(new_page: Callable[..., Page], page_errors: list[PageErrors]) -> None:
    page = new_page()
    with page.expect_event("pageerror"):  # the throw comes after the console.error, from a timer
        page.set_content("<script>console.error('boom'); setTimeout(() => { throw new Error('bang'); });</script>")
    seen = page_errors[-1].messages
    assert any("boom" in message for message in seen)
    assert any("bang" in message for message in seen)
    seen.clear()  # this page's errors were the point of the test


def test_the_signed_in_menu_of_an_organiser_who_plays_is_one_line_at_1280_px(
    new_page: Callable[..., Any], live_server: Any
) -> None:
    player = make_player("organiser-who-plays")  # the longest menu: every player link and Organise
    organiser_grant(user=player.user)
    page = new_page(width=1280, height=900)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(player.handle)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator("[data-role=organise-link]")).to_be_visible()
    tops = page.eval_on_selector_all(
        ".site-nav a, .site-account > *",
        "nodes => nodes.map(node => [node.textContent.trim().slice(0, 12), Math.round(node.getBoundingClientRect().top)])",
    )
    heights = [top for _text, top in tops]
    assert len(heights) >= 10
    assert max(heights) - min(heights) <= 12, [
        item for item in tops if item[1] != heights[0]
    ]  # one line: every link and button at the same height
