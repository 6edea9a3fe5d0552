"""The organiser's desk in a real browser: a score corrected game by game with its preview, a start confirmed
and undone, and the match page on a 390 px phone (no sideways scroll, the dispute button whole)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from matches.models import Game
from matches.services import game_set_result
from tests.factories import PASSWORD, load, make_players, make_tournament, player, ready, submit
from tournaments.audit import audit_records
from tournaments.models import Tournament, TournamentMatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_an_organiser_corrects_the_score_game_by_game_with_the_preview(
    page: Page, live_server: Any, organiser: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    tournament = make_tournament(organiser, make_players(2), format="single_elimination", best_of=3, name="Final cup")
    (final,) = ready(tournament)
    one, two = final.player_one.handle, final.player_two.handle
    for winner in (one, two, one):  # recorded 2-1 to p01; really game 3 went to p02
        game = Game.objects.get(match_id=final.match_id, status=Game.Status.OPEN)
        game_set_result(game_id=game.pk, user=organiser, winner=winner)

    login(page, "orga", PASSWORD)
    page.goto(f"{live_server.url}/organise/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Correct Final").click()
    form = page.locator("[data-role=score-correction]")
    expect(form.get_by_label(f"Game 3 won by {one}")).to_be_checked()
    form.get_by_label(f"Game 3 won by {two}").check()
    form.get_by_role("button", name="Preview the score").click()
    preview = page.locator("[data-role=preview]")
    expect(preview.locator(f"[data-role=score-changed] tr[data-handle='{two}'] [data-role=games-after]")).to_have_text(
        "2"
    )
    expect(preview).to_contain_text(f"becomes {two} (was {one})")
    expect(preview).to_contain_text(f"Game 3: {one} → {two}")
    shot(page, "organise-correct-score-preview")
    assert TournamentMatch.objects.get(pk=final.pk).winner.handle == one, "a preview changes nothing"
    page.get_by_placeholder("Why (kept in the history)").fill("Score sheet of game 3 misread")
    page.get_by_role("button", name="Apply the correction").click()
    expect(page.locator(".messages")).to_contain_text(f"Final corrected: {two} won 1\N{EN DASH}2.")
    corrected = TournamentMatch.objects.get(pk=final.pk)
    assert (corrected.winner.handle, corrected.games_one, corrected.games_two) == (two, 1, 2)
    # The match page says the same, with the history row, and leads back to the manage page.
    page.goto(f"{live_server.url}/matches/{final.match_id}/")
    expect(page.locator("[data-role=series-score]")).to_have_text("1\N{EN DASH}2")
    expect(page.locator("[data-role=history]")).to_contain_text("Score sheet of game 3 misread")
    page.locator("[data-role=manage-link]").click()
    expect(page).to_have_url(f"{live_server.url}/organise/tournaments/{tournament.pk}/")
    assert audit_records().differences == []


def test_an_organiser_voids_a_game_that_did_not_count_with_the_preview(
    page: Page, live_server: Any, organiser: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    tournament = make_tournament(organiser, make_players(2), format="single_elimination", best_of=3, name="Void cup")
    (final,) = ready(tournament)
    one, two = final.player_one.handle, final.player_two.handle
    for winner in (one, two, one):  # recorded 2-1 to p01; really game 2 was a warm-up that did not count
        game = Game.objects.get(match_id=final.match_id, status=Game.Status.OPEN)
        game_set_result(game_id=game.pk, user=organiser, winner=winner)

    login(page, "orga", PASSWORD)
    page.goto(f"{live_server.url}/organise/tournaments/{tournament.pk}/correct/{final.key}/")
    form = page.locator("[data-role=score-correction]")
    form.get_by_label("Game 2 did not count").check()
    form.get_by_role("button", name="Preview the score").click()
    preview = page.locator("[data-role=preview]")
    expect(preview.locator(f"[data-role=score-changed] tr[data-handle='{two}'] [data-role=games-after]")).to_have_text(
        "0"
    )
    expect(preview.locator("[data-role=games-corrected]")).to_have_text(f"Game 2: {two} → did not count")
    expect(preview).to_contain_text(f"{one} still wins the final")
    shot(page, "organise-correct-void-preview")
    page.get_by_placeholder("Why (kept in the history)").fill("Game 2 was a warm-up")
    page.get_by_role("button", name="Apply the correction").click()
    expect(page.locator(".messages")).to_contain_text(f"Final corrected: {one} won 2\N{EN DASH}0.")
    page.goto(f"{live_server.url}/matches/{final.match_id}/")
    expect(page.locator("tr[data-game='2']")).to_contain_text("it did not count: corrected")
    expect(page.locator("[data-role=history]")).to_contain_text("Game 2 was a warm-up")
    assert audit_records().differences == []


def test_a_start_is_confirmed_then_undone(
    page: Page, live_server: Any, organiser: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    tournament = make_tournament(organiser, make_players(4), format="single_elimination", start=False, name="Undo cup")
    login(page, "orga", PASSWORD)
    manage = f"{live_server.url}/organise/tournaments/{tournament.pk}/"
    page.goto(manage)
    expect(page.locator(".page-head .badge")).to_have_text("Not started")
    page.get_by_role("button", name="Start with 4 players").click()
    confirm = page.locator("[data-role=start-confirm]")
    expect(confirm).to_contain_text("4 players will play")
    shot(page, "organise-start-confirm")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.SETUP, "asking starts nothing"
    confirm.get_by_role("button", name="Start now").click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{tournament.pk}/$"))
    assert TournamentMatch.objects.filter(tournament=tournament).count() == 3
    page.goto(manage)
    page.get_by_role("button", name="Undo the start").click()
    # One press only asks: nothing is undone until the second.
    expect(page.locator("[data-role=undo-start] [data-role=confirm-note]")).to_contain_text("Undo the start?")
    assert TournamentMatch.objects.filter(tournament=tournament).count() == 3, "asking undoes nothing"
    page.get_by_role("button", name="Yes, undo the start").click()
    expect(page.locator(".messages")).to_contain_text("is undone")
    expect(page.locator(".page-head .badge")).to_have_text("Not started")
    expect(page.locator("[data-role=edit]")).to_be_visible()
    assert not TournamentMatch.objects.filter(tournament=tournament).exists()
    assert audit_records().differences == []
    # Edited after the undo: the form shows only the chosen format's options; the draw number only for a draw.
    page.locator("[data-role=edit]").click()
    expect(page.get_by_label("Name")).to_have_value("Undo cup")
    expect(page.locator("fieldset[data-formats='swiss']")).to_be_hidden()
    expect(page.get_by_text("Standings tie-breaks")).to_be_hidden()
    draw = page.locator("[name='single_elimination-rng_seed']")
    expect(draw).to_be_hidden()
    page.locator("[name='single_elimination-seeding']").select_option("random")
    expect(draw).to_be_visible()
    page.get_by_label("Format").select_option("swiss")
    expect(page.get_by_text("Standings tie-breaks")).to_be_visible()


def test_the_match_page_fits_a_phone_with_the_replay_link_and_the_dispute_button(
    new_page: Callable[..., Page], live_server: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    tomas, _quinn = player("tomas"), player("quinn")
    log = submit(load("valid-speed-1001.json"), user=tomas.user)  # tomas's verified log: quinn confirms or disputes
    assert log.status == "verified"
    phone = new_page(**PHONE, is_mobile=True, has_touch=True)
    login(phone, "quinn", PASSWORD)
    phone.goto(f"{live_server.url}/matches/{log.game.match_id}/")
    dispute = phone.get_by_role("button", name="Dispute")
    expect(dispute).to_be_visible()
    shot(phone, "match-claim-phone")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = dispute.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    replay = phone.get_by_role("link", name="Replay")
    box = replay.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    # The score stays on one line: never the dash at the end of one line and the number on the next.
    score = phone.locator("[data-role=series-score]")
    height, size = score.evaluate("e => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).fontSize)]")
    assert height < 2 * size
