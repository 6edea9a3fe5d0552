"""The players and matches API: shapes, roles, errors, and the cost of list pages."""

from __future__ import annotations

import pytest

from matches.models import Game, Match
from speedrules import PRESETS
from tests.factories import PASSWORD, make_match, make_player, make_user
from tests.queries import database_queries

pytestmark = pytest.mark.django_db


class TestToken:
    def test_token_for_good_credentials_authenticates_requests(self, anon, alice, ben):
        response = anon.post("/api/token/", {"username": "alice", "password": PASSWORD}, format="json")
        assert response.status_code == 200
        token = response.json()["token"]
        anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        created = anon.post("/api/challenges/", {"challenged": "ben", "best_of": 1}, format="json")
        assert created.status_code == 201
        assert created.json()["challenger"] == "alice"

    def test_bad_credentials_are_a_400_with_a_message(self, anon, alice):
        response = anon.post("/api/token/", {"username": "alice", "password": "nope"}, format="json")
        assert response.status_code == 400
        assert "credentials" in response.json()["message"]


class TestPlayers:
    def test_organiser_creates_a_player_who_can_then_log_in(self, client_for, organiser, anon):
        response = client_for(organiser).post(
            "/api/players/", {"handle": "Dana", "display_name": "Dana D", "password": "s3cret-pw"}, format="json"
        )
        assert response.status_code == 201, response.json()
        assert response.json()["handle"] == "Dana"
        assert response.json()["display_name"] == "Dana D"
        token = anon.post("/api/token/", {"username": "Dana", "password": "s3cret-pw"}, format="json")
        assert token.status_code == 200

    def test_superuser_counts_as_organiser(self, client_for):
        admin = make_user("root", superuser=True)
        response = client_for(admin).post("/api/players/", {"handle": "eve", "display_name": "Eve"}, format="json")
        assert response.status_code == 201

    def test_anonymous_gets_401_and_player_gets_403(self, anon, client_for, alice):
        assert anon.post("/api/players/", {"handle": "x1"}, format="json").status_code == 401
        response = client_for(alice.user).post("/api/players/", {"handle": "x2"}, format="json")
        assert response.status_code == 403
        assert "organiser" in response.json()["message"].lower()

    def test_duplicate_handle_regardless_of_case_is_400(self, client_for, organiser, alice):
        response = client_for(organiser).post("/api/players/", {"handle": "ALICE"}, format="json")
        assert response.status_code == 400
        assert "taken" in response.json()["message"]

    def test_bad_handle_is_400(self, client_for, organiser):
        response = client_for(organiser).post("/api/players/", {"handle": "no spaces!"}, format="json")
        assert response.status_code == 400
        assert "handle" in response.json()["message"]

    def test_list_and_detail_are_public(self, anon, alice, ben):
        listing = anon.get("/api/players/").json()
        assert [p["handle"] for p in listing["results"]] == ["alice", "ben"]
        assert anon.get("/api/players/ALICE/").json()["handle"] == "alice"
        missing = anon.get("/api/players/nobody/")
        assert missing.status_code == 404
        assert "nobody" in missing.json()["message"]


