"""One side's word never decides against the other: claims, confirmation, disputes, lapses and history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.evidence import ORGANISER, Claim, OutcomeKind, Source, game_outcome
from matches.models import Game, Match, ResultChange
from matches.services import games_lapse, match_annul, match_create, organiser_grant
from tests.factories import body, make_match, make_players, won_log
from tournaments.models import RatingChange

pytestmark = pytest.mark.django_db

ALICE, BEN = 1, 2


class TestOutcome:
    """The pure rule: which evidence decides what."""

    def outcome(self, *claims: Claim, required: bool = True, pending: bool = False):
        return game_outcome(claims, players=(ALICE, BEN), confirmation_required=required, pending=pending)

    def test_no_evidence_leaves_the_game_open(self) -> None:
        assert self.outcome().verdict is OutcomeKind.OPEN

    def test_one_sides_log_is_a_claim_for_the_other_side(self) -> None:
        outcome = self.outcome(Claim(ALICE, Source.LOG, BEN))
        assert (outcome.verdict, outcome.winner, outcome.claimed_by, outcome.source) == (
            OutcomeKind.AWAITING,
            BEN,
            ALICE,
            Source.LOG,
        )

    def test_two_logs_of_one_side_are_still_one_sides_word(self) -> None:
        assert self.outcome(Claim(ALICE, Source.LOG, ALICE), Claim(ALICE, Source.LOG, ALICE)).verdict is (
            OutcomeKind.AWAITING
        )

    def test_both_sides_agreeing_decide(self) -> None:
        log_and_report = self.outcome(Claim(ALICE, Source.LOG, ALICE), Claim(BEN, Source.REPORT, ALICE))
        assert (log_and_report.verdict, log_and_report.source) == (OutcomeKind.DECIDED, Source.LOG)
        reports = self.outcome(Claim(ALICE, Source.REPORT, BEN), Claim(BEN, Source.REPORT, BEN))
        assert (reports.verdict, reports.winner, reports.source) == (OutcomeKind.DECIDED, BEN, Source.REPORT)

    def test_disagreeing_evidence_disputes(self) -> None:
        assert self.outcome(Claim(ALICE, Source.LOG, ALICE), Claim(BEN, Source.LOG, BEN)).verdict is (
            OutcomeKind.DISPUTED
        )

    def test_an_organisers_log_decides_at_once(self) -> None:
        outcome = self.outcome(Claim(ORGANISER, Source.LOG, BEN))
        assert (outcome.verdict, outcome.winner) == (OutcomeKind.DECIDED, BEN)

    def test_a_supervised_match_lets_a_log_decide_but_not_a_report(self) -> None:
        assert self.outcome(Claim(ALICE, Source.LOG, ALICE), required=False).verdict is OutcomeKind.DECIDED
        assert self.outcome(Claim(ALICE, Source.REPORT, ALICE), required=False).verdict is OutcomeKind.AWAITING

    def test_a_pending_log_holds_everything(self) -> None:
        assert self.outcome(Claim(ORGANISER, Source.LOG, BEN), pending=True).verdict is OutcomeKind.OPEN


def post_log(client, game: Game, document: dict, capture):
    with capture(execute=True):
        return client.post(f"/api/games/{game.pk}/logs/", data=body(document), content_type="application/json")


class TestTheSameDocumentFromBothSides:
    def test_both_players_sending_one_recorders_file_decide_the_game(self, client_for, alice, ben, capture):
        """A recorder gives both players the same file: the second upload is the second player's word."""
        game = make_match(alice, ben, best_of=1).games.get()
        document = won_log("speed", ["alice", "ben"], winner_seat=1)
        first = post_log(client_for(alice.user), game, document, capture)
        assert first.status_code == 202
        assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION
        second = post_log(client_for(ben.user), game, document, capture)
        assert second.status_code == 202
        assert second.json()["id"] != first.json()["id"]
        game.refresh_from_db()
        assert (game.status, game.winner, game.decided_by) == ("decided", ben, "log")
        assert game.logs.count() == 2

    def test_the_same_file_again_from_the_same_player_is_the_same_submission(self, client_for, alice, ben, capture):
        game = make_match(alice, ben, best_of=1).games.get()
        document = won_log("speed", ["alice", "ben"], winner_seat=1)
        first = post_log(client_for(alice.user), game, document, capture)
        again = post_log(client_for(alice.user), game, document, capture)
        assert (again.status_code, again.json()["id"]) == (200, first.json()["id"])
        assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION


