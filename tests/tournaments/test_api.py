"""The tournaments API: roles, shapes, corrections, and a whole tournament played with verified logs."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from matches.models import Player
from speedrules import verify_document
from tests.factories import PASSWORD, body, make_players, make_tournament, play, won_log
from tests.queries import database_queries
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def capture(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


def create(client, **fields):
    payload = {"name": "Cup", "format": "single_elimination", "best_of": 1} | fields
    return client.post("/api/tournaments/", payload, format="json")


class TestRoles:
    def test_everyone_reads_and_only_organisers_write(self, anon, client_for, organiser, alice):
        assert create(anon).status_code == 401
        refused = create(client_for(alice.user))
        assert refused.status_code == 403
        assert "organiser" in refused.json()["message"].lower()
        created = create(client_for(organiser))
        assert created.status_code == 201, created.json()
        tournament_id = created.json()["id"]
        assert anon.get("/api/tournaments/").json()["results"][0]["id"] == tournament_id
        assert anon.get(f"/api/tournaments/{tournament_id}/").status_code == 200
        entered = client_for(alice.user).post(f"/api/tournaments/{tournament_id}/entrants/", {"player": "alice"})
        assert entered.status_code == 403
        assert anon.post(f"/api/tournaments/{tournament_id}/start/").status_code == 401

    def test_errors_have_the_one_shape(self, client_for, organiser):
        response = create(client_for(organiser), tie_breaks=["match_wins", "elo"])
        assert response.status_code == 400
        assert response.json() == {
            "message": "unknown tie-break 'elo'; known: buchholz, card_margin, game_win_pct, game_wins, "
            "head_to_head, match_wins, sonneborn_berger, table_points, timed_cards",
            "extra": {"field": "tie_breaks"},
        }
        assert client_for(organiser).get("/api/tournaments/999999/").status_code == 404


class TestLifecycle:
    def test_create_enter_start_list_matches(self, client_for, organiser, anon):
        orga = client_for(organiser)
        players = make_players(5)
        created = create(
            orga, format="double_elimination", best_of=3, ruleset="speed", options={"grand_final_reset": False}
        )
        tournament_id = created.json()["id"]
        assert (created.json()["best_of"], created.json()["first_to"]) == (3, None)
        for seed, player in enumerate(players, start=1):
            response = orga.post(f"/api/tournaments/{tournament_id}/entrants/", {"player": player.handle, "seed": seed})
            assert response.status_code == 201
        removed = orga.delete(f"/api/tournaments/{tournament_id}/entrants/p05/")
        assert removed.status_code == 204
        started = orga.post(f"/api/tournaments/{tournament_id}/start/")
        assert started.status_code == 200
        assert started.json()["status"] == "running"
        assert [entrant["player"] for entrant in started.json()["entrants"]] == ["p01", "p02", "p03", "p04"]
        matches = anon.get(f"/api/tournaments/{tournament_id}/matches/?limit=100").json()["results"]
        assert [(m["match"], m["bracket"], m["round"], m["position"]) for m in matches[:3]] == [
            ("W1-1", "winners", 1, 1),
            ("W1-2", "winners", 1, 2),
            ("W2-1", "winners", 2, 1),
        ]
        first = matches[0]
        assert (first["players"], first["status"]) == (["p01", "p04"], "ready")
        match = anon.get(f"/api/matches/{first['match_id']}/").json()
        assert (match["players"], match["best_of"]) == (["p01", "p04"], 3)
        losers = anon.get(f"/api/tournaments/{tournament_id}/matches/?bracket=losers").json()["results"]
        assert {m["match"] for m in losers} == {"L1-1", "L2-1"}
        assert orga.post(f"/api/tournaments/{tournament_id}/start/").status_code == 409


class TestCorrectionsApi:
    def test_dry_run_confirmation_and_history(self, client_for, organiser, anon):
        players = make_players(4)
        tournament = make_tournament(organiser, players, format="single_elimination")
        url = f"/api/tournaments/{tournament.pk}/matches/R1-1/correct/"
        semis = {m["match"]: m for m in anon.get(f"/api/tournaments/{tournament.pk}/matches/").json()["results"]}
        assert semis["R1-1"]["players"] == ["p01", "p04"]
        for key, winner in (("R1-1", players[0]), ("R1-2", players[1])):
            play(organiser, TournamentMatch.objects.get(tournament=tournament, key=key), winner)
        final = TournamentMatch.objects.get(tournament=tournament, key="R2-1")
        play(organiser, final, players[0])
        orga = client_for(organiser)

        preview = orga.post(url, {"winner": "p04", "dry_run": True}, format="json")
        assert preview.status_code == 200
        assert preview.json()["applied"] is False
        assert preview.json()["needs_confirmation"] is True
        assert [(c["match"], c["action"]) for c in preview.json()["changes"]] == [("R2-1", "reset")]
        assert anon.get(f"/api/tournaments/{tournament.pk}/").json()["status"] == "finished"

        refused = orga.post(url, {"winner": "p04"}, format="json")
        assert refused.status_code == 409
        assert refused.json()["extra"]["preview"]["changes"][0]["match"] == "R2-1"

        done = orga.post(url, {"winner": "p04", "confirm": True}, format="json")
        assert done.status_code == 200 and done.json()["applied"] is True
        detail = anon.get(f"/api/tournaments/{tournament.pk}/").json()
        assert detail["status"] == "running", "the final is to be played again"
        final_now = anon.get(f"/api/tournaments/{tournament.pk}/matches/R2-1/").json()
        assert (final_now["players"], final_now["status"]) == (["p04", "p02"], "ready")
        history = anon.get(f"/api/tournaments/{tournament.pk}/corrections/").json()["results"]
        assert len(history) == 1
        assert (history[0]["match"], history[0]["made_by"]) == ("R1-1", "orga")
        assert history[0]["before"]["winner"] == "p01" and history[0]["after"]["winner"] == "p04"
        assert client_for(players[1].user).post(url, {"winner": "p01"}, format="json").status_code == 403


def test_standings_endpoint_query_count_does_not_grow(organiser, anon):
    counts = []
    for size, prefix in ((4, "a"), (16, "b")):
        tournament = make_tournament(organiser, make_players(size, prefix), format="round_robin")
        with database_queries() as queries:
            response = anon.get(f"/api/tournaments/{tournament.pk}/standings/")
        assert response.status_code == 200
        assert len(response.json()["rows"]) == size
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_whole_swiss_tournament_through_the_api_with_verified_logs(client_for, organiser, anon, capture):
    orga = client_for(organiser)
    handles = ["ann", "bob", "cat", "dan", "eve"]
    for handle in handles:
        assert orga.post("/api/players/", {"handle": handle, "password": PASSWORD}, format="json").status_code == 201
    created = create(
        orga,
        name="Spring Swiss",
        format="swiss",
        best_of=3,
        ruleset="speed",
        options={"swiss_rounds": 3},
        tie_breaks=["match_wins", "card_margin", "buchholz"],
    )
    tournament_id = created.json()["id"]
    for seed, handle in enumerate(handles, start=1):
        orga.post(f"/api/tournaments/{tournament_id}/entrants/", {"player": handle, "seed": seed}, format="json")
    assert orga.post(f"/api/tournaments/{tournament_id}/start/").json()["status"] == "running"

    clients = {player.handle: client_for(player.user) for player in Player.objects.filter(handle__in=handles)}
    seeds = itertools.count(1, 11)
    expected_margin: Counter[str] = Counter()
    games_logged = 0
    for _ in range(30):
        if anon.get(f"/api/tournaments/{tournament_id}/").json()["status"] == "finished":
            break
        pairings = anon.get(f"/api/tournaments/{tournament_id}/matches/?limit=100").json()["results"]
        playable = [pairing for pairing in pairings if pairing["status"] == "ready"]
        assert playable, "a running tournament has a match to play"
        for pairing in playable:
            while (match := anon.get(f"/api/matches/{pairing['match_id']}/").json())["status"] != "finished":
                game = next(game for game in match["games"] if game["status"] == "open")
                document = won_log("speed", match["players"], start=next(seeds))
                winner_seat = document["result"]["winner"]
                steps = verify_document(document, steps=True).steps
                assert steps is not None
                held = steps[-1].cards_left[1 - winner_seat]
                expected_margin[match["players"][winner_seat]] += held
                expected_margin[match["players"][1 - winner_seat]] -= held
                submitter = clients[match["players"][games_logged % 2]]
                opponent = clients[match["players"][1 - games_logged % 2]]
                with capture(execute=True):
                    response = submitter.post(
                        f"/api/games/{game['id']}/logs/", data=body(document), content_type="application/json"
                    )
                assert response.status_code == 202, response.json()
                # One side's log waits for the other side: the opponent confirms it.
                assert opponent.post(f"/api/games/{game['id']}/confirm/").json()["status"] == "decided"
                games_logged += 1
    detail = anon.get(f"/api/tournaments/{tournament_id}/").json()
    assert detail["status"] == "finished"
    played_games = [
        game
        for pairing in anon.get(f"/api/tournaments/{tournament_id}/matches/?limit=100").json()["results"]
        if pairing["match_id"]
        for game in anon.get(f"/api/matches/{pairing['match_id']}/").json()["games"]
    ]
    assert len(played_games) == games_logged
    assert {(game["status"], game["decided_by"]) for game in played_games} == {("decided", "log")}
    pairings = anon.get(f"/api/tournaments/{tournament_id}/matches/?limit=100").json()["results"]
    assert sorted({pairing["round"] for pairing in pairings}) == [1, 2, 3]
    byes = [pairing["players"][0] for pairing in pairings if pairing["status"] == "bye"]
    assert len(byes) == 3 and len(set(byes)) == 3

    standings = anon.get(f"/api/tournaments/{tournament_id}/standings/").json()
    assert standings["kind"] == "table" and standings["finished"] is True
    assert standings["tie_breaks"] == ["match_wins", "card_margin", "buchholz"]
    rows = standings["rows"]
    assert {row["player"]: row["values"]["card_margin"] for row in rows} == {
        handle: expected_margin[handle] for handle in handles
    }
    assert any(expected_margin.values()), "the simulated games leave cards in the losers' hands"
    wins = Counter(pairing["winner"] for pairing in pairings)
    assert {row["player"]: row["values"]["match_wins"] for row in rows} == {h: wins[h] for h in handles}
    keys = [(row["values"]["match_wins"], row["values"]["card_margin"], row["values"]["buchholz"]) for row in rows]
    assert keys == sorted(keys, reverse=True)
    places = {entrant["player"]: entrant["place"] for entrant in detail["entrants"]}
    assert places[rows[0]["player"]] == "1"

    rating = anon.get(f"/api/tournaments/ratings/{rows[0]['player']}/").json()
    played = sum(
        1 for pairing in pairings if rows[0]["player"] in pairing["players"] and pairing["status"] == "decided"
    )
    assert len(rating["history"]) == played
    assert rating["games"] == sum(change["games"] for change in rating["history"])
    leaderboard = anon.get("/api/tournaments/ratings/").json()["results"]
    assert {entry["player"] for entry in leaderboard} == set(handles)
    assert Tournament.objects.get(pk=tournament_id).status == Tournament.Status.FINISHED
