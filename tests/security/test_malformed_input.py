"""Malformed input is a 4xx in the project's shape (JSON on the API, the site's page on the site), never a 500."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def _api_error(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"message", "extra"}
    return body


class TestNulBytes:
    @pytest.mark.parametrize(
        "url",
        [
            "/api/players/?search=%00",
            "/api/matches/?player=%00",
            "/api/players/%00/",
            "/api/tournaments/ratings/%00/",
            "/api/tournaments/?status=%00",
            "/api/players/?%00=1",
        ],
    )
    def test_api_answers_json_400(self, anon, url):
        _api_error(anon.get(url), 400)

    @pytest.mark.parametrize("url", ["/players/%00/", "/players/?q=%00", "/tournaments/?status=%00"])
    def test_site_answers_its_400_page(self, url):
        response = Client().get(url)
        assert response.status_code == 400
        assert b"<html" in response.content

    def test_a_nul_inside_a_json_body_is_400(self, client_for, organiser):
        response = client_for(organiser).post(
            "/api/matches/",
            b'{"players": ["a", "b"], "ruleset": {"name": "x\\u0000"}}',
            content_type="application/json",
        )
        _api_error(response, 400)


class TestDeepNesting:
    @pytest.mark.parametrize("url", ["/api/token/", "/api/matches/", "/api/tournaments/", "/api/players/"])
    def test_a_body_nested_100000_deep_is_400(self, client_for, organiser, url):
        client = client_for(organiser)
        body = _api_error(client.post(url, DEEP, content_type="application/json"), 400)
        assert "deep" in body["message"]


class TestNumbers:
    @pytest.mark.parametrize(
        "query", ["limit=99999999999999999999", "offset=99999999999999999999", "limit=-1", "offset=abc", "limit=\u0661"]
    )
    def test_pagination_out_of_range_is_400(self, anon, query):
        for url in ("/api/players/", "/api/matches/", "/api/tournaments/"):
            _api_error(anon.get(f"{url}?{query}"), 400)

    def test_a_path_id_beyond_bigint_is_404(self, anon):
        _api_error(anon.get("/api/matches/99999999999999999999/"), 404)
        _api_error(anon.get("/api/logs/99999999999999999999/"), 404)

    @pytest.mark.parametrize(("field", "value"), [("best_of", 2**31), ("confirm_within", 2**40)])
    def test_tournament_numbers_beyond_their_column_are_400_and_nothing_is_stored(
        self, client_for, organiser, field, value
    ):
        body = {"name": "Range", "format": "swiss", "best_of": 1, field: value}
        error = _api_error(client_for(organiser).post("/api/tournaments/", body, format="json"), 400)
        assert field in error["extra"]["fields"]
        assert not Tournament.objects.exists()

    @pytest.mark.parametrize(
        ("format", "option", "value"),
        [
            ("single_elimination", "rng_seed", 10**30),
            ("swiss", "swiss_rounds", 10**9),
            ("swiss", "swiss_rounds", 65537),
            ("winner_stays_on", "max_matches", 4294967301),
            ("groups_playoffs", "group_count", -1),
        ],
    )
    def test_format_options_out_of_range_are_400_naming_the_option_and_nothing_is_stored(
        self, client_for, organiser, format, option, value
    ):
        body = {"name": "Range", "format": format, "best_of": 1, "options": {option: value}}
        error = _api_error(client_for(organiser).post("/api/tournaments/", body, format="json"), 400)
        assert error["extra"] == {"field": f"options.{option}"}
        assert not Tournament.objects.exists()

    @pytest.mark.parametrize("seed", [2**63, 4294967299, 0])
    def test_an_entrant_seed_beyond_its_column_is_400(self, client_for, organiser, alice, seed):
        tournament = client_for(organiser).post(
            "/api/tournaments/", {"name": "S", "format": "swiss", "best_of": 1}, format="json"
        )
        url = f"/api/tournaments/{tournament.json()['id']}/entrants/"
        _api_error(client_for(organiser).post(url, {"player": "alice", "seed": seed}, format="json"), 400)
        assert not Entrant.objects.exists()

    def test_a_match_series_beyond_its_column_is_400(self, client_for, organiser, alice, ben):
        body = {"players": ["alice", "ben"], "first_to": 65537}
        _api_error(client_for(organiser).post("/api/matches/", body, format="json"), 400)


class TestText:
    def test_a_lone_surrogate_is_400_not_echoed_into_a_500(self, client_for, organiser):
        for body in (b'{"handle": "\\ud800"}', b'{"handle": "ok", "display_name": "\\udfff"}'):
            _api_error(client_for(organiser).post("/api/players/", body, content_type="application/json"), 400)

    def test_a_body_in_a_bad_encoding_is_400(self, client_for, organiser):
        response = client_for(organiser).post(
            "/api/players/", b'{"handle": "\xff\xfe"}', content_type="application/json"
        )
        _api_error(response, 400)

    def test_wrong_types_are_400(self, client_for, organiser):
        client = client_for(organiser)
        _api_error(client.post("/api/matches/", {"players": "alice", "best_of": "x"}, format="json"), 400)
        _api_error(client.post("/api/tournaments/", [1, 2], format="json"), 400)
        _api_error(client.post("/api/token/", {"username": ["a"], "password": {}}, format="json"), 400)


class TestEnums:
    @pytest.mark.parametrize(
        "url",
        [
            "/api/matches/?status=nonsense",
            "/api/tournaments/?status=nonsense",
            "/api/tournaments/?tournament_format=nonsense",
        ],
    )
    def test_unknown_enum_values_are_400(self, anon, url):
        _api_error(anon.get(url), 400)

    def test_the_format_filter_has_a_name_that_does_not_clash(self, anon, client_for, organiser):
        client_for(organiser).post("/api/tournaments/", {"name": "Sw", "format": "swiss", "best_of": 1}, format="json")
        client_for(organiser).post(
            "/api/tournaments/", {"name": "RR", "format": "round_robin", "best_of": 1}, format="json"
        )
        response = anon.get("/api/tournaments/?tournament_format=swiss")
        assert response.status_code == 200
        assert [t["name"] for t in response.json()["results"]] == ["Sw"]
        assert anon.get("/api/tournaments/?format=swiss").json()["count"] == 1  # the old name still works


class TestUnmatched:
    @pytest.mark.parametrize("url", ["/api/nothing/", "/api/players/alice/extra/", "/api/tournaments/1/nope/"])
    def test_an_unmatched_api_path_is_json_404(self, anon, url):
        _api_error(anon.get(url), 404)

    def test_an_unmatched_site_path_is_the_site_page(self):
        response = Client().get("/no-such-page/")
        assert response.status_code == 404
        assert b"<html" in response.content