class TestOneSideAlone:
    def test_one_players_log_cannot_finish_a_match_or_move_a_rating(self, client_for, alice, ben, capture):
        """The reported failure: alice's rated best-of-1, and she submits a simulated win; ben did nothing since.
        (A challenge makes a casual match, which moves no rating at all: this one is made rated.)"""
        match = make_match(alice, ben, best_of=1)
        assert match.rated
        game = match.games.get()
        assert (
            post_log(
                client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture
            ).status_code
            == 202
        )
        detail = client_for(ben.user).get(f"/api/matches/{match.pk}/").json()
        assert detail["status"] == "in_progress"
        assert detail["score"] == {"alice": 0, "ben": 0}
        assert detail["games"][0]["status"] == "awaiting_confirmation"
        assert not RatingChange.objects.exists()  # nobody's rating moved
        assert client_for(ben.user).get("/api/tournaments/ratings/ben/").json()["rating"] == 1500.0
        # Alice cannot confirm her own claim.
        refused = client_for(alice.user).post(f"/api/games/{game.pk}/confirm/")
        assert refused.status_code == 403
        assert Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS

    def test_the_opponent_confirms_and_the_match_finishes(self, client_for, alice, ben, capture):
        match = make_match(alice, ben, best_of=1)
        game = match.games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture)
        confirmed = client_for(ben.user).post(f"/api/games/{game.pk}/confirm/")
        assert confirmed.status_code == 200
        assert (confirmed.json()["status"], confirmed.json()["decided_by"]) == ("decided", "log")
        match.refresh_from_db()
        assert (match.status, match.winner) == (Match.Status.FINISHED, alice)

    def test_the_opponent_disputes_with_a_reason_and_an_organiser_settles(
        self, client_for, organiser, alice, ben, capture
    ):
        match = make_match(alice, ben, best_of=1)
        game = match.games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture)
        no_reason = client_for(ben.user).post(f"/api/games/{game.pk}/dispute/", {"reason": " "}, format="json")
        assert no_reason.status_code == 400
        disputed = client_for(ben.user).post(
            f"/api/games/{game.pk}/dispute/", {"reason": "We never played this game."}, format="json"
        )
        assert disputed.json()["status"] == "disputed"
        assert client_for(ben.user).post(f"/api/games/{game.pk}/confirm/").status_code == 400  # nothing to confirm now
        settled = client_for(organiser).post(
            f"/api/games/{game.pk}/result/", {"winner": None, "reason": "Replay it."}, format="json"
        )
        assert (settled.json()["status"], settled.json()["decided_by"]) == ("void", "organiser")

    def test_the_claimant_cannot_dispute_their_own_claim(self, client_for, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"]), capture)
        own = client_for(alice.user).post(f"/api/games/{game.pk}/dispute/", {"reason": "Oops"}, format="json")
        assert own.status_code == 403 and "other side" in own.json()["message"]
        game.refresh_from_db()
        assert game.status == Game.Status.AWAITING_CONFIRMATION  # still the other side's word to give

    def test_an_outsider_cannot_confirm_or_dispute(self, client_for, alice, ben, carol, capture):
        game = make_match(alice, ben).games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"]), capture)
        assert client_for(carol.user).post(f"/api/games/{game.pk}/confirm/").status_code == 403
        assert (
            client_for(carol.user).post(f"/api/games/{game.pk}/dispute/", {"reason": "x"}, format="json").status_code
            == 403
        )

    def test_an_organiser_may_confirm_and_the_history_says_an_organiser_decided(
        self, client_for, organiser, alice, ben, capture
    ):
        game = make_match(alice, ben).games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=1), capture)
        confirmed = client_for(organiser).post(f"/api/games/{game.pk}/confirm/").json()
        assert (confirmed["winner"], confirmed["decided_by"]) == ("ben", "organiser")
        change = ResultChange.objects.filter(game=game).latest("id")
        assert (change.kind, change.after["decided_by"], change.made_by) == ("confirmation", "organiser", organiser)

    def test_an_organiser_who_plays_cannot_confirm_their_own_claim(self, client_for, alice, ben, capture):
        organiser_grant(user=alice.user)
        game = make_match(alice, ben).games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture)
        refused = client_for(alice.user).post(f"/api/games/{game.pk}/confirm/")
        assert refused.status_code == 403
        assert "settle" in refused.json()["message"]
        game.refresh_from_db()
        assert (game.status, game.winner, game.decided_by) == ("awaiting_confirmation", None, "")
        assert not ResultChange.objects.filter(game=game, after__decided_by="players").exists()
        # The opponent's confirmation still decides it.
        assert client_for(ben.user).post(f"/api/games/{game.pk}/confirm/").json()["decided_by"] == "log"

    def test_an_organiser_who_plays_cannot_confirm_their_own_report(self, client_for, alice, ben):
        organiser_grant(user=alice.user)
        game = make_match(alice, ben).games.get()
        client_for(alice.user).post(f"/api/games/{game.pk}/report/", {"winner": "alice"}, format="json")
        assert client_for(alice.user).post(f"/api/games/{game.pk}/confirm/").status_code == 403
        assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION


