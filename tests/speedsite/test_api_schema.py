"""The schema says what the API answers: each status it can give, and the shape of what it takes.

Each statement is checked against the API itself: a request the schema names an answer for gets
that answer, and a constraint the schema states is one the API holds to.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from core.api_schema import NON_BLANK_PATTERN
from play.services import practice_rulesets
from speedrules import PRESETS
from tests.factories import make_user

pytestmark = pytest.mark.django_db

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
READS = sorted(path for path, methods in SCHEMA["paths"].items() if "get" in methods and "{" not in path)


def _request_schema(name: str) -> dict[str, Any]:
    return SCHEMA["components"]["schemas"][name]  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", READS)
def test_a_public_read_refuses_a_bad_token_with_a_documented_401(anon: Any, path: str) -> None:
    assert "401" in SCHEMA["paths"][path]["get"]["responses"]
    assert anon.get(path, HTTP_AUTHORIZATION="Token not-a-token").status_code == 401


def test_a_revoked_token_is_refused_on_a_read_too(anon: Any) -> None:
    token = Token.objects.create(user=make_user("gone"))
    key = token.key
    token.delete()
    assert anon.get("/api/matches/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 401


@pytest.mark.parametrize("path", READS)
def test_an_accept_header_it_cannot_answer_is_a_documented_406(anon: Any, path: str) -> None:
    assert "406" in SCHEMA["paths"][path]["get"]["responses"]
    assert anon.get(path, HTTP_ACCEPT="text/csv").status_code == 406


def test_the_login_documents_no_credentials_it_never_checks() -> None:
    responses = SCHEMA["paths"]["/api/token/"]["post"]["responses"]
    assert "401" not in responses and "403" not in responses
    assert "429" in responses


def test_non_blank_means_what_pythons_strip_means() -> None:
    # Python reads the pattern as the server would; ECMA's `\s` (JSON Schema's) differs only at
    # U+001C to U+001F, U+0085 (Python's) and U+FEFF (ECMA's), which the pattern names itself.
    pattern = re.compile(NON_BLANK_PATTERN)
    disagree = [
        hex(code)
        for code in range(sys.maxunicode + 1)
        if not 0xD800 <= code <= 0xDFFF and (chr(code).strip() == "") != (pattern.search(chr(code)) is None)
    ]
    assert disagree == []


def test_a_reason_of_only_a_unit_separator_is_refused_as_blank_and_the_schema_says_so(
    client_for: Any, organiser: Any
) -> None:
    reason = _request_schema("GameDisputeInput")["properties"]["reason"]
    assert not re.search(reason["pattern"], "\x1f")
    answer = client_for(organiser).post("/api/games/1/dispute/", {"reason": "\x1f"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["extra"]["fields"] == {"reason": ["This field may not be blank."]}


def test_a_practice_table_lists_its_rulesets_and_one_bot_per_other_seat() -> None:
    schema = _request_schema("PracticeInput")
    for name in practice_rulesets():
        fits = [
            branch["properties"]["bots"]["minItems"]
            for branch in schema["oneOf"]
            if re.search(branch["properties"]["ruleset"]["pattern"], name)
        ]
        assert fits == [PRESETS[name].players - 1], name


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"ruleset": "speed", "bots": ["easy"]}, 201),
        ({"ruleset": "speed", "bots": ["easy", "easy"]}, 400),
        ({"ruleset": "no-such-preset", "bots": ["easy"]}, 400),
    ],
)
def test_a_practice_table_takes_what_its_schema_allows(client_for: Any, body: dict[str, Any], status: int) -> None:
    answer = client_for(make_user("practiser")).post("/api/tables/", body, format="json")
    assert answer.status_code == status, answer.json()


@pytest.mark.parametrize(
    "name", ["MatchCreateInput", "ChallengeCreateInput", "TournamentSettingsInput", "TournamentCreateInput"]
)
def test_a_series_is_exactly_one_of_best_of_and_first_to(name: str) -> None:
    branches = _request_schema(name)["oneOf"]
    assert [branch["required"] for branch in branches] == [["best_of"], ["first_to"]]


@pytest.mark.parametrize(
    ("series", "status"),
    [({"best_of": 3}, 201), ({"first_to": 2}, 201), ({}, 400), ({"best_of": 3, "first_to": 2}, 400)],
)
def test_a_tournament_takes_exactly_one_series(
    client_for: Any, organiser: Any, series: dict[str, int], status: int
) -> None:
    answer = client_for(organiser).post(
        "/api/tournaments/", {"name": "Cup", "format": "round_robin", **series}, format="json"
    )
    assert answer.status_code == status, answer.json()
