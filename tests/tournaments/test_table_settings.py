"""A tournament's own times at the tables (speed-table/1 amendment L5): the one check, the API, the selector."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import Invalid
from tests.factories import make_match, make_players, make_tournament, ready
from tournaments.models import Tournament
from tournaments.selectors import tournament_table_settings
from tournaments.services.running import pairing_call
from tournaments.table_settings import table_settings_clean, table_settings_ms

#: The site's defaults as production has them (milliseconds).
SITE = {"claim_ms": 30_000, "abandon_ms": 60_000, "collision_ms": 250}


def refused(raw: object, site: dict[str, Any] = SITE) -> Invalid:
    with pytest.raises(Invalid) as caught:
        table_settings_clean(raw, site=site)
    return caught.value


class TestTheCheck:
    def test_only_what_was_given_is_kept(self) -> None:
        assert table_settings_clean({}, site=SITE) == {}
        assert table_settings_clean(None, site=SITE) == {}
        assert table_settings_clean({"claim_seconds": 45}, site=SITE) == {"claim_seconds": 45}
        both = {"claim_seconds": 60, "abandon_seconds": 300, "no_show_seconds": 120}
        assert table_settings_clean(both, site=SITE) == both
        assert table_settings_clean({"no_show_seconds": None}, site=SITE) == {"no_show_seconds": None}

    @pytest.mark.parametrize(
        ("name", "low", "high"),
        [("claim_seconds", 10, 600), ("abandon_seconds", 30, 1800), ("no_show_seconds", 30, 1800)],
    )
    def test_bounds(self, name: str, low: int, high: int) -> None:
        # A short claim and the longest abandon, so only the bound itself can refuse.
        site = {**SITE, "claim_ms": 1_000}
        other = {"abandon_seconds": 1800} if name != "abandon_seconds" else {}
        assert table_settings_clean({name: low, **other}, site=site)[name] == low
        top = high - 1 if name == "no_show_seconds" else high  # a no-show at 1800 s meets the longest abandon
        assert table_settings_clean({name: top, **other}, site=site)[name] == top
        for wrong in (low - 1, high + 1):
            error = refused({name: wrong}, site)
            assert error.extra["field"] == f"table_settings.{name}"
            assert f"from {low} to {high} seconds" in error.message

    @pytest.mark.parametrize("wrong", [30.0, "30", True, [30], {"s": 30}])
    def test_a_number_of_seconds_is_a_whole_json_number(self, wrong: object) -> None:
        assert "whole number of seconds" in refused({"claim_seconds": wrong}).message

    def test_null_means_nothing_only_for_a_no_show(self) -> None:
        error = refused({"claim_seconds": None})
        assert error.extra["field"] == "table_settings.claim_seconds" and "leave it out" in error.message

    def test_unknown_names_and_shapes_are_refused(self) -> None:
        error = refused({"claim_ms": 30_000})
        assert error.extra["field"] == "table_settings.claim_ms"
        assert "claim_seconds, abandon_seconds, no_show_seconds" in error.message
        assert refused([30]).extra["field"] == "table_settings"

    def test_a_no_show_must_forfeit_before_the_abort(self) -> None:
        error = refused({"abandon_seconds": 120, "no_show_seconds": 120})
        assert error.extra["field"] == "table_settings.no_show_seconds"
        assert "must be shorter than abandon_seconds (120 s)" in error.message and "aborted" in error.message
        # Against the site's abandon when the organiser left it out, said as the site's.
        error = refused({"no_show_seconds": 90})
        assert "(60 s, the site's default)" in error.message
        assert table_settings_clean({"no_show_seconds": 60, "abandon_seconds": 61}, site=SITE)

    def test_a_claim_must_come_before_the_abandonment(self) -> None:
        error = refused({"claim_seconds": 300, "abandon_seconds": 300})
        assert error.extra["field"] == "table_settings.claim_seconds" and "claim" in error.message
        # An abandon set below the site's claim (30 s) names the abandon: the claim was not given.
        error = refused({"abandon_seconds": 30})
        assert error.extra["field"] == "table_settings.abandon_seconds"
        assert "claim_seconds (30 s, the site's default) must be shorter than abandon_seconds (30 s)" in error.message

    def test_the_tables_keys_are_milliseconds(self) -> None:
        stored = {"claim_seconds": 20, "no_show_seconds": None}
        assert table_settings_ms(stored) == {"claim_ms": 20_000, "no_show_ms": None}


@pytest.mark.django_db
class TestTheApi:
    TIMES = {"claim_seconds": 45, "abandon_seconds": 300, "no_show_seconds": 120}

    def body(self, **more: Any) -> dict[str, Any]:
        return {"name": "Table cup", "format": "round_robin", "best_of": 1, **more}

    def test_set_read_and_replaced(self, client_for: Any, organiser: Any, anon: Any) -> None:
        api = client_for(organiser)
        made = api.post("/api/tournaments/", self.body(table_settings=self.TIMES), format="json")
        assert made.status_code == 201, made.json()
        url = f"/api/tournaments/{made.json()['id']}/"
        assert made.json()["table_settings"] == self.TIMES
        assert anon.get(url).json()["table_settings"] == self.TIMES
        assert anon.get("/api/tournaments/").json()["results"][0]["table_settings"] == self.TIMES
        # A PUT replaces the settings: a name left out is the site's again.
        put = api.put(url, self.body(table_settings={"no_show_seconds": None}), format="json")
        assert put.status_code == 200, put.json()
        assert put.json()["table_settings"] == {"no_show_seconds": None}
        assert api.put(url, self.body(), format="json").json()["table_settings"] == {}
        assert Tournament.objects.get(pk=made.json()["id"]).table_settings == {}

    @pytest.mark.parametrize(
        ("times", "field"),
        [
            ({"claim_seconds": 45, "grace_seconds": 5}, "table_settings.grace_seconds"),
            ({"claim_seconds": 5}, "table_settings.claim_seconds"),
            ({"abandon_seconds": 300, "no_show_seconds": 300}, "table_settings.no_show_seconds"),
            ({"abandon_seconds": 300, "claim_seconds": 400}, "table_settings.claim_seconds"),
            ({"claim_seconds": "45"}, "table_settings.claim_seconds"),
        ],
    )
    def test_refused_with_the_field_named(self, client_for: Any, organiser: Any, times: Any, field: str) -> None:
        answer = client_for(organiser).post("/api/tournaments/", self.body(table_settings=times), format="json")
        assert answer.status_code == 400
        assert answer.json()["extra"]["field"] == field, answer.json()
        assert not Tournament.objects.exists()

    def test_not_an_object_is_a_400(self, client_for: Any, organiser: Any) -> None:
        for wrong in (None, [1], "30"):
            answer = client_for(organiser).post("/api/tournaments/", self.body(table_settings=wrong), format="json")
            assert answer.status_code == 400, wrong

    def test_a_refused_put_changes_nothing(self, client_for: Any, organiser: Any) -> None:
        api = client_for(organiser)
        made = api.post("/api/tournaments/", self.body(table_settings=self.TIMES), format="json").json()
        bad = api.put(f"/api/tournaments/{made['id']}/", self.body(table_settings={"x": 1}), format="json")
        assert bad.status_code == 400
        assert Tournament.objects.get(pk=made["id"]).table_settings == self.TIMES


@pytest.mark.django_db
class TestTheSelector:
    def test_a_called_match_has_the_tournaments_times_and_its_no_show(self, organiser: Any) -> None:
        times = {"claim_seconds": 20, "abandon_seconds": 300, "no_show_seconds": 90}
        tournament = make_tournament(organiser, make_players(2), format="single_elimination", table_settings=times)
        (final,) = ready(tournament)
        assert final.match_id is not None
        # Not yet called: nobody is expected at the table, so no forfeit.
        assert tournament_table_settings(match_id=final.match_id) == {
            "claim_ms": 20_000,
            "abandon_ms": 300_000,
            "no_show_ms": None,
        }
        pairing_call(tournament_id=tournament.pk, key=final.key, user=organiser)
        assert tournament_table_settings(match_id=final.match_id)["no_show_ms"] == 90_000

    def test_a_tournament_that_set_nothing_still_forfeits_nobody(self, organiser: Any) -> None:
        tournament = make_tournament(organiser, make_players(2), format="single_elimination")
        (final,) = ready(tournament)
        assert final.match_id is not None
        pairing_call(tournament_id=tournament.pk, key=final.key, user=organiser)
        assert tournament_table_settings(match_id=final.match_id) == {"no_show_ms": None}

    def test_a_casual_match_has_none(self) -> None:
        one, two = make_players(2)
        assert tournament_table_settings(match_id=make_match(one, two).pk) == {}
