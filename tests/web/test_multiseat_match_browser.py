"""Tables of four and timed matches in a real browser: the replay draws every seat, the match pages show places."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest
from playwright.sync_api import Page, expect

from matches.models import Match
from matches.services import match_create
from replays.models import MatchLog
from replays.services import log_submit
from tests.factories import engine_steps, make_player, won_log
from tests.web.test_replay_browser import read_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOUR = ["ann", "bo", "cy", "di"]


def _decided_by_log(match: Match, document: dict[str, Any], user: Any) -> MatchLog:
    """The organiser's verified log decides the match's open game (verified when the submission commits)."""
    game = match.games.get(status="open")
    log, _ = log_submit(game_id=game.pk, data=orjson.dumps(document), user=user)
    log.refresh_from_db()
    assert log.status == MatchLog.Status.VERIFIED, log.message
    return log


@pytest.fixture
def four_way(organiser: Any) -> dict[str, Any]:
    for handle in FOUR:
        make_player(handle)
    match = match_create(players=FOUR, ruleset="four-way", best_of=3, created_by=organiser)
    # The log seats the players in another order than the match: the viewer follows the log.
    document = won_log("four-way", ["cy", "ann", "di", "bo"], winner_seat=2)
    return {"match": match, "document": document, "log": _decided_by_log(match, document, organiser)}


def test_a_four_seat_replay_draws_every_seat_and_counts_the_pack_of_104(
    new_page: Callable[..., Page], live_server: Any, four_way: dict[str, Any], shot: Callable[[Page, str], Any]
) -> None:
    steps = engine_steps(orjson.dumps(four_way["document"]))
    names = four_way["document"]["players"]
    log = four_way["log"]
    for width, name in ((1280, "replay-four-way"), (390, "replay-four-way-phone")):
        page = new_page(width=width, height=900 if width > 400 else 844)
        for index in (0, len(steps) // 2, len(steps) - 1):
            page.goto(f"{live_server.url}/replays/{log.pk}/#step={index}")
            page.reload()
            expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(index))
            shown = read_table(page)
            assert shown["hands"] == steps[index]["hand_cards"]  # all four seats, each with its own cards
            assert shown["cardsLeft"] == steps[index]["cards_left"]
            assert shown["total"] == steps[index]["total"] == 104 and shown["pack"] == "104 ✓"
            for seat, handle in enumerate(names):
                assert shown["counts"][f"{handle} · hand"] == steps[index]["hands"][seat]
                assert shown["counts"][f"{handle} · draw pile"] == steps[index]["draws"][seat]
        seats = page.locator(".seat")
        expect(seats).to_have_count(4)
        for handle in names:
            expect(page.locator(f".seat[aria-label='{handle}']")).to_be_visible()
        # Round the table: the near side left to right (seats 0, 1), the far side right to left (3, 2).
        order = page.evaluate(
            """() => ['seats-bottom', 'seats-top'].map(role =>
                 [...document.querySelectorAll(`[data-role=${role}] .seat`)].map(s => Number(s.dataset.seat)))"""
        )
        assert order == [[0, 1], [3, 2]]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, name)


def test_a_four_seat_match_page_lists_places_and_the_standings(
    page: Page, live_server: Any, four_way: dict[str, Any], shot: Callable[[Page, str], Any]
) -> None:
    match = four_way["match"]
    match.refresh_from_db()
    places = match.games.get(number=1).places
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann, Bo, Cy and Di")
    game = page.locator("tr[data-game='1'] [data-role=places] li")
    expect(game).to_have_count(len(set(places)))
    expect(game.first).to_contain_text("1st")
    expect(game.first).to_contain_text("di")  # seat 2 of the log called Speed
    standings = page.locator("[data-role=table-standings] tbody tr")
    expect(standings).to_have_count(4)
    expect(standings.first).to_have_attribute("data-handle", "di")
    expect(standings.first.locator("[data-role=points]")).to_have_text("3")
    expect(page.locator("tr[data-game='1']")).to_contain_text("Verified log")
    shot(page, "match-four-way")


def test_a_timed_match_page_and_its_replay_show_the_limit(
    new_page: Callable[..., Page], live_server: Any, organiser: Any, shot: Callable[[Page, str], Any]
) -> None:
    for handle in ("ann", "bo"):
        make_player(handle)
    match = match_create(players=["ann", "bo"], ruleset="speed", best_of=3, time_limit_ms=10_000)
    document = won_log("speed", ["ann", "bo"], winner_seat=0)
    log = _decided_by_log(match, document, organiser)
    timed = log.timed_scores
    assert timed is not None
    steps = engine_steps(orjson.dumps(document))
    assert steps[-1]["t"] > 10_000, "the game runs past the limit"

    page = new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("[data-role=time-limit]")).to_have_text("10 s a game")
    result = page.locator("tr[data-game='1'] [data-role=places]")
    for handle, count in zip(["ann", "bo"], timed, strict=True):
        expect(result).to_contain_text(f"{handle} ({count} card")
    expect(page.locator("[data-role=timed-totals]")).to_contain_text(f"ann {timed[0]}")
    shot(page, "match-timed")

    page.goto(f"{live_server.url}/replays/{log.pk}/")
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "true")
    expect(page.locator("[data-role=chart-limit]")).to_have_count(1)
    expect(page.locator("[data-role=scrubber-limit]")).to_be_visible()
    played = page.locator(".seat [data-role=timed-played]")
    expect(played).to_have_count(2)
    # The cards played follow the step: none at the deal, the score once the limit is passed.
    seat_zero = page.locator(".seat[data-seat='0'] [data-role=timed-played]")
    expect(seat_zero).to_have_text("0 cards played so far (limit 0:10.0)")
    expect(page.locator(".timed-list [data-role=timed-played]").first).to_have_text("0")
    expect(page.locator("[data-role=clock]")).not_to_contain_text("past the limit")
    last = next(index for index, step in enumerate(steps) if step["t"] > 10_000)
    page.goto(f"{live_server.url}/replays/{log.pk}/#step={last}")
    page.reload()
    expect(seat_zero).to_have_text(f"{timed[0]} card{'s' if timed[0] != 1 else ''} played by the limit (0:10.0)")
    expect(page.locator(".timed-list [data-role=timed-played]").first).to_have_text(str(timed[0]))
    expect(page.locator("[data-role=clock]")).to_contain_text("past the limit")
    expect(page.locator("[data-role=clock]")).to_have_class("controls__clock is-over")
    # The chart's limit mark lies between the last step within the limit and the first past it.
    marks = page.evaluate(
        """() => ({limit: Number(document.querySelector('[data-role=chart-limit]').getAttribute('x1')),
                   data: JSON.parse(document.getElementById('replay-data').textContent)})"""
    )
    chart = marks["data"]["chart"]
    position = (marks["limit"] - chart["left"]) / chart["width"] * (chart["count"] - 1)
    assert last - 1 <= position <= last
    shot(page, "replay-timed")