class TestMatches:
    def test_create_returns_the_match_with_its_first_game(self, client_for, organiser, alice, ben):
        response = client_for(organiser).post(
            "/api/matches/", {"players": ["alice", "ben"], "best_of": 3, "ruleset": "doubles"}, format="json"
        )
        assert response.status_code == 201, response.json()
        match = response.json()
        assert match["players"] == ["alice", "ben"]
        assert match["best_of"] == 3
        assert "first_to" not in match
        assert match["ruleset"] == PRESETS["doubles"].to_json()
        assert match["ruleset_name"] == "doubles"
        assert match["status"] == "in_progress"
        assert match["score"] == {"alice": 0, "ben": 0}
        assert match["winner"] is None
        [game] = match["games"]
        assert game["number"] == 1
        assert game["status"] == "open"
        assert game["winner"] is None
        assert game["decided_by"] is None
        assert game["winning_team"] is None  # Team Speed only
        detail = client_for(alice.user).get(f"/api/matches/{match['id']}/").json()
        assert detail == match

    def test_a_player_challenges_instead_of_creating_a_match(self, client_for, alice, ben):
        response = client_for(alice.user).post("/api/matches/", {"players": ["alice", "ben"], "best_of": 1})
        assert response.status_code == 403
        assert "challenge the other player" in response.json()["message"]
        assert not Match.objects.exists()

    def test_first_to_and_a_custom_ruleset_object(self, client_for, organiser, alice, ben):
        custom = {"hand_size": 4, "stack_size": 6}
        response = client_for(organiser).post(
            "/api/matches/", {"players": ["alice", "ben"], "first_to": 2, "ruleset": custom}, format="json"
        )
        assert response.status_code == 201, response.json()
        match = response.json()
        assert match["first_to"] == 2
        assert "best_of" not in match
        assert match["ruleset"]["hand_size"] == 4
        assert match["ruleset"]["stack_size"] == 6
        assert match["ruleset_name"] is None

    @pytest.mark.parametrize(
        ("payload", "words"),
        [
            ({"players": ["alice", "ben"], "best_of": 3, "ruleset": "three-way"}, "seats 3 players, but 2 play here"),
            ({"players": ["alice", "ben"], "best_of": 3, "ruleset": "four-way"}, "seats 4 players, but 2 play here"),
            ({"players": ["alice", "ben"], "best_of": 3, "ruleset": "nonsense"}, "Unknown ruleset"),
            ({"players": ["alice", "ben"], "best_of": 3, "ruleset": {"hand_size": 9}}, "hand_size"),
            ({"players": ["alice", "ben"], "best_of": 3, "ruleset": {"hand_size": "5"}}, "hand_size"),
            ({"players": ["alice", "ben"], "best_of": 4}, "odd"),
            ({"players": ["alice", "ben"], "best_of": 0}, "from 1"),
            ({"players": ["alice", "ben"], "best_of": 3, "first_to": 2}, "exactly one"),
            ({"players": ["alice", "ben"]}, "exactly one"),
            ({"players": ["alice"], "best_of": 3}, "two to four different"),
            ({"players": ["alice", "ALICE"], "best_of": 3}, "two to four different"),
            ({"players": ["alice", "zed"], "best_of": 3}, "zed"),
            ({"players": "alice", "best_of": 3}, "players"),
            ({"players": ["alice", "ben"], "best_of": "three"}, "best_of"),
        ],
    )
    @pytest.mark.usefixtures("alice", "ben")
    def test_bad_requests_are_400_with_a_message(self, client_for, organiser, payload, words):
        response = client_for(organiser).post("/api/matches/", payload, format="json")
        assert response.status_code == 400, response.content
        assert words in response.json()["message"]
        assert Match.objects.count() == 0

    def test_player_cannot_create_a_match_they_do_not_play(self, client_for, alice, ben, carol):
        response = client_for(carol.user).post("/api/matches/", {"players": ["alice", "ben"], "best_of": 1})
        assert response.status_code == 403
        assert "Organisers create matches" in response.json()["message"]

    def test_user_without_player_cannot_create_matches(self, client_for, alice, ben):
        response = client_for(make_user()).post("/api/matches/", {"players": ["alice", "ben"], "best_of": 1})
        assert response.status_code == 403

    def test_anonymous_reads_but_cannot_create(self, anon, alice, ben):
        make_match(alice, ben)
        assert anon.get("/api/matches/").status_code == 200
        response = anon.post("/api/matches/", {"players": ["alice", "ben"], "best_of": 1}, format="json")
        assert response.status_code == 401
        assert response.json()["message"]

    def test_missing_match_is_404(self, anon):
        response = anon.get("/api/matches/999999/")
        assert response.status_code == 404
        assert "999999" in response.json()["message"]

    def test_list_filters_by_status_and_player(self, anon, alice, ben, carol):
        first = make_match(alice, ben)
        make_match(ben, carol)
        Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED)
        by_player = anon.get("/api/matches/?player=ALICE").json()["results"]
        assert [m["id"] for m in by_player] == [first.pk]
        finished = anon.get("/api/matches/?status=finished").json()["results"]
        assert [m["id"] for m in finished] == [first.pk]


