"""Speed Solitaire runs: submitted outside any match, verified, ranked on the leaderboard, replayed."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.test import Client

from replays.models import SolitaireRun
from speedrules import simulate, verify_document
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def run_of(handle: str, *, cleared: bool, start: int = 0) -> dict[str, Any]:
    """A simulated solitaire log of this player that cleared the deck, or got stuck."""
    for seed in range(start, start + 400):
        document = simulate("solitaire", seed=seed, players=[handle])
        if (document["result"].get("winner") == 0) == cleared:
            assert verify_document(document).valid
            return document
    raise AssertionError("no such simulated run in 400 seeds")


def post(client, document: object, capture) -> Any:
    with capture(execute=True):
        return client.post("/api/solitaire/", data=orjson.dumps(document), content_type="application/json")


def test_a_run_is_verified_and_reaches_the_leaderboard(client_for, anon, capture) -> None:
    sam, tia = make_player("sam"), make_player("tia")
    cleared = run_of("sam", cleared=True)
    response = post(client_for(sam.user), cleared, capture)
    assert response.status_code == 202, response.json()
    run = anon.get(response.json()["url"]).json()
    speed_call = cleared["events"][-1]
    assert speed_call["type"] == "speed"
    assert (run["status"], run["cleared"], run["finished_ms"], run["cards_left"]) == (
        "verified",
        True,
        speed_call["t"],
        0,
    )
    stuck = run_of("tia", cleared=False)
    assert post(client_for(tia.user), stuck, capture).status_code == 202
    board = anon.get("/api/solitaire/leaderboard/").json()["results"]
    assert [row["player"] for row in board] == ["sam", "tia"]  # cleared before stuck
    assert board[1]["cards_left"] == stuck["result"]["cards_left"] > 0
    # The same document again is the same submission.
    assert post(client_for(sam.user), cleared, capture).status_code == 200
    assert SolitaireRun.objects.count() == 2


def test_the_leaderboard_keeps_each_players_best(client_for, anon, capture) -> None:
    sam = make_player("sam")
    runs = [run_of("sam", cleared=True, start=start) for start in (0, 400)]
    runs += [run_of("sam", cleared=False)]
    for document in runs:
        assert post(client_for(sam.user), document, capture).status_code == 202
    board = anon.get("/api/solitaire/leaderboard/").json()
    assert board["count"] == 1
    assert board["results"][0]["finished_ms"] == min(document["events"][-1]["t"] for document in runs[:2])
    assert anon.get("/api/solitaire/?player=sam").json()["count"] == 3


def test_only_your_own_one_player_log(client_for, anon, capture, alice) -> None:
    sam = make_player("sam")
    assert post(client_for(sam.user), run_of("tia", cleared=True), capture).status_code == 400  # not sam's
    two_player = simulate("speed", seed=1, players=["sam", "tia"])
    assert post(client_for(sam.user), {**two_player, "players": ["sam"]}, capture).status_code == 400
    assert post(anon, run_of("sam", cleared=True), capture).status_code == 401
    bad = run_of("sam", cleared=True)
    bad["result"] = {"deadlock": True, "cards_left": 3}  # claims stuck, but the events clear the deck
    assert post(client_for(sam.user), bad, capture).status_code == 202
    rejected = SolitaireRun.objects.get(player=sam)
    assert (rejected.status, rejected.code, rejected.cleared) == ("rejected", "result_mismatch", None)
    assert anon.get("/api/solitaire/leaderboard/").json()["count"] == 0


def test_the_page_and_the_replay(client_for, capture) -> None:
    sam = make_player("sam")
    post(client_for(sam.user), run_of("sam", cleared=True), capture)
    run = SolitaireRun.objects.get()
    page = Client().get("/solitaire/?player=sam").content.decode()
    assert 'data-player="sam"' in page and "Cleared in" in page and f"/solitaire/{run.pk}/replay/" in page
    replay = Client().get(f"/solitaire/{run.pk}/replay/")
    assert replay.status_code == 200
    assert f"/api/solitaire/{run.pk}/steps/compact/" in replay.content.decode()
    chunk = Client().get(f"/api/solitaire/{run.pk}/steps/compact/?from=0&count=5").json()
    assert (chunk["seats"], chunk["count"], chunk["format"]) == (1, 5, "speed-steps/1")
