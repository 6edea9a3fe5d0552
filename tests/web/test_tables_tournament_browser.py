"""Tables in a real browser: an organiser corrects a table's places (preview, then apply); winner stays on at a
table of three is drawn seat by seat with places."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from matches.models import Match
from tests.factories import PASSWORD, make_players, make_tournament, play_table, ready, won_log
from tests.factories import body as body_of
from tests.factories import submit as submit_log
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


def test_winner_stays_on_at_a_table_of_three_is_drawn_with_places(
    page: Page, live_server: Any, organiser: Any, shot: Callable[[Page, str], Any]
) -> None:
    players = make_players(5, prefix="s")
    tournament = make_tournament(
        organiser, players, format="winner_stays_on", table_size=3, max_matches=3, confirmation="none", name="Stay"
    )
    (first,) = ready(tournament)
    document = won_log("three-way", [p.handle for p in players[:3]], start=3)
    assert first.match is not None
    submit_log(body_of(document), user=organiser, match=first.match)
    decided = TournamentMatch.objects.get(pk=first.pk)
    assert decided.status == TournamentMatch.Status.DECIDED and decided.places is not None

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    tables = page.locator("[data-role=seat-table]")
    expect(tables).to_have_count(2)  # the one played and the next
    played = page.locator("[data-role=seat-table][data-key='M1']")
    winner = next(p for p in players if p.pk == decided.winner_id)
    expect(played.locator("tr.is-winner th")).to_have_text(winner.handle)
    expect(played.locator("tbody tr")).to_have_count(3)
    assert decided.places is not None
    for seat, place in enumerate(decided.places):
        expect(played.locator("tbody tr").nth(seat).locator("td").nth(1)).to_have_text(str(place))
    following = page.locator("[data-role=seat-table][data-key='M2']")
    expect(following).to_contain_text(winner.handle)
    expect(following).to_contain_text("s04")
    expect(page.locator(".page-head__meta")).to_contain_text("three-way at 3")
    shot(page, "winner-stays-on-table-of-three")
