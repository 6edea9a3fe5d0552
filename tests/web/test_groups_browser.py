"""Groups then playoffs in a real browser: the groups' tables first, then the playoff bracket."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.factories import make_tournament, make_user, play, player, ready
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_page_shows_the_groups_then_the_playoff(
    page: Page, live_server: Any, shot: Callable[[Page, str], Any]
) -> None:
    organiser = make_user("orga-groups", organiser=True)
    players = [player(handle) for handle in ("alice", "ben", "chloe", "dev", "emma", "finn")]
    tournament = make_tournament(
        organiser, players, format="groups_playoffs", name="Group Cup", group_count=2, advance_per_group=1
    )
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    groups = page.locator("[data-role=groups]")
    expect(groups.get_by_role("heading", name="Group A")).to_be_visible()
    expect(groups.get_by_role("heading", name="Group B")).to_be_visible()
    # Snake seeding: alice (1), dev (4) and emma (5) in group A.
    expect(page.locator("[data-group='Group A'] [data-role=standings] tbody tr")).to_have_count(3)
    expect(page.locator("[data-group='Group A'] [data-role=standings]")).to_contain_text("emma")
    expect(page.locator("[data-bracket]")).to_have_count(0)

    # The better seed wins every group match: alice and ben top their groups and meet in the final.
    seed = {p.pk: index for index, p in enumerate(players)}
    for row in ready(tournament):
        play(organiser, row, min((row.player_one, row.player_two), key=lambda p: seed[p.pk]))
    page.reload()
    final = page.locator("[data-bracket] [data-match='R1-1']")
    expect(final).to_contain_text("alice")
    expect(final).to_contain_text("ben")
    expect(page.get_by_role("heading", name="Playoff")).to_be_visible()
    expect(page.locator("[data-group='Group B'] [data-role=standings] tbody tr").first).to_contain_text("ben")
    shot(page, "tournament-groups-playoffs")

    (final_row,) = ready(tournament)
    play(organiser, final_row, players[1])
    page.reload()
    expect(page.get_by_role("heading", name="Final placings")).to_be_visible()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