class TestGameResults:
    def test_both_players_reporting_the_same_winner_decides_the_game(self, client_for, alice, ben):
        match = make_match(alice, ben, best_of=3)
        game = match.games.get()
        first = client_for(alice.user).post(f"/api/games/{game.pk}/report/", {"winner": "ben"}, format="json")
        assert first.status_code == 200
        assert first.json()["status"] == "awaiting_confirmation"  # one side's word, for the other side
        assert first.json()["claimed_winner"] == "ben"
        second = client_for(ben.user).post(f"/api/games/{game.pk}/report/", {"winner": "ben"}, format="json")
        assert second.json()["status"] == "decided"
        assert second.json()["winner"] == "ben"
        assert second.json()["decided_by"] == "players"
        detail = client_for(ben.user).get(f"/api/matches/{match.pk}/").json()
        assert detail["score"] == {"alice": 0, "ben": 1}
        assert [g["number"] for g in detail["games"]] == [1, 2]

    def test_reports_that_disagree_dispute_and_an_organiser_settles(self, client_for, organiser, alice, ben):
        match = make_match(alice, ben, best_of=1)
        game = match.games.get()
        client_for(alice.user).post(f"/api/games/{game.pk}/report/", {"winner": "alice"}, format="json")
        disputed = client_for(ben.user).post(f"/api/games/{game.pk}/report/", {"winner": "ben"}, format="json")
        assert disputed.json()["status"] == "disputed"
        player_try = client_for(alice.user).post(f"/api/games/{game.pk}/result/", {"winner": "alice"}, format="json")
        assert player_try.status_code == 403
        settled = client_for(organiser).post(f"/api/games/{game.pk}/result/", {"winner": "alice"}, format="json")
        assert settled.status_code == 200
        assert settled.json()["decided_by"] == "organiser"
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert match.winner == alice

    def test_outsider_cannot_report(self, client_for, alice, ben, carol):
        game = make_match(alice, ben).games.get()
        response = client_for(carol.user).post(f"/api/games/{game.pk}/report/", {"winner": "alice"}, format="json")
        assert response.status_code == 403

    def test_report_on_missing_game_is_404(self, client_for, alice):
        response = client_for(alice.user).post("/api/games/424242/report/", {"winner": "alice"}, format="json")
        assert response.status_code == 404


class TestListQueryCounts:
    """A page of 50 matches costs the same few queries as a page of 5."""

    def _count(self, client, url: str) -> int:
        with database_queries() as queries:
            response = client.get(url)
        assert response.status_code == 200
        return len(queries)

    def test_match_pages_cost_a_constant_number_of_queries(self, anon):
        players = [make_player(f"p{i}") for i in range(6)]
        for i in range(55):
            match = make_match(players[i % 6], players[(i + 1) % 6], best_of=3)
            if i % 3 == 0:  # some decided games with winners, so winners are serialized too
                Game.objects.filter(match=match).update(status=Game.Status.DECIDED, winner=match.player_one)
        small = self._count(anon, "/api/matches/?limit=5")
        large = self._count(anon, "/api/matches/?limit=50")
        assert small == large
        assert large <= 4  # count, matches with players and winner, games with winners

    def test_player_pages_cost_a_constant_number_of_queries(self, anon):
        for i in range(55):
            make_player(f"q{i}")
        assert self._count(anon, "/api/players/?limit=5") == self._count(anon, "/api/players/?limit=50") <= 2


def test_schema_and_docs_are_served(anon):
    schema = anon.get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ("/api/games/{game_id}/logs/", "/api/logs/{log_id}/steps/", "/api/matches/", "/api/token/"):
        assert path in text
    assert anon.get("/api/docs/").status_code == 200
