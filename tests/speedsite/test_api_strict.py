"""The API refuses what it would ignore: a body key, a query parameter, a body where none is taken.

Parametrized over the schema's own operations and the URL resolver's views, so a new
endpoint that is not strict fails here without a test of its own.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.views import APIView

from core.api_strict import ApiView, StrictInput, operations
from matches.models import Match
from tests.factories import make_players, make_tournament
from tournaments.formats import FORMATS
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
OPERATIONS = sorted(
    (path, method.upper(), operation)
    for path, methods in SCHEMA["paths"].items()
    for method, operation in methods.items()
    if method in {"get", "post", "put", "patch", "delete"}
)
#: The log uploads: the body is a speed-log/1 document, stored verbatim and judged by the verifier, not keys
#: of a form (a log's own extension keys are the spec's business: docs/spec/speed-log-v1-extension.md).
RAW_DOCUMENT_BODIES = {("/api/games/{game_id}/logs/", "POST"), ("/api/solitaire/", "POST")}
WITH_BODY = [(path, method) for path, method, operation in OPERATIONS if "requestBody" in operation]
WITHOUT_BODY = [(path, method) for path, method, operation in OPERATIONS if "requestBody" not in operation]
EVERY = [(path, method) for path, method, _ in OPERATIONS]
KEYED = [case for case in WITH_BODY if case not in RAW_DOCUMENT_BODIES]
#: The views under /api/ that are not endpoints of the API: the schema and its reading pages (drf-spectacular's).
DOCS_VIEWS = {"SchemaView", "SpectacularSwaggerSplitView", "RedocView"}

UNKNOWN = "surely_not_a_key"


def concrete(path: str) -> str:
    """The path with every parameter filled: the checks run before any view looks its objects up."""
    return re.sub(r"\{[^}]+\}", "1", path)


def ids(cases: list[tuple[str, str]]) -> list[str]:
    return [f"{method} {path}" for path, method in cases]


def send(client: APIClient, method: str, path: str, body: object = None, raw: bytes | None = None) -> Any:
    if raw is None and body is None:
        return client.generic(method, path)
    data = raw if raw is not None else orjson.dumps(body)
    return client.generic(method, path, data=data, content_type="application/json")


def _api_views(resolver: URLResolver | None = None, prefix: str = "") -> list[tuple[str, type]]:
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += _api_views(pattern, route)
        elif isinstance(pattern, URLPattern) and route.startswith("api/"):
            view = getattr(pattern.callback, "cls", None)
            if view is not None and issubclass(view, APIView):
                found.append((route, view))
    return found


@pytest.fixture
def orga(client_for, organiser) -> APIClient:
    return client_for(organiser)


class TestEveryEndpoint:
    def test_every_api_view_is_strict_and_every_handler_documented(self) -> None:
        views = _api_views()
        assert len(views) > 30
        for route, view in views:
            if view.__name__ in DOCS_VIEWS:
                continue
            assert issubclass(view, ApiView), f"{route}: {view.__name__} does not refuse what it does not take"
            for method in view.http_method_names:
                if method not in {"options", "head"} and hasattr(view, method):
                    assert (view, method.upper()) in operations(), f"{route} {method}: not in the schema"

    @pytest.mark.parametrize(("path", "method"), EVERY, ids=ids(EVERY))
    def test_an_unknown_query_parameter_is_refused_first(self, anon, path, method) -> None:
        # Without credentials: the check comes before authentication, so nothing else ran.
        response = send(anon, method, f"{concrete(path)}?{UNKNOWN}=1")
        assert response.status_code == 400, response.content
        assert UNKNOWN in response.json()["message"]
        assert UNKNOWN in response.json()["extra"]["fields"]

    @pytest.mark.parametrize(("path", "method"), KEYED, ids=ids(KEYED))
    def test_an_unknown_body_key_is_refused(self, orga, path, method) -> None:
        response = send(orga, method, concrete(path), {UNKNOWN: 1})
        assert response.status_code == 400, response.content
        body = response.json()
        assert UNKNOWN in body["message"]
        assert "Not taken here" in body["extra"]["fields"][UNKNOWN][0]

    @pytest.mark.parametrize(("path", "method"), KEYED, ids=ids(KEYED))
    def test_the_schema_says_no_other_keys(self, path, method) -> None:
        operation = SCHEMA["paths"][path][method.lower()]
        reference = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        component = SCHEMA["components"]["schemas"][reference.rsplit("/", 1)[1]]
        assert component["additionalProperties"] is False

    @pytest.mark.parametrize(("path", "method"), WITHOUT_BODY, ids=ids(WITHOUT_BODY))
    @pytest.mark.parametrize(
        "raw",
        [
            orjson.dumps({UNKNOWN: True}),
            orjson.dumps([1]),
            b'"revoke"',
            b"[" * 1000 + b"]" * 1000,  # nested deeper than the parser reads
            b"[" * 1000,  # and malformed
        ],
        ids=["object", "list", "string", "deep", "deep-malformed"],
    )
    def test_a_body_where_none_is_taken_is_refused(self, anon, path, method, raw) -> None:
        response = send(anon, method, concrete(path), raw=raw)
        assert response.status_code == 400, response.content
        assert set(response.json()) == {"message", "extra"}

    def test_the_raw_document_bodies_are_the_log_uploads_only(self) -> None:
        for path, method in RAW_DOCUMENT_BODIES:
            schema = SCHEMA["paths"][path][method.lower()]["requestBody"]["content"]["application/json"]["schema"]
            assert "$ref" not in schema and schema["type"] == "object"


class TestBodies:
    def test_a_moved_option_says_where_it_lives(self, orga) -> None:
        response = orga.post("/api/tournaments/", {"name": "Cup", "format": "single_elimination", "third_place": True})
        assert response.status_code == 400
        assert response.json() == {
            "message": "third_place: An option of the format (single_elimination, groups_playoffs): "
            "send it in options.",
            "extra": {
                "fields": {
                    "third_place": [
                        "An option of the format (single_elimination, groups_playoffs): send it in options."
                    ]
                }
            },
        }
        assert not Tournament.objects.exists()

    @pytest.mark.parametrize(
        ("format_key", "name"), [(key, name) for key, fmt in FORMATS.items() for name in fmt.options.specs()]
    )
    def test_every_option_at_the_top_level_is_refused(self, orga, format_key, name) -> None:
        for method, path in (("POST", "/api/tournaments/"), ("PUT", "/api/tournaments/1/")):
            response = send(orga, method, path, {"name": "Cup", "format": format_key, name: None})
            assert response.status_code == 400
            message = response.json()["extra"]["fields"][name][0]
            assert format_key in message and message.endswith("send it in options.")
        assert not Tournament.objects.exists()

    def test_options_in_options_still_work(self, orga) -> None:
        response = orga.post(
            "/api/tournaments/",
            {"name": "Cup", "format": "single_elimination", "best_of": 1, "options": {"third_place": True}},
        )
        assert response.status_code == 201, response.json()
        assert response.json()["options"]["third_place"] is True

    def test_an_entry_rule_in_the_settings_says_where_it_is_set(self, orga, organiser) -> None:
        tournament = make_tournament(organiser, make_players(2), format="round_robin", start=False)
        response = orga.put(
            f"/api/tournaments/{tournament.pk}/", {"name": "Cup", "format": "round_robin", "max_entrants": 8}
        )
        assert response.status_code == 400
        assert response.json()["extra"]["fields"]["max_entrants"] == [
            "An entry rule: set it with PUT /api/tournaments/{id}/entry-rules/."
        ]
        tournament.refresh_from_db()
        assert (tournament.name, tournament.max_entrants) != ("Cup", 8)

    def test_output_only_fields_are_refused(self, orga, alice, ben) -> None:
        # What the answer shows (the id, the status, the winner) is not a setting of a new match.
        response = orga.post(
            "/api/matches/",
            {"players": ["alice", "ben"], "best_of": 1, "id": 7, "status": "finished", "winner": "alice"},
        )
        assert response.status_code == 400
        assert set(response.json()["extra"]["fields"]) == {"id", "status", "winner"}
        assert not Match.objects.exists()

    def test_a_nested_unknown_key_is_refused(self, orga) -> None:
        response = orga.post(
            "/api/tournaments/1/matches/W1-1/correct/", {"games": [{"game": 1, "winner": "alice", "loser": "ben"}]}
        )
        assert response.status_code == 400
        assert response.json()["extra"]["fields"]["games"]["0"] == {  # DRF names the item by its index
            "loser": ["Not taken here; the keys taken are game, places, winner, void."]
        }

    def test_unknown_keys_and_the_fields_own_errors_are_said_together(self, orga) -> None:
        response = orga.post("/api/players/", {"colour": "red"})
        assert response.status_code == 400
        assert set(response.json()["extra"]["fields"]) == {"colour", "handle"}

    def test_a_read_only_field_is_refused(self) -> None:
        class Shaped(StrictInput):
            id = serializers.IntegerField(read_only=True)
            name = serializers.CharField()

        refused = Shaped(data={"id": 3, "name": "x"})
        assert not refused.is_valid()
        assert refused.errors == {"id": ["Not taken here; the keys taken are name."]}
        assert Shaped(data={"name": "x"}).is_valid()


class TestNoBody:
    def test_revoke_with_a_body_keeps_the_token(self, client_for, alice) -> None:
        client = client_for(alice.user)
        for raw in (orjson.dumps({"all": True}), b"[" * 1000 + b"]" * 1000, b"[" * 1000):
            response = send(client, "POST", "/api/token/revoke/", raw=raw)
            assert response.status_code == 400
            assert Token.objects.filter(user=alice.user).exists()
        assert send(client, "POST", "/api/token/revoke/").status_code == 204
        assert not Token.objects.filter(user=alice.user).exists()

    def test_an_empty_object_is_no_body(self, client_for, alice) -> None:
        assert send(client_for(alice.user), "POST", "/api/token/revoke/", raw=b" {} ").status_code == 204
        assert not Token.objects.filter(user=alice.user).exists()

    def test_a_form_body_is_the_parsers_415(self, client_for, alice) -> None:
        response = client_for(alice.user).generic(
            "POST", "/api/token/revoke/", data=b"all=1", content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code == 415
        assert Token.objects.filter(user=alice.user).exists()

    def test_a_start_with_a_body_does_not_start(self, orga, organiser) -> None:
        tournament = make_tournament(organiser, make_players(4), format="single_elimination", start=False)
        response = orga.post(f"/api/tournaments/{tournament.pk}/start/", {"force": True})
        assert response.status_code == 400
        assert response.json()["extra"]["fields"] == {"force": ["This endpoint takes no body: send none."]}
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.SETUP


class TestQueryParameters:
    def test_the_renderer_override_is_taken_everywhere(self, anon) -> None:
        assert anon.get("/api/players/?format=json").status_code == 200

    def test_a_listed_parameter_is_taken(self, anon) -> None:
        assert anon.get("/api/matches/?status=finished&limit=5").status_code == 200

    def test_the_message_says_what_is_taken(self, anon) -> None:
        response = anon.get("/api/players/?page=2")
        assert response.status_code == 400
        assert response.json()["extra"]["fields"] == {
            "page": ["Not a query parameter of this endpoint; it takes format, limit, offset, search."]
        }

    def test_a_repeated_parameter_is_refused(self, anon) -> None:
        response = anon.get("/api/matches/?status=finished&status=in_progress")
        assert response.status_code == 400
        assert response.json()["extra"]["fields"] == {"status": ["Given 2 times; give it once."]}

    def test_head_is_checked_as_get(self, anon) -> None:
        assert anon.head("/api/players/").status_code == 200
        assert anon.head(f"/api/players/?{UNKNOWN}=1").status_code == 400

    def test_a_refused_write_did_nothing(self, client_for, alice) -> None:
        response = client_for(alice.user).post(f"/api/token/revoke/?{UNKNOWN}=1")
        assert response.status_code == 400
        assert Token.objects.filter(user=alice.user).exists()

    def test_an_unsupported_method_is_still_a_405(self, orga) -> None:
        assert orga.patch(f"/api/players/?{UNKNOWN}=1", {UNKNOWN: 1}).status_code == 405
