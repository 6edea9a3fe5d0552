"""Replay steps through the API: pages of full steps, compact chunks, and the cap on a log's events."""

from __future__ import annotations

import gzip
from typing import Any

import orjson
import pytest
from django.test import override_settings

from benchmarks.long_log import long_log
from replays import compact
from replays.models import MatchLog, ReplaySteps
from tests.factories import body, make_match, won_log
from tests.factories import engine_steps as engine_steps_of

pytestmark = pytest.mark.django_db


def submit(client: Any, game_id: int, data: bytes, capture: Any) -> Any:
    with capture(execute=True):
        return client.post(f"/api/games/{game_id}/logs/", data=data, content_type="application/json")


@pytest.fixture
def long_document() -> dict[str, Any]:
    return long_log(1200, players=("alice", "ben"))


@pytest.fixture
def long_log_id(client_for: Any, alice: Any, ben: Any, capture: Any, long_document: dict[str, Any]) -> int:
    game = make_match(alice, ben).games.get()
    response = submit(client_for(alice.user), game.pk, body(long_document), capture)
    assert response.status_code == 202, response.content
    return int(response.json()["id"])


def test_full_steps_come_a_page_at_a_time(anon: Any, long_log_id: int, long_document: dict[str, Any]) -> None:
    expected = engine_steps_of(body(long_document))
    assert len(expected) == 1201
    first = anon.get(f"/api/logs/{long_log_id}/steps/").json()
    assert (first["count"], first["offset"], first["limit"], first["previous"]) == (1201, 0, 500, None)
    assert first["steps"] == expected[:500]
    seen = list(first["steps"])
    page = first
    while page["next"]:
        page = anon.get(page["next"]).json()
        seen += page["steps"]
    assert seen == expected
    assert page["offset"] == 1000 and len(page["steps"]) == 201
    assert page["previous"].endswith(f"/api/logs/{long_log_id}/steps/?offset=500&limit=500")

    few = anon.get(f"/api/logs/{long_log_id}/steps/?offset=3&limit=2").json()
    assert few["steps"] == expected[3:5]
    assert [step["event"] for step in few["steps"]] == [2, 3]


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=1001", "limit=x", "offset=-1", "offset=1.5"], ids=lambda query: query
)
def test_a_bad_page_is_400(anon: Any, long_log_id: int, query: str) -> None:
    response = anon.get(f"/api/logs/{long_log_id}/steps/?{query}")
    assert response.status_code == 400
    assert query.split("=", maxsplit=1)[0] in response.json()["message"]


def test_compact_chunks_read_back_as_the_engines_steps(
    anon: Any, long_log_id: int, long_document: dict[str, Any]
) -> None:
    expected = engine_steps_of(body(long_document))
    seen: list[dict[str, Any]] = []
    size = 0
    start = 0
    while True:
        response = anon.get(f"/api/logs/{long_log_id}/steps/compact/?from={start}&count=250")
        assert response.status_code == 200
        size += len(response.content)
        part = response.json()
        assert (part["log"], part["status"], part["format"], part["total"]) == (
            long_log_id,
            "verified",
            "speed-steps/1",
            1201,
        )
        if not part["rows"]:
            break
        seen += compact.decode_chunk(part)
        start += part["count"]
    assert seen == expected
    # The whole replay in chunks is a small fraction of the same steps as full JSON.
    assert size * 10 < len(orjson.dumps(expected))


def test_gzipped_the_compact_chunks_are_still_much_smaller_than_the_plain_pages(anon: Any, long_log_id: int) -> None:
    """Why the viewer reads the compact form (issue 23): gzip takes the repetition out of both, not the difference."""

    def gzipped_total(url: str, key: str) -> int:
        total, start = 0, 0
        while True:
            response = anon.get(url.format(start=start), HTTP_ACCEPT_ENCODING="gzip")
            assert response.status_code == 200
            if response.get("Content-Encoding") != "gzip":  # only the short, empty one past the end
                assert orjson.loads(response.content)[key] == []
                return total
            count = len(orjson.loads(gzip.decompress(response.content))[key])
            if not count:
                return total
            total += len(response.content)
            start += count

    compact_size = gzipped_total(f"/api/logs/{long_log_id}/steps/compact/?from={{start}}&count=200", "rows")
    plain_size = gzipped_total(f"/api/logs/{long_log_id}/steps/?offset={{start}}&limit=200", "steps")
    assert compact_size * 3 < plain_size * 2  # gzip pads each response with up to 100 random bytes


def test_compact_chunk_bounds(anon: Any, long_log_id: int) -> None:
    default = anon.get(f"/api/logs/{long_log_id}/steps/compact/").json()
    assert (default["from"], default["count"], default["base"]) == (0, 500, None)
    assert anon.get(f"/api/logs/{long_log_id}/steps/compact/?count=1001").status_code == 400
    assert anon.get(f"/api/logs/{long_log_id}/steps/compact/?from=-2").status_code == 400
    assert anon.get("/api/logs/999999/steps/compact/").status_code == 404


def test_steps_are_kept_compact_and_an_older_form_is_recomputed(anon: Any, long_log_id: int) -> None:
    anon.get(f"/api/logs/{long_log_id}/steps/compact/?count=1")
    kept = ReplaySteps.objects.get(log_id=long_log_id)
    assert kept.legend["format"] == "speed-steps/1"
    assert len(kept.steps) == 1201 and all(isinstance(value, int) for row in kept.steps for value in row)
    # A row cached before the compact form (full dicts, no legend) is computed again.
    ReplaySteps.objects.filter(pk=kept.pk).update(steps=[{"old": True}], legend={})
    assert anon.get(f"/api/logs/{long_log_id}/steps/?limit=1").json()["steps"][0]["event"] is None
    assert ReplaySteps.objects.get(pk=kept.pk).steps == kept.steps


class TestEventLimit:
    def test_a_log_over_the_default_5000_events_is_413(self, client_for: Any, alice: Any, ben: Any, capture: Any):
        game = make_match(alice, ben).games.get()
        document = long_log(5001)
        response = submit(client_for(alice.user), game.pk, body(document), capture)
        assert response.status_code == 413, response.content
        error = response.json()
        assert "5001 events" in error["message"] and "5000" in error["message"]
        assert error["extra"] == {"field": "events", "events": 5001, "limit": 5000}
        assert MatchLog.objects.count() == 0

    def test_exactly_5000_events_are_accepted(self, client_for: Any, alice: Any, ben: Any, capture: Any):
        game = make_match(alice, ben).games.get()
        response = submit(client_for(alice.user), game.pk, body(long_log(5000)), capture)
        assert response.status_code == 202, response.content
        assert MatchLog.objects.get().status == "verified"

    @override_settings(SPEED_LOG_MAX_EVENTS=40)
    def test_the_limit_is_a_setting(self, client_for: Any, alice: Any, ben: Any, capture: Any):
        game = make_match(alice, ben).games.get()
        document = won_log("speed", ["alice", "ben"])
        assert len(document["events"]) > 40
        response = submit(client_for(alice.user), game.pk, body(document), capture)
        assert response.status_code == 413
        assert "limit is 40 events" in response.json()["message"]
