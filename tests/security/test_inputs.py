"""Inputs that broke a page or bent a number: each is refused cleanly (a form's error, a 400), never a 500,
never stored wrapped or read as another number (`core.numbers`, `core.json_documents`,
`core.middleware`)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.http import urlsafe_base64_encode
from rest_framework import serializers

from core.json_documents import MAX_DEPTH
from core.numbers import (
    NumberError,
    WholeNumberField,
    WholeNumberSerializerField,
    column_range,
    whole_number,
)
from matches.models import Match
from replays.models import MatchLog, SolitaireRun
from tests.factories import body, make_match, make_player, make_players, make_tournament, submit, won_log
from tournaments.models import Entrant, Tournament
from web.views.players import PLAYERS_PER_PAGE

pytestmark = pytest.mark.django_db

#: What `str.isdigit()` or `int()` took for digits: superscripts, circled digits, Arabic-Indic digits, underscores.
NOT_ASCII_DIGITS = ["²", "①", "\u0661", "\u0663", "1_000", "\uff13"]


def site(user: Any = None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def _api_error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"message", "extra"}
    return body


class TestTheParser:
    @pytest.mark.parametrize("text", [*NOT_ASCII_DIGITS, "", " ", "-", "1.0", "1e3", "+1", "0x10", "--1"])
    def test_only_ascii_digits_are_a_number(self, text):
        with pytest.raises(NumberError):
            whole_number(text, low=-(10**9), high=10**9)

    @pytest.mark.parametrize(("text", "value"), [("0", 0), (" 42 ", 42), ("-7", -7), ("007", 7)])
    def test_whole_numbers(self, text, value):
        assert whole_number(text, low=-10, high=100) == value

    def test_a_number_out_of_range_is_refused_with_its_range(self):
        with pytest.raises(NumberError, match="from 1 to 99, not 100"):
            whole_number("100", low=1, high=99)
        with pytest.raises(NumberError, match="digits"):
            whole_number("9" * 5000, low=0, high=10)

    def test_a_columns_range_is_its_type_on_every_database(self):
        assert column_range(Entrant, "seed") == (0, 2**31 - 1)
        assert column_range(Match, "series_length") == (0, 32767)


class TestTheFields:
    """How a form or a serializer adopts the parser: bounds from the column, narrowed by the caller."""

    def test_the_form_field(self):
        field = WholeNumberField(column=(Entrant, "seed"), min_value=1, required=False)
        assert (field.min_value, field.max_value) == (1, 2**31 - 1)
        assert field.clean(" 12 ") == 12
        assert field.clean("") is None
        for bad in ("4294967299", "0", "\u0663", "1.0"):
            with pytest.raises(forms.ValidationError):
                field.clean(bad)

    def test_the_serializer_field(self):
        field = WholeNumberSerializerField(column=(Match, "series_length"), min_value=1)
        assert field.run_validation(5) == 5
        for bad in (65537, 0, "5", 5.0, True, None):
            with pytest.raises(serializers.ValidationError):
                field.run_validation(bad)

    def test_a_field_without_bounds_is_a_mistake(self):
        with pytest.raises(TypeError):
            WholeNumberField(min_value=1)
        with pytest.raises(TypeError):
            WholeNumberSerializerField(max_value=3)


class TestSiteForms:
    """The organiser's and the player's forms: a number beyond its column, or in other digits, is the form's error."""

    def _new_tournament(self, organiser: Any, **fields: str) -> Any:
        data = {"name": "T", "format": "swiss", "series": "best_of", "series_length": "1", "ruleset": "speed"}
        return site(organiser).post("/organise/tournaments/new/", {**data, **fields})

    @pytest.mark.parametrize(
        ("fields", "field"),
        [
            ({"swiss-swiss_rounds": "65537"}, "swiss-swiss_rounds"),
            ({"format": "winner_stays_on", "winner_stays_on-max_matches": "4294967301"}, "winner_stays_on-max_matches"),
            (
                {"format": "single_elimination", "single_elimination-rng_seed": str(10**30)},
                "single_elimination-rng_seed",
            ),
            ({"format": "tables", "tables-points_four": "①-1-0-0"}, "tables-points_four"),
            ({"swiss-swiss_rounds": "\u0661"}, "swiss-swiss_rounds"),
            ({"series_length": "\u0663"}, "series_length"),
            ({"time_limit_seconds": "²"}, "time_limit_seconds"),
        ],
    )
    def test_a_new_tournaments_numbers(self, organiser, fields, field):
        response = self._new_tournament(organiser, **fields)
        assert response.status_code == 200
        assert field in response.context["form"].errors
        assert not Tournament.objects.exists()

    @pytest.mark.parametrize("seed", ["4294967299", "2147483648", "²", "\u0663"])
    def test_an_entrants_seed(self, organiser, alice, seed):
        tournament = make_tournament(organiser, [], format="swiss", start=False)
        response = site(organiser).post(
            f"/organise/tournaments/{tournament.pk}/", {"action": "add", "handle": "alice", "seed": seed}
        )
        assert response.status_code == 200
        assert "seed" in response.context["form"].errors
        assert not Entrant.objects.exists()

    @pytest.mark.parametrize("points", ["①-1-0", "2-1-\u0661", "2-1-" + "9" * 50])
    def test_a_new_matchs_points_per_place(self, organiser, alice, ben, carol, points):
        response = site(organiser).post(
            "/matches/new/",
            {
                "players": "alice ben carol",
                "ruleset": "three-way",
                "series": "first_to",
                "series_length": "3",
                "points_per_place": points,
            },
        )
        assert response.status_code == 200
        assert "points_per_place" in response.context["form"].errors
        assert not Match.objects.exists()