class TestLapse:
    def test_an_unconfirmed_claim_stands_when_its_window_runs_out(self, client_for, alice, ben, capture):
        one, two = alice, ben
        match = match_create(players=[one.handle, two.handle], best_of=1, confirm_within=60)
        game = match.games.get()
        post_log(client_for(one.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture)
        game.refresh_from_db()
        assert game.confirm_by is not None
        assert games_lapse(now=game.confirm_by - timedelta(seconds=1)) == 0  # not yet
        assert games_lapse(now=game.confirm_by) == 1
        game.refresh_from_db()
        assert (game.status, game.winner, game.decided_by) == ("decided", alice, "lapse")
        assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
        assert games_lapse(now=timezone.now() + timedelta(days=1)) == 0  # nothing left to lapse

    def test_a_disputed_claim_never_lapses(self, client_for, alice, ben, capture):
        match = match_create(players=["alice", "ben"], best_of=1, confirm_within=60)
        game = match.games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"]), capture)
        client_for(ben.user).post(f"/api/games/{game.pk}/dispute/", {"reason": "not so"}, format="json")
        assert games_lapse(now=timezone.now() + timedelta(days=1)) == 0
        assert Game.objects.get(pk=game.pk).status == Game.Status.DISPUTED

    def test_a_match_on_its_own_never_lapses(self, client_for, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"]), capture)
        assert games_lapse(now=timezone.now() + timedelta(days=365)) == 0


class TestHistory:
    def test_every_change_is_kept_oldest_first(self, client_for, organiser, alice, ben, capture):
        match = make_match(alice, ben, best_of=1)
        game = match.games.get()
        post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture)
        client_for(ben.user).post(f"/api/games/{game.pk}/dispute/", {"reason": "I won that one"}, format="json")
        client_for(organiser).post(f"/api/games/{game.pk}/result/", {"winner": "ben", "reason": "Video"}, format="json")
        history = client_for(alice.user).get(f"/api/matches/{match.pk}/history/").json()["results"]
        assert [change["kind"] for change in history] == ["submission", "dispute", "settlement"]
        submission, dispute, settlement = history
        assert submission["made_by"] == "alice" and submission["source"]["log"] is not None
        assert submission["before"]["status"] == "open"
        assert submission["after"] == {
            "status": "awaiting_confirmation",
            "winner": None,
            "decided_by": None,
            "claimed_winner": "alice",
        }
        assert (dispute["made_by"], dispute["reason"]) == ("ben", "I won that one")
        assert (settlement["made_by"], settlement["reason"]) == ("orga", "Video")
        assert settlement["after"]["winner"] == "ben" and settlement["after"]["decided_by"] == "organiser"
        assert ResultChange.objects.filter(match=match).count() == 3


def test_reports_from_one_side_wait_for_the_other(client_for, alice, ben):
    one, two = make_players(2)
    game = make_match(one, two).games.get()
    response = client_for(one.user).post(f"/api/games/{game.pk}/report/", {"winner": one.handle}, format="json")
    assert response.json()["status"] == "awaiting_confirmation"
    assert client_for(two.user).post(f"/api/games/{game.pk}/confirm/").json()["decided_by"] == "players"


class TestAnnulled:
    def test_an_annulled_match_takes_no_more_results(self, client_for, organiser, alice, ben, capture):
        match = make_match(alice, ben, best_of=3)
        game = match.games.get()
        match_annul(match_id=match.pk, correction_id=1, made_by=organiser, reason="set aside")
        log = post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"]), capture)
        assert log.status_code == 409 and "annulled" in log.json()["message"]
        report = client_for(alice.user).post(f"/api/games/{game.pk}/report/", {"winner": "alice"}, format="json")
        assert report.status_code == 409
        settle = client_for(organiser).post(f"/api/games/{game.pk}/result/", {"winner": "alice"}, format="json")
        assert settle.status_code == 409
        assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
