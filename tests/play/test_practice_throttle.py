"""Practice tables per player are rate-limited: one budget for the API and the /play/ page, in the shared cache."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from play.models import Table
from tests.factories import make_player

pytestmark = pytest.mark.django_db

BODY = {"ruleset": "speed", "bots": ["easy"]}


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@override_settings(SPEED_PRACTICE_TABLES_RATE_PER_USER="3/min")
def test_the_api_answers_429_with_retry_after_past_the_rate() -> None:
    pat, sam = make_player("pat"), make_player("sam")
    statuses = [_api(pat.user).post("/api/tables/", BODY, format="json").status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    refused = _api(pat.user).post("/api/tables/", BODY, format="json")
    assert refused.status_code == 429
    assert set(refused.json()) == {"message", "extra"}
    assert 0 < int(refused["Retry-After"]) <= 60
    assert Table.objects.filter(seat_users__contains=[pat.user.pk]).count() == 3
    assert _api(sam.user).post("/api/tables/", BODY, format="json").status_code == 201  # per player


@override_settings(SPEED_PRACTICE_TABLES_RATE_PER_USER="2/min")
def test_the_page_shares_the_apis_budget_and_says_so() -> None:
    pat = make_player("pat")
    assert _api(pat.user).post("/api/tables/", BODY, format="json").status_code == 201
    page = Client()
    page.force_login(pat.user)
    assert page.post("/play/", {"ruleset": "speed", "level": "easy"}).status_code == 302  # to the new table
    refused = page.post("/play/", {"ruleset": "three-way", "level": "hard"})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    text = refused.content.decode()
    assert "You have started many practice tables just now: try again in" in text
    assert '<option value="three-way" selected>' in text  # the choice is kept
    assert _api(pat.user).post("/api/tables/", BODY, format="json").status_code == 429
    assert page.get("/play/").status_code == 200  # only making a table is counted