class TestQueryStrings:
    @pytest.mark.parametrize("page", ["²", "①", "\u0661", "0", "-1", "99999999999999999999"])
    def test_a_page_in_other_digits_is_the_first_page(self, alice, page):
        make_players(PLAYERS_PER_PAGE, "p")  # with alice, two pages: neither the last page nor a 404 passes
        first = [player.handle for player in site().get("/players/", {"page": "1"}).context["players"]]
        players = site().get("/players/", {"page": page})
        assert players.status_code == 200
        shown = players.context["pager"]
        assert (shown.number, shown.paginator.num_pages) == (1, 2)
        assert [player.handle for player in players.context["players"]] == first
        board = site().get("/solitaire/", {"page": page})
        assert board.status_code == 200 and board.context["board"].number == 1
        tournaments = site().get("/tournaments/", {"page": page})  # one list, no pages: the page is ignored
        assert tournaments.status_code == 200
        assert tournaments.context["tournaments"] == site().get("/tournaments/").context["tournaments"]

    @pytest.mark.parametrize("value", ["²", "\u0661", "99999999999999999999", ""])
    def test_the_live_poll_takes_only_an_id(self, value):
        for name in ("tournament", "match"):
            response = site().get("/live/", {name: value})
            assert response.status_code == 200
            assert "version" in response.json()

    @pytest.mark.parametrize("query", ["limit=", "offset=", "limit=%C2%B2", "offset=%D9%A1"])
    def test_the_apis_empty_or_odd_page_numbers_are_400(self, anon, query):
        for url in ("/api/players/", "/api/matches/", "/api/tournaments/"):
            assert "fields" in _api_error(anon.get(f"{url}?{query}"), 400)["extra"]

    @pytest.mark.parametrize("query", ["offset=", "limit=", "limit=%D9%A1", "offset=99999999999"])
    def test_a_logs_steps_empty_or_odd_numbers_are_400(self, anon, alice, ben, query):
        log = _verified_log(alice, ben)
        _api_error(anon.get(f"/api/logs/{log.pk}/steps/?{query}"), 400)
        chunk = query.replace("offset", "from").replace("limit", "count")
        _api_error(anon.get(f"/api/logs/{log.pk}/steps/compact/?{chunk}"), 400)

    @pytest.mark.parametrize("value", ["", "%C2%B2", "%D9%A1", "99999999999"])
    def test_a_pairings_round_must_be_a_number(self, anon, organiser, value):
        tournament = make_tournament(organiser, [], format="swiss", start=False)
        error = _api_error(anon.get(f"/api/tournaments/{tournament.pk}/matches/?round={value}"), 400)
        assert error["extra"] == {"field": "round"}


def _verified_log(alice: Any, ben: Any) -> MatchLog:
    match = make_match(alice, ben)
    return submit(body(won_log("speed", ["alice", "ben"])), user=alice.user, match=match)


class TestApiBodies:
    @pytest.mark.parametrize("value", ["\u0663", "3", "3.0", 3.0, True, "1_0", "", " "])
    def test_a_series_is_a_json_integer(self, client_for, organiser, alice, ben, value):
        body = {"players": ["alice", "ben"], "best_of": value}
        error = _api_error(client_for(organiser).post("/api/matches/", body, format="json"), 400)
        assert "best_of" in error["extra"]["fields"]
        assert not Match.objects.exists()

    def test_a_json_integer_counts(self, client_for, organiser, alice, ben):
        body = {"players": ["alice", "ben"], "best_of": 3}
        response = client_for(organiser).post("/api/matches/", body, format="json")
        assert response.status_code == 201, response.content
        assert Match.objects.get().series_length == 3

    @pytest.mark.parametrize("seed", ["\u0663", 4294967299, 2.0])
    def test_an_entrants_seed(self, client_for, organiser, alice, seed):
        tournament = make_tournament(organiser, [], format="swiss", start=False)
        url = f"/api/tournaments/{tournament.pk}/entrants/"
        _api_error(client_for(organiser).post(url, {"player": "alice", "seed": seed}, format="json"), 400)
        assert not Entrant.objects.exists()


