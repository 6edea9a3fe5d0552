"""`manage.py audit_records` over tables of three and four: clean results pass, a table result edited by hand is named."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Game, Match
from matches.services import game_report_result, game_set_result, match_create
from tests.factories import make_players
from tests.web.test_audit import audit

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(organiser: Any) -> dict[str, Any]:
    """A table of four decided by its players' reports, and a table of three (best of 3) set by an organiser."""
    four = make_players(4)
    reported = match_create(players=[p.handle for p in four], ruleset="four-way", best_of=1)
    places = {"p01": 1, "p02": 2, "p03": 3, "p04": 4}
    game = reported.games.get()
    for player in four:
        game_report_result(game_id=game.pk, user=player.user, places=places)
    three = four[:3]
    organised = match_create(players=[p.handle for p in three], ruleset="three-way", best_of=3)
    for result in ({"p01": 2, "p02": 1, "p03": 2}, {"p01": 1, "p02": 2, "p03": 3}, {"p01": 3, "p02": 1, "p03": 2}):
        game_set_result(
            game_id=organised.games.get(status=Game.Status.OPEN).pk, user=organiser, winner=None, places=result
        )
    for match in (reported, organised):
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
    assert organised.winner_id == three[1].pk  # points 2-1-0: p02 2 + 1 + 2, p01 1 + 2 + 0, p03 1 + 0 + 1
    return {"reported": reported, "organised": organised, "players": four}


def test_tables_finished_through_the_services_have_no_differences(tables):
    status, out = audit()
    assert status == 0, out
    assert "No differences" in out


def test_places_edited_by_hand_disagree_with_the_evidence_and_the_ratings(tables):
    game = tables["reported"].games.get()
    assert game.decided_by == Game.DecidedBy.PLAYERS
    Game.objects.filter(pk=game.pk).update(places=[1, 3, 2, 4])  # the same winner, two places swapped
    status, out = audit()
    assert status == 1
    record = f"match {tables['reported'].pk} (p01 v p02 v p03 v p04)"
    assert f"{record}: game 1 places (by its evidence) is [1, 3, 2, 4], expected [1, 2, 3, 4]" in out
    # The ratings from scratch rate the places as they now stand: p02 and p03 changed places.
    for handle in ("p02", "p03"):
        assert f"rating change of {handle} for match {tables['reported'].pk}: rating_after is " in out
        assert f"rating of {handle}: rating is " in out
    assert "rating of p01:" not in out, "p01 still beat all three"


def test_places_set_by_an_organiser_and_edited_are_named_by_the_series_and_the_ratings(tables):
    organised = tables["organised"]
    last = organised.games.get(number=3)
    # p03 now alone in first in the last game, where p02 is still named the winner (p02 keeps the series: 4 to 3 and 3).
    Game.objects.filter(pk=last.pk).update(places=[3, 2, 1])
    status, out = audit()
    assert status == 1
    record = f"match {organised.pk} (p01 v p02 v p03)"
    assert f"{record}: game 3 winner is 'p02', expected 'p03'" in out
    assert "by its evidence" not in out, "an organiser's result has no evidence to agree with"
    assert f"rating change of p03 for match {organised.pk}: rating_after is " in out


def test_a_table_series_winner_set_by_hand_is_named(tables):
    organised = tables["organised"]
    Match.objects.filter(pk=organised.pk).update(winner=tables["players"][0])
    status, out = audit()
    assert status == 1
    assert f"match {organised.pk} (p01 v p02 v p03): winner is 'p01', expected 'p02'" in out


def test_places_that_are_no_finishing_order_are_named(tables):
    game = tables["reported"].games.get()
    Game.objects.filter(pk=game.pk).update(places=[1, 2, 2, 3])
    status, out = audit()
    assert status == 1
    record = f"match {tables['reported'].pk} (p01 v p02 v p03 v p04)"
    assert f"{record}: game 1 places is [1, 2, 2, 3], expected 'a finishing order of 4 places'" in out
    # Counted for nothing in the series now: no decided game, so the match should still be on.
    assert f"{record}: status is 'finished', expected 'in_progress'" in out


def test_a_team_game_whose_partners_are_split_is_named(organiser):
    players = make_players(4)
    match = match_create(players=[p.handle for p in players], ruleset="team", best_of=1)
    game_set_result(game_id=match.games.get().pk, user=organiser, winner="p03")  # p01 and p03 against p02 and p04
    assert audit()[0] == 0
    Game.objects.filter(match=match).update(places=[1, 1, 3, 3])
    status, out = audit()
    assert status == 1
    record = f"match {match.pk} (p01 & p03 v p02 & p04)"
    assert f"{record}: game 1 places is [1, 1, 3, 3], expected 'one team first (both partners), the other after'" in out
