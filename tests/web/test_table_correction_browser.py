"""An organiser corrects a table's places from the page: preview (games, points, the final table), then apply."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from matches.models import Match
from tests.factories import PASSWORD, make_players, make_tournament, play_table, ready
from tests.web.test_audit import audit
from tournaments.models import Tournament, TournamentMatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organiser_corrects_a_tables_places_and_the_final_is_played_again(
    page: Page, live_server: Any, organiser: Any, login: Callable[..., None], shot: Callable[[Page, str], Any]
) -> None:
    players = {player.handle: player for player in make_players(6)}
    tournament = make_tournament(
        organiser, list(players.values()), format="tables", table_rounds=1, final_table_size=3, name="Table Cup"
    )
    one, two = ready(tournament)  # p01 p04 p05, p02 p03 p06
    play_table(organiser, one, [players[h] for h in ("p01", "p04", "p05")])
    play_table(organiser, two, [players[h] for h in ("p02", "p03", "p06")])
    final = TournamentMatch.objects.get(tournament=tournament, key="F")
    play_table(organiser, final, [players[h] for h in ("p03", "p01", "p02")])
    old_final = final.match_id

    login(page, "orga", PASSWORD)
    page.goto(f"{live_server.url}/organise/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Correct Round 1, table 2").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct the round 1, table 2")
    # The form starts from the places recorded.
    expect(page.get_by_label("Game 1: p02")).to_have_value("1")
    for handle, place in (("p06", "1"), ("p03", "2"), ("p02", "3")):
        page.get_by_label(f"Game 1: {handle}").select_option(place)
    page.get_by_role("button", name="Preview the change").click()
    preview = page.locator("[data-role=preview]")
    expect(preview.locator("[data-role=games-changed] tr[data-game='1']")).to_contain_text("p06 1st")
    expect(preview.locator("[data-role=standing-changed] tr[data-handle='p06'] [data-role=points-after]")).to_have_text(
        "2 (1)"
    )
    expect(preview).to_contain_text("becomes p06 (was p02)")
    expect(preview.locator("tbody tr").filter(has_text="Final table")).to_contain_text("Replayed")
    shot(page, "organise-correct-table-preview")
    assert TournamentMatch.objects.get(tournament=tournament, key="T1-2").winner_id == players["p02"].pk

    page.get_by_label("Why").fill("score sheets of table 2 misread")
    page.get_by_role("button", name="Apply the correction").click()
    expect(page.locator(".messages")).to_contain_text("Round 1, table 2 corrected: 1 game; p06 won.")
    final = TournamentMatch.objects.get(tournament=tournament, key="F")
    assert final.seat_ids == tuple(players[h].pk for h in ("p01", "p06", "p03"))
    assert Match.objects.get(pk=old_final).status == Match.Status.ANNULLED
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    status, out = audit()
    assert status == 0, out
