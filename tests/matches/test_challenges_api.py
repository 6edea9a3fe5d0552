"""The challenges' API: shapes, statuses, strict inputs, who sees what, and the answers' codes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Challenge, Match
from tests.factories import make_player, make_user

pytestmark = pytest.mark.django_db


def challenged(client, handle: str = "ben", **settings) -> dict:
    response = client.post("/api/challenges/", {"challenged": handle, **(settings or {"best_of": 3})}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_challenge_made_read_and_accepted_gives_the_match(client_for, alice, ben) -> None:
    made = challenged(client_for(alice.user), ruleset="speed", first_to=2, time_limit_ms=60_000)
    assert made["challenger"] == "alice" and made["challenged"] == "ben"
    assert (made["series"], made["series_length"], made["time_limit_ms"]) == ("first_to", 2, 60_000)
    assert made["status"] == "open" and made["match"] is None and made["answered_at"] is None
    assert made["ruleset_name"] == "speed" and made["ruleset"]["players"] == 2
    assert client_for(ben.user).get(f"/api/challenges/{made['id']}/").json() == made
    accepted = client_for(ben.user).post(f"/api/challenges/{made['id']}/accept/")
    assert accepted.status_code == 200
    body = accepted.json()
    assert body["status"] == "accepted" and body["match"] == Match.objects.get().pk
    match = client_for(alice.user).get(f"/api/matches/{body['match']}/").json()
    assert match["players"] == ["alice", "ben"] and match["first_to"] == 2 and match["games"][0]["status"] == "open"


def test_the_list_is_mine_made_and_received_newest_first_and_paged(client_for, alice, ben, carol) -> None:
    to_ben = challenged(client_for(alice.user))
    from_carol = challenged(client_for(carol.user), "alice")
    challenged(client_for(carol.user), "ben")  # not alice's
    listing = client_for(alice.user).get("/api/challenges/").json()
    assert [row["id"] for row in listing["results"]] == [from_carol["id"], to_ben["id"]]
    assert listing["count"] == 2
    page = client_for(alice.user).get("/api/challenges/?limit=1&offset=1").json()
    assert [row["id"] for row in page["results"]] == [to_ben["id"]] and page["next"] is None


def test_past_its_time_it_reads_expired_before_any_sweep(client_for, alice, ben) -> None:
    made = challenged(client_for(alice.user))
    Challenge.objects.filter(pk=made["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert client_for(ben.user).get(f"/api/challenges/{made['id']}/").json()["status"] == "expired"
    refused = client_for(ben.user).post(f"/api/challenges/{made['id']}/accept/")
    assert refused.status_code == 409 and "expired" in refused.json()["message"]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"challenged": "alice", "best_of": 3}, "cannot challenge yourself"),
        ({"challenged": "nobody", "best_of": 3}, "No player with handle 'nobody'"),
        ({"challenged": "ben", "best_of": 3, "ruleset": "four-way"}, "seats 4 players"),
        ({"challenged": "ben", "best_of": 3, "players": ["alice", "ben"]}, "players"),  # an unknown key
        ({"challenged": "ben", "best_of": 3, "points_per_place": [2, 1, 0]}, "points_per_place"),
        ({"best_of": 3}, "challenged"),
    ],
)
def test_bad_input_is_a_400_and_nothing_made(client_for, alice, ben, body, words) -> None:
    response = client_for(alice.user).post("/api/challenges/", body, format="json")
    assert response.status_code == 400
    assert words in str(response.json())
    assert not Challenge.objects.exists()


def test_twice_is_a_409_naming_the_open_one(client_for, alice, ben) -> None:
    made = challenged(client_for(alice.user))
    again = client_for(alice.user).post("/api/challenges/", {"challenged": "ben", "best_of": 1}, format="json")
    assert again.status_code == 409 and "already challenged ben" in again.json()["message"]
    back = client_for(ben.user).post("/api/challenges/", {"challenged": "alice", "best_of": 1}, format="json")
    assert back.status_code == 409 and f"(challenge {made['id']})" in back.json()["message"]
    assert Challenge.objects.count() == 1


def test_answers_by_the_wrong_player_are_403_and_a_stranger_does_not_see_it(client_for, alice, ben, carol) -> None:
    made = challenged(client_for(alice.user))
    for who, path in ((carol, "accept"), (alice, "accept"), (alice, "decline"), (ben, "withdraw")):
        response = client_for(who.user).post(f"/api/challenges/{made['id']}/{path}/")
        assert response.status_code == 403, (who, path)
        assert "Only" in response.json()["message"]
    assert client_for(carol.user).get(f"/api/challenges/{made['id']}/").status_code == 404
    assert client_for(make_user(organiser=True)).get(f"/api/challenges/{made['id']}/").status_code == 200
    assert Challenge.objects.get().status == Challenge.Status.OPEN


def test_decline_withdraw_then_nothing_more(client_for, alice, ben) -> None:
    declined = challenged(client_for(alice.user))
    response = client_for(ben.user).post(f"/api/challenges/{declined['id']}/decline/")
    assert response.status_code == 200 and response.json()["status"] == "declined"
    withdrawn = challenged(client_for(alice.user))
    response = client_for(alice.user).post(f"/api/challenges/{withdrawn['id']}/withdraw/")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    late = client_for(ben.user).post(f"/api/challenges/{withdrawn['id']}/accept/")
    assert late.status_code == 409 and "already withdrawn" in late.json()["message"]
    assert not Match.objects.exists()


def test_an_answer_takes_no_body_and_a_missing_one_is_404(client_for, alice, ben) -> None:
    made = challenged(client_for(alice.user))
    with_body = client_for(ben.user).post(f"/api/challenges/{made['id']}/accept/", {"x": 1}, format="json")
    assert with_body.status_code == 400
    assert client_for(ben.user).post("/api/challenges/999999/accept/").status_code == 404
    assert not Match.objects.exists()


def test_visitors_are_401_and_users_who_are_not_players_403(anon, client_for, ben) -> None:
    assert anon.get("/api/challenges/").status_code == 401
    assert anon.post("/api/challenges/", {"challenged": "ben", "best_of": 1}, format="json").status_code == 401
    nobody = client_for(make_user())
    assert nobody.get("/api/challenges/").status_code == 403
    assert nobody.post("/api/challenges/", {"challenged": "ben", "best_of": 1}, format="json").status_code == 403


def test_the_schema_lists_the_answers_codes(anon) -> None:
    schema = anon.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/challenges/"]["post"]["responses"]) >= {"201", "400", "401", "403", "409"}
    for answer in ("accept", "decline", "withdraw"):
        assert set(paths[f"/api/challenges/{{challenge_id}}/{answer}/"]["post"]["responses"]) >= {"200", "403", "409"}
    status = schema["components"]["schemas"]["ChallengeOutput"]["properties"]["status"]
    enum = schema["components"]["schemas"][status["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"]
    assert enum == ["open", "accepted", "declined", "withdrawn", "expired"]


def test_a_player_made_match_needs_an_accepted_challenge(client_for, alice, ben) -> None:
    make_player("dan")
    refused = client_for(alice.user).post("/api/matches/", {"players": ["alice", "dan"], "best_of": 1}, format="json")
    assert refused.status_code == 403 and "/api/challenges/" in refused.json()["message"]
    assert not Match.objects.exists()
