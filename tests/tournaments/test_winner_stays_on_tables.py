"""Winner stays on at a table of three, through the API with simulated three-way logs.

The expected seating is worked out here from the rules' words alone (the
winner keeps their seat; the others go to the back of the one queue in their
finishing order, read from each log's verdict; the front fills the empty
seats), never from the generator under test.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from matches.models import Match
from tests.factories import make_players, won_log
from tests.tournaments.test_tables_tournament import api, places_of, submit
from tests.web.test_audit import audit
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


def test_three_at_the_table_with_one_queue(client_for, organiser, capture):
    client = client_for(organiser)
    seeds = [player.handle for player in make_players(5, prefix="w")]
    created = api(
        client,
        "post",
        "/api/tournaments/",
        {
            "name": "Stay on",
            "format": "winner_stays_on",
            "options": {"table_size": 3, "max_matches": 5},
            "best_of": 1,
            "confirmation": "none",
        },
        status=201,
    )
    assert created["options"]["table_size"] == 3 and created["options"]["ruleset_three"]["players"] == 3
    url = f"/api/tournaments/{created['id']}"
    for seed, handle in enumerate(seeds, start=1):
        api(client, "post", f"{url}/entrants/", {"player": handle, "seed": seed}, status=201)
    api(client, "post", f"{url}/start/", {})

    seats = seeds[:3]
    queue = deque(seeds[3:])
    wins = dict.fromkeys(seeds, 0)
    points = dict.fromkeys(seeds, 0)
    for number in range(1, 6):
        pairing = api(client, "get", f"{url}/matches/M{number}/")
        assert pairing["players"] == seats, f"match {number}"
        assert pairing["status"] == "ready"
        match = api(client, "get", f"/api/matches/{pairing['match_id']}/")
        assert match["ruleset_name"] == "three-way" and match["points_per_place"] == [2, 1, 0]
        document = won_log("three-way", seats, start=number * 7)
        submit(client, capture, pairing["match_id"], document)
        places = places_of(document)
        order = sorted(seats, key=lambda handle: (places[handle], seats.index(handle)))
        wins[order[0]] += 1
        for handle in seats:
            points[handle] += (2, 1, 0)[places[handle] - 1]
        decided = api(client, "get", f"{url}/matches/M{number}/")
        assert decided["status"] == "decided" and decided["winner"] == order[0]
        assert decided["places"] == [places[handle] for handle in seats]
        # The winner keeps their seat; the others join the back in finishing order; the front sits down.
        queue.extend(order[1:])
        seats = [handle if handle == order[0] else queue.popleft() for handle in seats]

    detail = api(client, "get", f"{url}/")
    assert detail["status"] == "finished"
    standings = api(client, "get", f"{url}/standings/")
    assert standings["tie_breaks"] == ["match_wins", "table_points", "head_to_head"]
    rows = standings["rows"]
    assert {row["player"]: row["values"]["match_wins"] for row in rows} == wins
    assert {row["player"]: row["values"]["table_points"] for row in rows} == points
    keys = [(-row["values"]["match_wins"], -row["values"]["table_points"]) for row in rows]
    assert keys == sorted(keys)
    assert TournamentMatch.objects.filter(tournament_id=created["id"]).count() == 5
    status, out = audit()
    assert status == 0, out


def test_correcting_a_table_replays_the_queue(client_for, organiser, capture):
    client = client_for(organiser)
    seeds = [player.handle for player in make_players(4, prefix="q")]
    created = api(
        client,
        "post",
        "/api/tournaments/",
        {"name": "Queue", "format": "winner_stays_on", "options": {"table_size": 3, "max_matches": 3}, "best_of": 1},
        status=201,
    )
    url = f"/api/tournaments/{created['id']}"
    for seed, handle in enumerate(seeds, start=1):
        api(client, "post", f"{url}/entrants/", {"player": handle, "seed": seed}, status=201)
    api(client, "post", f"{url}/start/", {})
    # M1: q01 q02 q03 finish q01, q02, q03: q04 and q02 take seats 1 and 2, q03 waits.
    first = api(client, "get", f"{url}/matches/M1/")
    game = api(client, "get", f"/api/matches/{first['match_id']}/")["games"][0]["id"]
    api(
        client,
        "post",
        f"/api/games/{game}/result/",
        {"winner": None, "places": {"q01": 1, "q02": 2, "q03": 3}, "reason": "sheet"},
    )
    second = api(client, "get", f"{url}/matches/M2/")
    assert second["players"] == ["q01", "q04", "q02"]
    game = api(client, "get", f"/api/matches/{second['match_id']}/")["games"][0]["id"]
    api(
        client,
        "post",
        f"/api/games/{game}/result/",
        {"winner": None, "places": {"q04": 1, "q01": 2, "q02": 3}, "reason": "sheet"},
    )
    assert api(client, "get", f"{url}/matches/M3/")["players"] == ["q03", "q04", "q01"]

    # M1 really finished q01, q03, q02: q02 waits instead, so M2 (already played) is set aside.
    correction = {"games": [{"game": 1, "places": {"q01": 1, "q03": 2, "q02": 3}}]}
    preview = api(client, "post", f"{url}/matches/M1/correct/", {**correction, "dry_run": True})
    assert [(c["match"], c["action"]) for c in preview["changes"]] == [("M2", "reset"), ("M3", "remove")]
    refused = client.post(f"{url}/matches/M1/correct/", correction, format="json")
    assert refused.status_code == 409
    api(client, "post", f"{url}/matches/M1/correct/", {**correction, "confirm": True, "reason": "misread"})
    replayed = api(client, "get", f"{url}/matches/M2/")
    assert replayed["players"] == ["q01", "q04", "q03"] and replayed["status"] == "ready"
    assert Match.objects.get(pk=second["match_id"]).status == Match.Status.ANNULLED
    assert not TournamentMatch.objects.filter(tournament_id=created["id"], key="M3").exists()
    assert Tournament.objects.get(pk=created["id"]).status == Tournament.Status.RUNNING
    status, out = audit()
    assert status == 0, out


def test_a_table_needs_as_many_players_as_seats(client_for, organiser):
    client = client_for(organiser)
    created = api(
        client,
        "post",
        "/api/tournaments/",
        {"name": "Few", "format": "winner_stays_on", "options": {"table_size": 4}, "best_of": 1},
        status=201,
    )
    for handle in [player.handle for player in make_players(3, prefix="f")]:
        api(client, "post", f"/api/tournaments/{created['id']}/entrants/", {"player": handle}, status=201)
    refused = client.post(f"/api/tournaments/{created['id']}/start/")
    assert (
        refused.status_code == 400 and "A table of 4 needs at least 4 players; 3 entered." in refused.json()["message"]
    )
    too_big = client.post(
        "/api/tournaments/",
        {"name": "X", "format": "winner_stays_on", "options": {"table_size": 5}, "best_of": 1},
        format="json",
    )
    assert too_big.status_code == 400 and too_big.json()["extra"] == {"field": "options.table_size"}


def test_the_page_draws_the_table_with_places(client_for, organiser, client: Any):
    players = make_players(4, prefix="g")
    api_client = client_for(organiser)
    created = api(
        api_client,
        "post",
        "/api/tournaments/",
        {"name": "Page", "format": "winner_stays_on", "options": {"table_size": 3, "max_matches": 2}, "best_of": 1},
        status=201,
    )
    for player in players:
        api(api_client, "post", f"/api/tournaments/{created['id']}/entrants/", {"player": player.handle}, status=201)
    api(api_client, "post", f"/api/tournaments/{created['id']}/start/", {})
    first = api(api_client, "get", f"/api/tournaments/{created['id']}/matches/M1/")
    game = api(api_client, "get", f"/api/matches/{first['match_id']}/")["games"][0]["id"]
    api(api_client, "post", f"/api/games/{game}/result/", {"winner": None, "places": {"g02": 1, "g01": 2, "g03": 3}})
    body = client.get(f"/tournaments/{created['id']}/").content.decode()
    assert body.count('data-role="seat-table"') == 2, "the played table and the next one"
    assert "three-way at 3" in body and "four-way" not in body
    assert 'data-key="M2"' in body
