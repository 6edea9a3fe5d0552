"""Submitting logs through the API and reading verdicts and replays (verification in-process)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from django.test import override_settings

from matches.models import Game, Match
from replays.models import LogVerdict, MatchLog
from speedrules import ENGINE_VERSION, simulate
from tests.factories import SPEC_EXAMPLES, body, deadlock_log, load, make_match, make_player, tampered, won_log
from tests.queries import database_queries

pytestmark = pytest.mark.django_db


def submit(client, game_id: int, data: bytes, capture) -> Any:
    """POST a log and run what the commit enqueues (verification, in-process here)."""
    with capture(execute=True):
        return client.post(f"/api/games/{game_id}/logs/", data=data, content_type="application/json")


class TestFlow:
    def test_a_verified_log_decides_the_game_and_the_next_one_opens(self, client_for, alice, ben, capture):
        match = make_match(alice, ben, best_of=3)
        game = match.games.get()
        document = won_log("speed", ["alice", "ben"], winner_seat=1)
        response = submit(client_for(alice.user), game.pk, body(document), capture)

        assert response.status_code == 202, response.json()
        submitted = response.json()
        assert submitted["status"] == "pending"
        assert submitted["url"].endswith(f"/api/logs/{submitted['id']}/")

        log = client_for(alice.user).get(submitted["url"]).json()
        assert log["id"] == submitted["id"]
        assert log["game"] == game.pk
        assert log["provenance"] == "submitted"  # not the table's (tests/play/test_table_game.py)
        assert log["status"] == "verified"
        assert log["code"] == "ok"
        assert log["event"] is None
        assert log["winner"] == 1
        assert log["winner_player"] == "ben"
        assert log["engine_version"] == ENGINE_VERSION
        assert log["submitted_at"] and log["verified_at"]

        # One side's log is a claim: the score does not move until the other side confirms.
        waiting = client_for(alice.user).get(f"/api/matches/{match.pk}/").json()
        assert waiting["score"] == {"alice": 0, "ben": 0}
        assert waiting["games"][0]["status"] == "awaiting_confirmation"
        assert waiting["games"][0]["claimed_winner"] == "ben"
        assert waiting["games"][0]["confirm_by"] is None  # outside a tournament a claim never lapses
        assert len(waiting["games"]) == 1
        assert client_for(ben.user).post(f"/api/games/{game.pk}/confirm/").status_code == 200

        detail = client_for(alice.user).get(f"/api/matches/{match.pk}/").json()
        assert detail["score"] == {"alice": 0, "ben": 1}
        assert detail["games"][0] == {
            "id": game.pk,
            "number": 1,
            "status": "decided",
            "winner": "ben",
            "winning_team": None,
            "decided_by": "log",
            "places": None,
            "timed_scores": None,
            "claimed_winner": None,
            "claimed_team": None,
            "claimed_places": None,
            "confirm_by": None,
        }
        assert detail["games"][1]["number"] == 2
        assert detail["games"][1]["status"] == "open"
        assert detail["status"] == "in_progress"

    def test_seat_order_is_mapped_through_the_log_players_case_insensitively(self, client_for, alice, ben, capture):
        game = make_match(alice, ben, best_of=1).games.get()
        document = won_log("speed", ["Ben", "ALICE"], winner_seat=0)  # seat 0 is ben
        assert submit(client_for(ben.user), game.pk, body(document), capture).status_code == 202
        assert client_for(alice.user).post(f"/api/games/{game.pk}/confirm/").status_code == 200
        game.refresh_from_db()
        assert game.winner == ben
        match = Match.objects.get(pk=game.match_id)
        assert match.status == Match.Status.FINISHED
        assert match.winner == ben

    def test_the_match_ends_when_a_player_reaches_the_wins_needed(self, client_for, organiser, alice, ben, capture):
        match = make_match(alice, ben, first_to=2)
        for start in (0, 100):
            game = match.games.get(status=Game.Status.OPEN)
            document = won_log("speed", ["alice", "ben"], winner_seat=0, start=start)
            assert submit(client_for(organiser), game.pk, body(document), capture).status_code == 202
        detail = client_for(organiser).get(f"/api/matches/{match.pk}/").json()
        assert detail["status"] == "finished"
        assert detail["winner"] == "alice"
        assert detail["score"] == {"alice": 2, "ben": 0}
        assert [g["status"] for g in detail["games"]] == ["decided", "decided"]

    def test_an_invalid_log_is_rejected_and_leaves_the_game_open(self, client_for, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        bad = tampered(won_log("speed", ["alice", "ben"]))
        response = submit(client_for(alice.user), game.pk, body(bad), capture)
        assert response.status_code == 202
        log = client_for(alice.user).get(response.json()["url"]).json()
        assert log["status"] == "rejected"
        assert log["code"] == "result_mismatch"
        assert log["event"] is None
        assert log["message"]
        assert log["winner"] is None
        game.refresh_from_db()
        assert game.status == Game.Status.OPEN
        assert game.winner is None

    def test_a_deadlock_voids_the_game_and_a_replay_game_opens(self, client_for, alice, ben, capture):
        match = make_match(alice, ben, best_of=1)
        game = match.games.get()
        response = submit(client_for(alice.user), game.pk, body(deadlock_log(["alice", "ben"])), capture)
        assert response.status_code == 202
        assert client_for(ben.user).post(f"/api/games/{game.pk}/confirm/").status_code == 200
        detail = client_for(alice.user).get(f"/api/matches/{match.pk}/").json()
        assert detail["games"][0]["status"] == "void"
        assert detail["games"][0]["decided_by"] == "log"
        assert detail["games"][1]["status"] == "open"
        assert detail["status"] == "in_progress"

    def test_steps_show_the_table_after_the_deal_and_each_event(self, client_for, anon, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        document = won_log("speed", ["alice", "ben"])
        log_id = submit(client_for(alice.user), game.pk, body(document), capture).json()["id"]
        steps = anon.get(f"/api/logs/{log_id}/steps/")
        assert steps.status_code == 200
        data = steps.json()
        assert data["log"] == log_id
        assert data["status"] == "verified"
        assert len(data["steps"]) == len(document["events"]) + 1
        for step in data["steps"]:
            assert step["total"] == 52
            assert len(step["hands"]) == 2
        assert data["steps"][0]["event"] is None
        assert data["steps"][-1]["event"] == len(document["events"]) - 1
        assert anon.get(f"/api/logs/{log_id}/steps/").json() == data  # the cached copy reads the same

    def test_steps_of_a_rejected_log_run_up_to_the_failing_event(self, client_for, anon, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        document = won_log("speed", ["alice", "ben"])
        document["events"][5]["t"] = document["events"][4]["t"] - 1  # earlier than the event before it
        log_id = submit(client_for(alice.user), game.pk, body(document), capture).json()["id"]
        log = anon.get(f"/api/logs/{log_id}/").json()
        assert log["status"] == "rejected"
        assert log["event"] == 5
        steps = anon.get(f"/api/logs/{log_id}/steps/").json()
        assert [step["event"] for step in steps["steps"]] == [None, 0, 1, 2, 3, 4]

    def test_the_document_is_stored_verbatim(self, client_for, anon, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        raw = json.dumps(won_log("speed", ["alice", "ben"]), indent=3).encode() + b"\n\n"
        log_id = submit(client_for(alice.user), game.pk, raw, capture).json()["id"]
        assert anon.get(f"/api/logs/{log_id}/document/").content == raw
        assert bytes(MatchLog.objects.get(pk=log_id).data) == raw

    def test_game_logs_are_listed(self, client_for, anon, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        bad = tampered(won_log("speed", ["alice", "ben"]))
        good = won_log("speed", ["alice", "ben"], start=50)
        ids = [submit(client_for(alice.user), game.pk, body(doc), capture).json()["id"] for doc in (bad, good)]
        listed = anon.get(f"/api/games/{game.pk}/logs/").json()["results"]
        assert sorted(entry["id"] for entry in listed) == sorted(ids)
        assert {entry["status"] for entry in listed} == {"verified", "rejected"}


class TestDuplicatesAndDisputes:
    def test_the_same_document_twice_from_one_player_is_the_same_submission(self, client_for, alice, ben, capture):
        """From the other player it is their own submission (tests/matches/test_confirmation.py)."""
        game = make_match(alice, ben).games.get()
        data = body(won_log("speed", ["alice", "ben"]))
        first = submit(client_for(alice.user), game.pk, data, capture)
        second = submit(client_for(alice.user), game.pk, data, capture)
        assert first.status_code == 202
        assert second.status_code == 200
        assert second.json()["id"] == first.json()["id"]
        assert second.json()["status"] == "verified"
        assert MatchLog.objects.count() == 1
        assert MatchLog.objects.get().judgements == 1  # not verified twice
        assert LogVerdict.objects.count() == 0  # re-judgements only

    def test_the_same_document_for_another_game_is_another_submission(self, client_for, alice, ben, capture):
        data = body(won_log("speed", ["alice", "ben"]))
        one = make_match(alice, ben).games.get()
        two = make_match(alice, ben).games.get()
        assert submit(client_for(alice.user), one.pk, data, capture).status_code == 202
        assert submit(client_for(alice.user), two.pk, data, capture).status_code == 202

    def test_two_verified_logs_that_disagree_dispute_the_game(self, client_for, organiser, alice, ben, capture):
        match = make_match(alice, ben, best_of=3)
        game = match.games.get()
        alice_wins = won_log("speed", ["alice", "ben"], winner_seat=0)
        ben_wins = won_log("speed", ["alice", "ben"], winner_seat=1)
        # Both are submitted while the game is open; their verifications run after both commits.
        with capture(execute=True):
            first = client_for(alice.user).post(
                f"/api/games/{game.pk}/logs/", body(alice_wins), content_type="application/json"
            )
            second = client_for(ben.user).post(
                f"/api/games/{game.pk}/logs/", body(ben_wins), content_type="application/json"
            )
        assert (first.status_code, second.status_code) == (202, 202)
        assert set(MatchLog.objects.values_list("status", flat=True)) == {"verified"}
        detail = client_for(alice.user).get(f"/api/matches/{match.pk}/").json()
        assert [g["status"] for g in detail["games"]] == ["disputed"]  # no next game while disputed
        assert detail["games"][0]["winner"] is None
        assert detail["score"] == {"alice": 0, "ben": 0}
        # An organiser settles it; only then does the match move on.
        settled = client_for(organiser).post(f"/api/games/{game.pk}/result/", {"winner": "ben"}, format="json")
        assert settled.status_code == 200
        detail = client_for(alice.user).get(f"/api/matches/{match.pk}/").json()
        assert detail["games"][0]["status"] == "decided"
        assert detail["games"][0]["decided_by"] == "organiser"
        assert detail["score"] == {"alice": 0, "ben": 1}
        assert len(detail["games"]) == 2

    def test_two_verified_logs_that_agree_decide_once(self, client_for, alice, ben, capture):
        match = make_match(alice, ben, best_of=3)
        game = match.games.get()
        document = won_log("speed", ["alice", "ben"], winner_seat=0)
        reformatted = json.dumps(document).encode()  # same game, other bytes: a second submission
        with capture(execute=True):  # one from each side: both sides' evidence agrees, no confirmation needed
            for user, data in ((alice.user, body(document)), (ben.user, reformatted)):
                client_for(user).post(f"/api/games/{game.pk}/logs/", data, content_type="application/json")
        assert MatchLog.objects.filter(status="verified").count() == 2
        game.refresh_from_db()
        assert (game.status, game.winner) == (Game.Status.DECIDED, alice)
        assert match.games.count() == 2


class TestErrors:
    @pytest.fixture
    def game(self, alice, ben) -> Game:
        return make_match(alice, ben).games.get()

    def post(self, client, game_id: int, data: bytes, **extra: Any):
        return client.post(f"/api/games/{game_id}/logs/", data=data, content_type="application/json", **extra)

    def assert_error(self, response, status: int, *words: str) -> None:
        assert response.status_code == status, response.content
        message = response.json()["message"]
        for word in words:
            assert word in message, message

    def test_not_json_is_400(self, client_for, alice, game):
        self.assert_error(self.post(client_for(alice.user), game.pk, b"{not json"), 400, "not a JSON")
        self.assert_error(self.post(client_for(alice.user), game.pk, b""), 400, "not a JSON")
        self.assert_error(self.post(client_for(alice.user), game.pk, b"\xff\xfe"), 400, "not a JSON")
        assert MatchLog.objects.count() == 0

    def test_json_that_is_not_an_object_is_400(self, client_for, alice, game):
        for data in (b"[1, 2]", b'"speed-log/1"', b"42", b"null"):
            self.assert_error(self.post(client_for(alice.user), game.pk, data), 400, "not an object")
        assert MatchLog.objects.count() == 0

    @pytest.mark.parametrize(
        "players",
        [["alice", "carol"], ["alice"], ["alice", "ben", "carol"], "alice,ben", None, [1, 2], ["alice", "alice"]],
    )
    def test_log_players_that_are_not_the_match_players_are_400(self, client_for, alice, ben, game, players):
        document = won_log("speed", ["alice", "ben"])
        document["players"] = players
        self.assert_error(self.post(client_for(alice.user), game.pk, body(document)), 400, "'alice'", "'ben'")
        assert MatchLog.objects.count() == 0

    def test_a_log_of_another_ruleset_is_400(self, client_for, alice, ben, game):
        document = won_log("california", ["alice", "ben"])
        self.assert_error(self.post(client_for(alice.user), game.pk, body(document)), 400, "ruleset")

    def test_a_game_decided_by_a_verified_log_takes_no_other_log(self, client_for, alice, ben, game, capture):
        first = won_log("speed", ["alice", "ben"], winner_seat=0)
        assert submit(client_for(alice.user), game.pk, body(first), capture).status_code == 202
        assert client_for(ben.user).post(f"/api/games/{game.pk}/confirm/").status_code == 200
        other = won_log("speed", ["alice", "ben"], winner_seat=1)
        self.assert_error(
            submit(client_for(ben.user), game.pk, body(other), capture), 400, "already decided", "verified log"
        )
        game.refresh_from_db()
        assert game.winner == alice
        # ...but the same document again from its submitter is still the same submission.
        assert submit(client_for(alice.user), game.pk, body(first), capture).status_code == 200

    def test_anonymous_is_401(self, anon, game):
        self.assert_error(self.post(anon, game.pk, body(won_log("speed", ["alice", "ben"]))), 401)

    def test_someone_else_is_403(self, client_for, carol, game):
        self.assert_error(
            self.post(client_for(carol.user), game.pk, body(won_log("speed", ["alice", "ben"]))),
            403,
            "organiser",
        )

    def test_session_login_works_too(self, alice, game, capture):
        from rest_framework.test import APIClient

        client = APIClient()
        client.force_login(alice.user)
        assert submit(client, game.pk, body(won_log("speed", ["alice", "ben"])), capture).status_code == 202

    def test_no_such_game_is_404(self, client_for, alice):
        self.assert_error(
            self.post(client_for(alice.user), 987654, body(won_log("speed", ["alice", "ben"]))), 404, "987654"
        )

    def test_no_such_log_is_404(self, anon):
        self.assert_error(anon.get("/api/logs/555555/"), 404, "555555")
        self.assert_error(anon.get("/api/logs/555555/steps/"), 404, "555555")

    @override_settings(SPEED_LOG_MAX_BYTES=10_000)
    def test_a_log_over_the_size_limit_is_413(self, client_for, alice, game):
        document = won_log("speed", ["alice", "ben"])
        document["padding"] = "x" * 20_000  # unknown top-level keys are allowed by the format
        self.assert_error(self.post(client_for(alice.user), game.pk, body(document)), 413, "10000")
        assert MatchLog.objects.count() == 0

    def test_the_default_limit_is_2_mb(self, client_for, alice, game):
        document = won_log("speed", ["alice", "ben"])
        document["padding"] = "x" * (2 * 1024 * 1024)
        self.assert_error(self.post(client_for(alice.user), game.pk, body(document)), 413, str(2 * 1024 * 1024))

    @pytest.mark.parametrize("url", ["/api/games/{game}/logs/", "/api/solitaire/"])
    @pytest.mark.parametrize(
        ("data", "content_type"),
        [
            ({"log": "x"}, None),  # a multipart form
            ('{"format": "speed-log/1"}', "text/plain"),
            ('{"format": "speed-log/1"}', "application/x-www-form-urlencoded"),
        ],
    )
    def test_a_body_not_sent_as_json_is_415_like_every_endpoint(
        self, *, client_for, alice, game, url, data, content_type
    ):
        # The raw-body endpoints read the bytes themselves, but take what the API's parsers take.
        client = client_for(alice.user)
        address = url.format(game=game.pk)
        if content_type is None:
            response = client.post(address, data, format="multipart")
        else:
            response = client.post(address, data, content_type=content_type)
        assert response.status_code == 415, response.content
        assert set(response.json()) == {"message", "extra"}


class TestSpecExamplesThroughTheApi:
    """Every public example of the format gets its manifest verdict through the API."""

    @staticmethod
    def manifest() -> list[dict[str, Any]]:
        lines = (SPEC_EXAMPLES / "manifest.jsonl").read_text().splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def test_every_example(self, client_for, organiser, capture):
        entries = self.manifest()
        assert len(entries) >= 20
        for entry in entries:
            data = load(entry["file"])
            names = orjson.loads(data)["players"]
            players = [make_player(name) if not _exists(name) else _get(name) for name in names]
            match = make_match(players[0], players[1], ruleset=entry["ruleset"], best_of=1)
            response = submit(client_for(organiser), match.games.get().pk, data, capture)
            assert response.status_code == 202, (entry["file"], response.json())
            log = client_for(organiser).get(response.json()["url"]).json()
            expected_status = "verified" if entry["code"] == "ok" else "rejected"
            assert (log["status"], log["code"], log["event"], log["winner"]) == (
                expected_status,
                entry["code"],
                entry["event"],
                entry["winner"],
            ), entry["file"]
            game = Game.objects.get(pk=log["game"])
            if entry["code"] != "ok":
                assert game.status == Game.Status.OPEN
            elif entry["winner"] is None:
                assert game.status == Game.Status.VOID
            else:
                assert game.winner.handle == names[entry["winner"]]


def _exists(handle: str) -> bool:
    from matches.models import Player

    return Player.objects.filter(handle__iexact=handle).exists()


def _get(handle: str):
    from matches.models import Player

    return Player.objects.get(handle__iexact=handle)


def test_simulated_logs_of_several_rulesets_are_verified(client_for, organiser, alice, ben, capture):
    for ruleset in (
        "speed",
        "doubles",
        "jokers-wild",
        "three-card-hands",
        "seven-card-stacks",
        "runs-at-once",
        "california",
    ):
        match = make_match(alice, ben, ruleset=ruleset, best_of=1)
        document = simulate(ruleset, seed=7, players=["alice", "ben"])
        response = submit(client_for(organiser), match.games.get().pk, body(document), capture)
        log = MatchLog.objects.get(pk=response.json()["id"])
        assert (log.status, log.code) == ("verified", "ok"), ruleset


@pytest.mark.parametrize(
    "data",
    [
        b"[" * 100_000 + b"]" * 100_000,  # nested too deep for any parser
        b'{"players": ["alice", "ben"], "x": NaN}',
        b"\xef\xbb\xbf{}",  # a byte-order mark
        b'{"players": ["alice", "ben"], "ruleset": {"players": 9}}',
        b'{"players": ["alice", "ben"], "ruleset": []}',
        b'{"players": ["alice", "\\ud800"]}',
        b'{"players": {"0": "alice"}}',
        b"{" + b'"a": 1, ' * 50_000 + b'"b": 2}',
        b'{"n": 1' + b"0" * 5000 + b"}",
    ],
)
def test_odd_bodies_never_cause_a_500(client_for, alice, ben, capture, data):
    game = make_match(alice, ben).games.get()
    response = submit(client_for(alice.user), game.pk, data, capture)
    assert response.status_code in (202, 400), response.content
    assert response.json().get("message") or response.json().get("status") == "pending"
    if response.status_code == 202:  # accepted ones are judged (rejected), not lost
        log = MatchLog.objects.get(pk=response.json()["id"])
        assert log.status in ("rejected", "failed")


def test_game_log_pages_cost_a_constant_number_of_queries(client_for, anon, alice, ben, capture):
    game = make_match(alice, ben).games.get()
    for seed in range(12):
        document = won_log("speed", ["alice", "ben"], start=seed * 20)
        document["result"] = {"winner": 1 - document["result"]["winner"]}  # rejected: the game stays open
        submit(client_for(alice.user), game.pk, body(document), capture)
    counts = []
    for limit in (2, 12):
        with database_queries() as queries:
            assert len(anon.get(f"/api/games/{game.pk}/logs/?limit={limit}").json()["results"]) == limit
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 3


def test_a_pending_logs_nulls_are_in_the_schema(client_for, anon, alice, ben):
    # A log not yet verified has no code, engine version or winner: the schema must allow null there
    # (Schemathesis, with other seeds, caught GET /api/logs/{id}/ and /api/games/{id}/logs/ answering it).
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    log_schema = schema["components"]["schemas"]["LogOutput"]["properties"]
    for name in ("code", "engine_version", "winner", "winner_player", "event", "verified_at"):
        assert log_schema[name].get("nullable"), name
    game = make_match(alice, ben).games.get()
    # Outside a transaction's commit the verification is never enqueued: the log stays pending.
    response = client_for(alice.user).post(
        f"/api/games/{game.pk}/logs/", body(won_log("speed", ["alice", "ben"])), content_type="application/json"
    )
    log = anon.get(f"/api/logs/{response.json()['id']}/").json()
    assert (log["status"], log["code"], log["engine_version"], log["winner_player"]) == ("pending", None, None, None)
