"""Three- and four-player matches and timed matches through the API, decided by simulated, verified logs."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from matches.models import Game, Match
from matches.placings import cards_left_at, race_places, timed_places
from speedrules import verify_bytes
from tests.factories import body, make_player, make_user, won_log

pytestmark = pytest.mark.django_db

FOUR = ["ann", "bo", "cy", "di"]
THREE = ["ann", "bo", "cy"]


@pytest.fixture
def table_players(db: None) -> dict[str, Any]:
    return {handle: make_player(handle) for handle in FOUR}


def post_log(client: Any, game_id: int, document: dict[str, Any], capture: Any) -> Any:
    with capture(execute=True):
        response = client.post(f"/api/games/{game_id}/logs/", data=body(document), content_type="application/json")
    assert response.status_code == 202, response.content
    return response


def create(client: Any, **payload: Any) -> dict[str, Any]:
    response = client.post("/api/matches/", payload, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def expected_places(document: dict[str, Any], seats: list[str]) -> list[int]:
    """The places the engine's own verdict implies, in the match's seat order."""
    verdict = verify_bytes(body(document))
    assert verdict.cards_left is not None
    places = race_places(winner=verdict.winner, cards_left=verdict.cards_left)
    assert places is not None
    return [places[document["players"].index(handle)] for handle in seats]


def places_by_handle(game: dict[str, Any]) -> dict[str, int]:
    return {handle: row["place"] for row in game["places"] for handle in row["players"]}


class TestCreating:
    def test_three_and_four_players_take_a_ruleset_with_as_many_seats(self, client_for, organiser, table_players):
        four = create(client_for(organiser), players=FOUR, ruleset="four-way", best_of=3)
        assert four["players"] == FOUR
        assert four["points_per_place"] == [3, 1, 0, 0]
        assert four["table"] == [{"place": 1, "handle": handle, "points": 0, "firsts": 0} for handle in sorted(FOUR)]
        three = create(
            client_for(organiser), players=THREE, ruleset="three-way", first_to=5, points_per_place=[3, 2, 0]
        )
        assert three["points_per_place"] == [3, 2, 0]
        assert three["first_to"] == 5

    @pytest.mark.parametrize(
        ("payload", "words"),
        [
            ({"players": FOUR, "ruleset": "three-way", "best_of": 3}, "seats 3 players, but 4 play here"),
            ({"players": THREE, "ruleset": "speed", "best_of": 3}, "seats 2 players, but 3 play here"),
            ({"players": FOUR, "ruleset": "team", "best_of": 3, "time_limit_ms": 60000}, "not Team Speed"),
            ({"players": FOUR, "ruleset": "team", "best_of": 3, "points_per_place": [1, 1, 0, 0]}, "two teams"),
            ({"players": FOUR, "ruleset": "team", "best_of": 2}, "odd"),
            ({"players": THREE, "ruleset": "three-way", "best_of": 3, "points_per_place": [1, 2, 0]}, "never rising"),
            ({"players": THREE, "ruleset": "three-way", "best_of": 3, "points_per_place": [2, 1, 0, 0]}, "one whole"),
            ({"players": ["ann", "bo"], "best_of": 3, "points_per_place": [1, 0, 0]}, "tables of three or four"),
            ({"players": ["ann", "bo"], "best_of": 3, "ruleset": "spit", "time_limit_ms": 60000}, "Spit"),
            ({"players": [*FOUR, "ed"], "ruleset": "four-way", "best_of": 3}, "two to four"),
        ],
    )
    def test_what_does_not_fit_is_a_400_that_says_why(self, client_for, organiser, table_players, payload, words):
        make_player("ed")
        response = client_for(organiser).post("/api/matches/", payload, format="json")
        assert response.status_code == 400, response.content
        assert words in response.json()["message"]


class TestDeciding:
    def test_a_four_way_log_is_a_claim_that_every_other_player_confirms(
        self, client_for, organiser, table_players, capture
    ):
        players = table_players
        match = create(client_for(organiser), players=FOUR, ruleset="four-way", best_of=3)
        game_id = match["games"][0]["id"]
        document = won_log("four-way", ["cy", "ann", "di", "bo"], winner_seat=2)  # di calls Speed
        post_log(client_for(players["ann"].user), game_id, document, capture)

        places = expected_places(document, FOUR)
        game = client_for(organiser).get(f"/api/games/{game_id}/").json()
        assert game["status"] == "awaiting_confirmation"
        assert game["claimed_winner"] == "di"
        assert places_by_handle({"places": game["claimed_places"]}) == dict(zip(FOUR, places, strict=True))

        # One confirmation is not enough at a table: every other player must.
        assert client_for(players["bo"].user).post(f"/api/games/{game_id}/confirm/").status_code == 200
        assert Game.objects.get(pk=game_id).status == Game.Status.AWAITING_CONFIRMATION
        refused = client_for(players["ann"].user).post(f"/api/games/{game_id}/confirm/")
        assert refused.status_code == 403  # the claimant cannot confirm their own claim
        assert client_for(players["cy"].user).post(f"/api/games/{game_id}/confirm/").status_code == 200
        assert client_for(players["di"].user).post(f"/api/games/{game_id}/confirm/").status_code == 200

        game = client_for(organiser).get(f"/api/games/{game_id}/").json()
        assert game["status"] == "decided"
        assert game["winner"] == "di"
        assert game["decided_by"] == "log"
        assert places_by_handle(game) == dict(zip(FOUR, places, strict=True))
        detail = client_for(organiser).get(f"/api/matches/{match['id']}/").json()
        points = {handle: (3, 1, 0, 0)[place - 1] for handle, place in zip(FOUR, places, strict=True)}
        assert detail["score"] == points
        assert len(detail["games"]) == 2  # the next game opened
        kinds = [
            change["kind"]
            for change in client_for(organiser).get(f"/api/matches/{match['id']}/history/").json()["results"]
        ]
        assert kinds == ["submission", "confirmation", "confirmation", "confirmation"]

    def test_supervised_three_way_logs_decide_a_match_by_points(self, client_for, organiser, table_players, capture):
        match = Match.objects.get(pk=create(client_for(organiser), players=THREE, ruleset="three-way", best_of=2)["id"])
        match.confirmation = Match.Confirmation.NONE  # an organiser watched: a verified log decides at once
        match.save(update_fields=["confirmation"])
        totals = dict.fromkeys(THREE, 0)
        for number, (seats, caller) in enumerate([(["bo", "cy", "ann"], 0), (["ann", "bo", "cy"], 0)], start=1):
            game = match.games.get(number=number)
            document = won_log("three-way", seats, winner_seat=caller, start=number * 7)
            post_log(client_for(organiser), game.pk, document, capture)
            for handle, place in zip(THREE, expected_places(document, THREE), strict=True):
                totals[handle] += (2, 1, 0)[place - 1]
        detail = client_for(organiser).get(f"/api/matches/{match.pk}/").json()
        assert detail["score"] == totals
        assert detail["status"] == "finished"
        table = detail["table"]
        assert [row["points"] for row in table] == sorted(totals.values(), reverse=True)
        assert detail["winner"] == table[0]["handle"]
        assert table[0]["place"] == 1 and table[1]["place"] == 2

    def test_a_report_at_a_table_gives_every_place_and_all_reports_that_agree_decide(
        self, client_for, organiser, table_players
    ):
        players = table_players
        match = create(client_for(organiser), players=THREE, ruleset="three-way", best_of=3)
        game_id = match["games"][0]["id"]
        url = f"/api/games/{game_id}/report/"
        missing = client_for(players["ann"].user).post(url, {"winner": "ann"}, format="json")
        assert missing.status_code == 400 and "every player's place" in missing.json()["message"]
        wrong = client_for(players["ann"].user).post(url, {"places": {"ann": 1, "bo": 1, "cy": 2}}, format="json")
        assert wrong.status_code == 400 and "finishing order" in wrong.json()["message"]
        result = {"ann": 2, "bo": 1, "cy": 2}
        for handle in THREE:
            assert client_for(players[handle].user).post(url, {"places": result}, format="json").status_code == 200
        game = client_for(organiser).get(f"/api/games/{game_id}/").json()
        assert game["status"] == "decided" and game["decided_by"] == "players" and game["winner"] == "bo"
        assert places_by_handle(game) == result

    def test_an_organiser_sets_a_table_game_by_places(self, client_for, organiser, table_players):
        match = create(client_for(organiser), players=THREE, ruleset="three-way", best_of=1)
        game_id = match["games"][0]["id"]
        response = client_for(organiser).post(
            f"/api/games/{game_id}/result/", {"winner": None, "places": {"ann": 3, "bo": 1, "cy": 2}}, format="json"
        )
        assert response.status_code == 200, response.content
        detail = client_for(organiser).get(f"/api/matches/{match['id']}/").json()
        assert detail["status"] == "finished" and detail["winner"] == "bo"
        assert detail["score"] == {"ann": 0, "bo": 2, "cy": 1}


class TestTimed:
    def test_a_timed_matchs_scores_are_the_cards_played_by_the_limit(self, client_for, organiser, capture):
        ann, bo = make_player("ann"), make_player("bo")
        limit = 20_000
        match = Match.objects.get(
            pk=create(client_for(organiser), players=["ann", "bo"], best_of=1, time_limit_ms=limit)["id"]
        )
        match.confirmation = Match.Confirmation.NONE
        match.save(update_fields=["confirmation"])
        document = won_log("speed", ["bo", "ann"], winner_seat=0)
        post_log(client_for(organiser), match.games.get().pk, document, capture)

        verdict = verify_bytes(body(document))
        assert verdict.plays_by_seat is not None and verdict.cards_left is not None
        # Counted here from the log's own events, independently of the engine's helper.
        played = [
            sum(
                1
                for event in document["events"]
                if event["type"] == "play" and event.get("player") == seat and event["t"] <= limit
            )
            for seat in range(2)
        ]
        assert list(verdict.cards_played_by(limit) or ()) == played
        left = cards_left_at(cards_left=verdict.cards_left, plays_by_seat=verdict.plays_by_seat, limit=limit)
        places = timed_places(played=played, left_at_limit=left, caller=verdict.winner)
        detail = client_for(organiser).get(f"/api/matches/{match.pk}/").json()
        game = detail["games"][0]
        assert game["timed_scores"] == {"bo": played[0], "ann": played[1]}
        assert places_by_handle(game) == {"bo": places[0], "ann": places[1]}
        assert detail["timed_totals"] == {"ann": played[1], "bo": played[0]}
        assert detail["time_limit_ms"] == limit
        winner = "bo" if places[0] == 1 else "ann"
        assert detail["winner"] == winner
        assert ann.pk and bo.pk

    def test_a_timed_win_can_go_to_the_player_who_did_not_call_speed(self, client_for, organiser, capture):
        make_player("ann"), make_player("bo")
        # A limit so early that the Speed caller need not lead: find a game where they do not.
        for start in range(0, 200, 5):
            document = won_log("speed", ["ann", "bo"], start=start)
            verdict = verify_bytes(body(document))
            assert verdict.plays_by_seat is not None and verdict.cards_left is not None
            limit = 3_000
            played = verdict.cards_played_by(limit)
            assert played is not None
            caller = verdict.winner
            assert caller is not None
            if played[1 - caller] > played[caller]:
                break
        else:
            raise AssertionError("no simulated game in range where the caller trails at the limit")
        match = Match.objects.get(
            pk=create(client_for(organiser), players=["ann", "bo"], best_of=1, time_limit_ms=limit)["id"]
        )
        match.confirmation = Match.Confirmation.NONE
        match.save(update_fields=["confirmation"])
        post_log(client_for(organiser), match.games.get().pk, document, capture)
        detail = client_for(organiser).get(f"/api/matches/{match.pk}/").json()
        assert detail["winner"] == ["ann", "bo"][1 - caller]
        assert orjson.loads(body(document))["result"]["winner"] == caller


def test_a_player_outside_the_table_cannot_submit(client_for, organiser, table_players, capture):
    match = create(client_for(organiser), players=THREE, ruleset="three-way", best_of=1)
    outsider = make_user("di-user")
    response = client_for(outsider).post(
        f"/api/games/{match['games'][0]['id']}/logs/",
        data=body(won_log("three-way", THREE)),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert "'ann', 'bo', 'cy'" in response.json()["message"]


class TestTeams:
    """Team Speed: seats 0 and 2 against 1 and 3 (the preset's teams); a game is won by a team."""

    def test_a_team_match_is_decided_by_verified_logs_and_the_other_teams_confirmation(
        self, client_for, organiser, table_players, capture
    ):
        players = table_players
        match = create(client_for(organiser), players=FOUR, ruleset="team", best_of=1)
        assert match["teams"] == [{"players": ["ann", "cy"], "wins": 0}, {"players": ["bo", "di"], "wins": 0}]
        game_id = match["games"][0]["id"]
        # The log seats the players otherwise, but partners stay partners: cy, bo, ann, di.
        document = won_log("team", ["cy", "bo", "ann", "di"], winner_seat=1)  # team 1: the log's seats 1 and 3
        verdict = verify_bytes(body(document))
        assert verdict.winner_team == 1
        post_log(client_for(players["bo"].user), game_id, document, capture)

        game = client_for(organiser).get(f"/api/games/{game_id}/").json()
        assert game["status"] == "awaiting_confirmation"
        # A team is claimed, not one of its players.
        assert (game["claimed_winner"], game["claimed_team"]) == (None, ["bo", "di"])
        assert places_by_handle({"places": game["claimed_places"]}) == {"ann": 3, "bo": 1, "cy": 3, "di": 1}
        # A partner cannot confirm; a player of the other team can, and that decides.
        partner = client_for(players["di"].user).post(f"/api/games/{game_id}/confirm/")
        assert partner.status_code == 403 and "other team" in partner.json()["message"]
        assert client_for(players["ann"].user).post(f"/api/games/{game_id}/confirm/").status_code == 200

        detail = client_for(organiser).get(f"/api/matches/{match['id']}/").json()
        assert detail["status"] == "finished"
        assert (detail["winner"], detail["winning_team"]) == (None, ["bo", "di"])
        # Each game says which team won it too, and names no single winner (di called Speed, not bo alone).
        assert (detail["games"][0]["winner"], detail["games"][0]["winning_team"]) == (None, ["bo", "di"])
        assert client_for(organiser).get(f"/api/games/{game_id}/").json()["winning_team"] == ["bo", "di"]
        assert detail["teams"] == [{"players": ["ann", "cy"], "wins": 0}, {"players": ["bo", "di"], "wins": 1}]
        assert detail["score"] == {"ann": 0, "cy": 0, "bo": 1, "di": 1}

    def test_a_log_that_splits_the_partners_is_refused(self, client_for, organiser, table_players, capture):
        match = create(client_for(organiser), players=FOUR, ruleset="team", best_of=1)
        document = won_log("team", ["ann", "cy", "bo", "di"])  # ann with bo, cy with di: not this match's teams
        response = client_for(organiser).post(
            f"/api/games/{match['games'][0]['id']}/logs/", data=body(document), content_type="application/json"
        )
        assert response.status_code == 400
        assert "'ann' and 'cy' against 'bo' and 'di'" in response.json()["message"]

    def test_reports_name_a_player_of_the_winning_team(self, client_for, organiser, table_players):
        players = table_players
        match = create(client_for(organiser), players=FOUR, ruleset="team", best_of=3)
        game_id = match["games"][0]["id"]
        url = f"/api/games/{game_id}/report/"
        assert client_for(players["ann"].user).post(url, {"winner": "cy"}, format="json").status_code == 200
        assert Game.objects.get(pk=game_id).status == Game.Status.AWAITING_CONFIRMATION
        assert client_for(players["di"].user).post(url, {"winner": "ann"}, format="json").status_code == 200
        game = client_for(organiser).get(f"/api/games/{game_id}/").json()
        assert game["status"] == "decided" and game["decided_by"] == "players"
        assert (game["winner"], game["winning_team"]) == (None, ["ann", "cy"])
