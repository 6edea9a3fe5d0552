"""A sixteen-player event in headless Chromium: a cap with a waiting list, seeds by rating, results, the CSV.

Players, their ratings and their registrations are made through the services
(what players do is not under test here); every organiser's step is a click or
a keystroke on the pages: the cap, the seeding, the seeds moved by hand (drag
and drop, and the keyboard), the approvals, a withdrawal that lets the first
waiting player move up, a round's time, the start, every result, the export.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from matches.models import Match
from tests.factories import make_players, make_tournament, make_user
from tournaments.models import Entrant, PlayerRating, Registration, Tournament, TournamentMatch
from tournaments.services.registration import registration_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
#: Seventeen register for sixteen places; p05 withdraws, and p17, the one waiting, moves up.
RATINGS = {f"p{n:02d}": 1200 + 37 * ((n * 7) % 17) for n in range(1, 18) if n % 5 != 0}  # p05, p10, p15 unrated


def _log_in(page: Page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-for-tests")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/")


def _no_sideways_scroll(page: Page, url: str) -> None:
    page.goto(url)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], url


def _seed_order(tournament: Tournament) -> list[str]:
    return [e.player.handle for e in Entrant.objects.filter(tournament=tournament).select_related("player")]


def test_sixteen_players_seeded_by_rating_with_a_cap_and_a_waiting_list(
    live_server: Any, new_page: Callable[..., Page], shot: Callable[[Page, str], Any]
) -> None:
    url = live_server.url
    organiser = make_user("orga", organiser=True)
    players = make_players(17, prefix="p")
    for player in players:
        if player.handle in RATINGS:
            PlayerRating.objects.create(
                player=player, rating=RATINGS[player.handle], deviation=90, volatility=0.06, games=12
            )
    cup = make_tournament(organiser, [], format="single_elimination", name="Sixteen", start=False)
    manage = f"{url}/organise/tournaments/{cup.pk}/"

    orga = new_page()
    _log_in(orga, url, "orga")
    orga.goto(manage)
    orga.get_by_label("Most entrants").fill("16")
    orga.get_by_role("button", name="Save the entry rules").click()
    expect(orga.get_by_text("Entry rules saved.")).to_be_visible()
    orga.get_by_role("button", name="Open registration").click()
    expect(orga.get_by_text("Registration open", exact=True)).to_be_visible()

    for player in players:
        registration_create(tournament_id=cup.pk, user=player.user)
    orga.goto(manage)
    for player in players:
        orga.get_by_role("button", name=f"Approve {player.handle}").click()
        expect(orga.locator(".messages")).to_contain_text(player.handle)
    expect(orga.get_by_text("Sixteen is full: p17 is on the waiting list.")).to_be_visible()
    expect(orga.locator("[data-role=waiting]")).to_contain_text("p17")
    expect(orga.locator("[data-role=entry-summary]")).to_contain_text("16 of 16 places taken, 1 waiting")

    # Seeds by hand: drag p02 above p01, then move p03 up with the keyboard; saved through the textarea.
    seeds = orga.locator("[data-role=seed-order]")
    expect(seeds).to_be_visible()
    expect(orga.locator("textarea[name=order]")).to_be_hidden()
    seeds.locator("[data-handle=p02]").drag_to(seeds.locator("[data-handle=p01]"), target_position={"x": 5, "y": 2})
    expect(seeds.locator("li").first).to_have_attribute("data-handle", "p02")
    orga.get_by_role("button", name="Move p03 up").press("Enter")
    expect(seeds.locator("li").nth(1)).to_have_attribute("data-handle", "p03")
    orga.get_by_role("button", name="Save the seeds").click()
    expect(orga.get_by_text("Seeds updated.")).to_be_visible()
    assert _seed_order(cup)[:3] == ["p02", "p03", "p01"]

    # A withdrawal: the first waiting player moves up.
    orga.get_by_role("button", name="Withdraw p05").click()
    expect(orga.get_by_text("p05 withdrawn. p17 moved up from the waiting list.")).to_be_visible()
    assert Registration.objects.get(tournament=cup, player__handle="p17").status == Registration.Status.APPROVED
    assert len(_seed_order(cup)) == 16

    # Seeding by rating, a round's time, and the start.
    orga.get_by_label("By rating (highest first, unrated last)").check()
    orga.get_by_role("button", name="Save the seeding").click()
    expect(orga.get_by_text("Seeding at the start: by rating (highest first, unrated last).")).to_be_visible()
    orga.locator("[data-role=round-time]").get_by_label("Round").fill("2")
    orga.locator("[data-role=round-time]").get_by_label("Not before").fill("2030-06-01T14:30")
    orga.get_by_role("button", name="Save the round's time").click()
    expect(orga.locator("[data-role=round-times]")).to_contain_text("Round 2: not before 1 Jun 2030, 14:30")
    shot(orga, "entry-manage-before-start-desktop")
    orga.locator("[data-role=start]").click()
    orga.locator("[data-role=start-confirm]").get_by_role("button", name="Start now").click()  # it asks first
    expect(orga).to_have_url(f"{url}/tournaments/{cup.pk}/")

    entered = [p.handle for p in players if p.handle != "p05"]
    rated = sorted((h for h in entered if h in RATINGS), key=lambda h: -RATINGS[h])
    by_hand = ["p02", "p03", "p01", *[h for h in entered if h not in ("p01", "p02", "p03")]]
    unrated_in_entry_order = [h for h in by_hand if h not in RATINGS]
    assert len(set(RATINGS[h] for h in rated)) == len(rated)  # no ties: the expected order is plain
    assert _seed_order(cup) == rated + unrated_in_entry_order
    orga.goto(manage)
    expect(orga.locator("[data-role=seeding-record] li")).to_have_count(16)
    expect(orga.locator("[data-role=seeding-record] li").last).to_contain_text("(unrated)")

    # Every result entered by the organiser on the match pages: the better seed wins each match.
    seed_of = {handle: n for n, handle in enumerate(_seed_order(cup), start=1)}
    while True:
        ready = list(
            TournamentMatch.objects.filter(tournament=cup, status=TournamentMatch.Status.READY)
            .select_related("player_one", "player_two")
            .order_by("id")
        )
        if not ready:
            break
        for pairing in ready:
            assert pairing.player_one is not None and pairing.player_two is not None
            one_wins = seed_of[pairing.player_one.handle] < seed_of[pairing.player_two.handle]
            orga.goto(f"{url}/matches/{pairing.match_id}/")
            orga.locator("#games-one").fill("1" if one_wins else "0")
            orga.locator("#games-two").fill("0" if one_wins else "1")
            if orga.locator("#score-reason").count():
                orga.locator("#score-reason").fill("Score sheet")
            orga.get_by_role("button", name="Enter the score").click()
            expect(orga.locator("[data-role=series-score]")).to_have_text(re.compile("1\N{EN DASH}0|0\N{EN DASH}1"))
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert Match.objects.filter(tournament_match__tournament=cup, status=Match.Status.FINISHED).count() == 15

    # The standings, exported from the tournament's page.
    orga.goto(f"{url}/tournaments/{cup.pk}/")
    with orga.expect_download() as download_info:
        orga.get_by_role("link", name="Standings (CSV)").click()
    download = download_info.value
    assert download.suggested_filename == f"sixteen-{cup.pk}-standings.csv"
    with open(download.path(), encoding="utf-8") as handle:
        rows = list(csv.reader(io.StringIO(handle.read())))
    assert rows[0][:3] == ["place", "handle", "name"]
    assert len(rows) == 17
    order = _seed_order(cup)
    assert rows[1][:2] == ["1", order[0]] and rows[2][:2] == ["2", order[1]]
    assert {row[1] for row in rows[3:5]} == set(order[2:4]) and {row[0] for row in rows[3:5]} == {"3-4"}
    assert {row[1] for row in rows[9:]} == set(order[8:]) and {row[0] for row in rows[9:]} == {"9-16"}

    # On a phone: no page scrolls sideways.
    phone = new_page(**PHONE)
    _log_in(phone, url, "orga")
    for path in (f"/tournaments/{cup.pk}/", f"/organise/tournaments/{cup.pk}/"):
        _no_sideways_scroll(phone, f"{url}{path}")
    shot(phone, "entry-tournament-phone")
    player_phone = new_page(**PHONE)
    _log_in(player_phone, url, order[0])
    _no_sideways_scroll(player_phone, f"{url}/me/")
    shot(player_phone, "entry-my-matches-phone")