class TestNulBytes:
    def test_a_nul_in_the_session_cookie_is_400_on_every_page(self):
        for url in ("/", "/players/", "/api/players/"):
            client = site()
            # A quoted cookie's octal escape is how a NUL travels in a Cookie header.
            response = client.get(url, HTTP_COOKIE='sessionid="abcdefghijk\\000lmnopqrstuvwxyz1234"')
            assert response.status_code == 400, (url, response.status_code)

    @pytest.mark.parametrize(
        "data",
        [
            {"action": "remove", "handle": "alice\x00"},
            {"action": "approve", "registration": "1\x00"},
            {"action": "add", "handle": "al\x00ice"},
            {"action\x00": "remove"},
        ],
    )
    def test_a_nul_in_an_organisers_form_is_400(self, organiser, alice, data):
        tournament = make_tournament(organiser, [alice], format="swiss", start=False)
        response = site(organiser).post(f"/organise/tournaments/{tournament.pk}/", data)
        assert response.status_code == 400
        assert b"NUL" in response.content
        assert Entrant.objects.filter(player=alice).exists()


class TestLogins:
    @pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
    def test_a_username_longer_than_its_column_is_the_forms_error(self, url):
        response = site().post(url, {"username": "a" * 256, "password": "x"})
        assert response.status_code == 200
        assert "username" in response.context["form"].errors

    def test_an_invite_link_naming_no_possible_user_is_404(self):
        for uid in ("99999999999999999999", "²", "-1"):
            encoded = urlsafe_base64_encode(uid.encode())
            assert site().get(f"/accounts/claim/{encoded}/token/").status_code == 404
        assert not get_user_model().objects.exists()


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


class TestDeepDocuments:
    """A document nested past `MAX_DEPTH` is refused by the one reader every body and log goes through."""

    @pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 1023, 100_000])
    @pytest.mark.parametrize("where", ["players", "extra"])
    def test_a_solitaire_run(self, client_for, capture, depth, where):
        sam = make_player("sam")
        document = orjson.dumps({"format": "speed-log/1", "players": "@", "deck": [], "events": []}).decode()
        if where == "players":
            document = document.replace('"@"', _nested(depth))
        else:
            document = document[:-1] + f', "extra": {_nested(depth)}}}'
        with capture(execute=True):
            response = client_for(sam.user).post("/api/solitaire/", document, content_type="application/json")
        assert "nested" in _api_error(response, 400)["message"]
        assert not SolitaireRun.objects.exists()

    @pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000])
    def test_a_match_log(self, client_for, capture, alice, ben, depth):
        game = make_match(alice, ben).games.get()
        document = orjson.dumps(won_log("speed", ["alice", "ben"])).decode()
        document = document[:-1] + f', "extra": {_nested(depth)}}}'
        with capture(execute=True):
            response = client_for(alice.user).post(
                f"/api/games/{game.pk}/logs/", document, content_type="application/json"
            )
        assert "nested" in _api_error(response, 400)["message"]
        assert not MatchLog.objects.exists()

    @pytest.mark.parametrize("url", ["/api/matches/", "/api/players/", "/api/token/"])
    def test_an_api_body(self, client_for, organiser, url):
        response = client_for(organiser).post(url, _nested(1000), content_type="application/json")
        assert "nested" in _api_error(response, 400)["message"]

    def test_a_real_log_is_well_within_the_depth(self, client_for, capture, alice, ben):
        game = make_match(alice, ben).games.get()
        with capture(execute=True):
            response = client_for(alice.user).post(
                f"/api/games/{game.pk}/logs/",
                orjson.dumps(won_log("speed", ["alice", "ben"])),
                content_type="application/json",
            )
        assert response.status_code == 202, response.content


class TestLogSubmitForm:
    @pytest.mark.parametrize("game", ["\u0661", "99999999999999999999999", "1\u0660"])
    def test_a_game_in_other_digits_is_no_choice(self, alice, ben, game):
        make_match(alice, ben)
        response = site(alice.user).post("/submit/", {"game": game, "text": "{}"})
        assert response.status_code == 200
        assert "game" in response.context["form"].errors
        assert not MatchLog.objects.exists()
