"""Verification, re-verification and the management commands, against the real engine and PostgreSQL."""

from __future__ import annotations

import threading
import time
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, connections, transaction

from matches.models import Game, Match, Player, ResultChange
from matches.selectors import user_is_organiser
from matches.services import game_lock
from replays.models import LogVerdict, MatchLog, ReplaySteps
from replays.selectors import logs_for_reverification
from replays.services import log_steps_build, log_submit, log_submit_practice, log_verify
from speedrules import ENGINE_VERSION
from tests.factories import body, make_match, make_user, tampered, won_log

User = get_user_model()


def submit(game: Game, document: dict, user=None) -> MatchLog:
    """Store a log for verification; by default an organiser's, whose verified log decides at once
    (a player's own log waits for the opponent: tests/replays/test_confirmation.py)."""
    user = user or User.objects.filter(username="referee").first() or make_user("referee", organiser=True)
    log, created = log_submit(game_id=game.pk, data=body(document), user=user, enqueue=False)
    assert created
    return log


@pytest.mark.django_db
class TestVerify:
    def test_verifying_twice_judges_once(self, alice, ben):
        game = make_match(alice, ben).games.get()
        log = submit(game, won_log("speed", ["alice", "ben"], winner_seat=1))
        log_verify(log_id=log.pk)
        log_verify(log_id=log.pk)
        log.refresh_from_db()
        assert (log.status, log.code, log.winner, log.judgements) == ("verified", "ok", ben, 1)
        assert Game.objects.filter(match=game.match).count() == 2

    def test_force_judges_again_and_leaves_an_audit_row(self, alice, ben):
        game = make_match(alice, ben).games.get()
        log = submit(game, won_log("speed", ["alice", "ben"]))
        log_verify(log_id=log.pk)
        log_verify(log_id=log.pk, force=True)
        log.refresh_from_db()
        assert log.judgements == 2
        [audit] = LogVerdict.objects.filter(log=log)
        assert (audit.status, audit.code, audit.engine_version) == ("verified", "ok", ENGINE_VERSION)
        assert Game.objects.filter(match=game.match).count() == 2  # the game was not decided twice

    def test_a_missing_log_is_nothing_to_do(self):
        assert log_verify(log_id=10**9) is None

    def test_a_verified_log_for_a_game_settled_otherwise_changes_nothing(self, organiser, alice, ben):
        from matches.services import game_set_result

        game = make_match(alice, ben).games.get()
        log = submit(game, won_log("speed", ["alice", "ben"], winner_seat=1))
        game_set_result(game_id=game.pk, user=organiser, winner="alice")
        log_verify(log_id=log.pk)
        game.refresh_from_db()
        assert (game.status, game.winner, game.decided_by) == ("decided", alice, "organiser")

    def test_a_pending_sibling_holds_the_decision(self, alice, ben):
        game = make_match(alice, ben).games.get()
        first = submit(game, won_log("speed", ["alice", "ben"], winner_seat=0))
        second = submit(game, won_log("speed", ["alice", "ben"], winner_seat=0, start=300))
        log_verify(log_id=first.pk)
        game.refresh_from_db()
        assert game.status == Game.Status.OPEN  # the second log may disagree
        log_verify(log_id=second.pk)
        game.refresh_from_db()
        assert (game.status, game.winner) == (Game.Status.DECIDED, alice)

    def test_a_rejected_sibling_does_not_count(self, alice, ben):
        game = make_match(alice, ben).games.get()
        bad = submit(game, tampered(won_log("speed", ["alice", "ben"], winner_seat=1)))
        good = submit(game, won_log("speed", ["alice", "ben"], winner_seat=0, start=300))
        log_verify(log_id=good.pk)
        log_verify(log_id=bad.pk)
        game.refresh_from_db()
        assert (game.status, game.winner) == (Game.Status.DECIDED, alice)


@pytest.mark.django_db(transaction=True)
def test_a_verification_waiting_for_the_match_lock_sees_what_its_holder_committed(alice, ben):
    """A submission holds the match; a verification of another log of that game waits for it
    and must then see the new pending log, so it does not decide the game alone."""
    game = make_match(alice, ben, best_of=3).games.get()
    first = submit(game, won_log("speed", ["alice", "ben"], winner_seat=0))
    errors: list[BaseException] = []

    def verify_first() -> None:
        try:
            log_verify(log_id=first.pk)
        except BaseException as exc:  # reported to the main thread
            errors.append(exc)
        finally:
            connections.close_all()

    with transaction.atomic():
        game_lock(game_id=game.pk)
        waiter = threading.Thread(target=verify_first)
        waiter.start()
        deadline = time.monotonic() + 10
        while not _someone_waits_for_a_lock():
            assert time.monotonic() < deadline, f"the verification never waited for the match lock: {errors}"
            time.sleep(0.02)
        second = submit(game, won_log("speed", ["alice", "ben"], winner_seat=1))
    waiter.join(timeout=30)
    assert not errors, errors
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    log_verify(log_id=second.pk)
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.DISPUTED, None)
    assert Game.objects.filter(match=game.match).count() == 1


def _someone_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # inside a transaction the view is a snapshot
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.django_db(transaction=True)  # the command enqueues after commit, as in production
class TestReverify:
    def run(self, *args: str) -> str:
        out = StringIO()
        call_command("reverify", *args, stdout=out)
        return out.getvalue()

    def judged_by_an_old_engine(self, log: MatchLog, **verdict: object) -> None:
        MatchLog.objects.filter(pk=log.pk).update(engine_version="0.0.1", **verdict)

    def test_an_upgrade_re_judges_old_verdicts_and_counts_the_changes(self, alice, ben):
        game = make_match(alice, ben).games.get()
        log = submit(game, won_log("speed", ["alice", "ben"], winner_seat=0))
        other = submit(make_match(alice, ben).games.get(), won_log("speed", ["alice", "ben"], start=300))
        log_verify(log_id=log.pk)
        log_verify(log_id=other.pk)
        # An older engine had wrongly rejected the first log; the game stayed open.
        self.judged_by_an_old_engine(log, status="rejected", code="no_fit", event=3, winner=None, winner_seat=None)
        Game.objects.filter(pk=game.pk).update(status="open", winner=None, decided_by="", decided_at=None)
        Game.objects.filter(match=game.match, number=2).delete()
        self.judged_by_an_old_engine(other)

        out = self.run("--all")
        assert "Re-verifying 2 logs" in out
        assert "2/2 judged" in out
        assert "1 verdicts changed" in out
        assert f"log {log.pk}: rejected no_fit @3 -> verified ok @None" in out
        log.refresh_from_db()
        assert (log.status, log.engine_version) == ("verified", ENGINE_VERSION)
        game.refresh_from_db()
        assert (game.status, game.winner) == (Game.Status.DECIDED, alice)

    def test_nothing_to_do_when_everything_is_judged_by_this_version(self, alice, ben):
        log = submit(make_match(alice, ben).games.get(), won_log("speed", ["alice", "ben"]))
        log_verify(log_id=log.pk)
        assert "No logs to re-verify" in self.run("--all")
        assert "0 verdicts changed" in self.run("--all", "--force")

    def test_code_and_since_select_logs(self, alice, ben):
        bad = submit(make_match(alice, ben).games.get(), tampered(won_log("speed", ["alice", "ben"])))
        good = submit(make_match(alice, ben).games.get(), won_log("speed", ["alice", "ben"], start=300))
        log_verify(log_id=bad.pk)
        log_verify(log_id=good.pk)
        assert "Re-verifying 1 logs" in self.run("--code", "result_mismatch", "--force")
        assert "Re-verifying 2 logs" in self.run("--since", "2000-01-01", "--force")
        assert "No logs" in self.run("--since", "2999-01-01", "--force")

    def test_pending_logs_are_sent_again(self, alice, ben):
        log = submit(make_match(alice, ben).games.get(), won_log("speed", ["alice", "ben"]))
        out = self.run("--pending")
        assert "1 of 1 logs re-verified; 1 verdicts changed" in out
        log.refresh_from_db()
        assert log.status == "verified"

    def test_a_changed_winner_disputes_the_game_instead_of_overwriting_it(self, alice, ben):
        match = make_match(alice, ben, best_of=3)
        game = match.games.get()
        log = submit(game, won_log("speed", ["alice", "ben"], winner_seat=0))
        log_verify(log_id=log.pk)
        # An older engine had read the winner as ben, and the game was decided for him.
        self.judged_by_an_old_engine(log, winner=ben, winner_seat=1)
        Game.objects.filter(pk=game.pk).update(winner=ben)
        self.run("--all")
        game.refresh_from_db()
        assert (game.status, game.winner) == (Game.Status.DISPUTED, ben)  # kept, flagged for an organiser

    def test_bad_arguments_are_errors(self):
        with pytest.raises(CommandError, match="Say which logs"):
            self.run()
        with pytest.raises(CommandError, match="not a date"):
            self.run("--since", "yesterday")


@pytest.mark.django_db
class TestSteps:
    def test_steps_are_cached_per_engine_version(self, alice, ben):
        document = won_log("speed", ["alice", "ben"])
        log = submit(make_match(alice, ben).games.get(), document)
        first = log_steps_build(log_id=log.pk)
        assert len(first.steps) == len(document["events"]) + 1
        ReplaySteps.objects.filter(pk=first.pk).update(engine_version="0.0.1", steps=[])
        again = log_steps_build(log_id=log.pk)
        assert again.engine_version == ENGINE_VERSION
        assert again.steps == first.steps
        assert ReplaySteps.objects.count() == 1


@pytest.mark.django_db
def test_seed_demo_is_idempotent():
    call_command("seed_demo", stdout=StringIO())
    counts = (Player.objects.count(), Match.objects.count(), Game.objects.count(), MatchLog.objects.count())
    call_command("seed_demo", stdout=StringIO())
    assert (Player.objects.count(), Match.objects.count(), Game.objects.count(), MatchLog.objects.count()) == counts
    admin = get_user_model().objects.get(username="admin")
    assert admin.check_password("speed-organiser")
    assert admin.is_superuser
    assert user_is_organiser(user=admin)
    assert counts[0] >= 4
    assert counts[1] >= 5
    assert not MatchLog.objects.filter(status=MatchLog.Status.PENDING).exists()
    assert MatchLog.objects.filter(status=MatchLog.Status.REJECTED).exists()
    assert MatchLog.objects.filter(status=MatchLog.Status.VERIFIED).count() >= 5
    assert len(set(Match.objects.values_list("ruleset_name", flat=True))) >= 4
    assert Match.objects.filter(status=Match.Status.FINISHED).exists()
    assert Match.objects.filter(status=Match.Status.IN_PROGRESS).exists()


@pytest.mark.django_db
def test_seed_demo_runs_tournaments_through_the_services():
    """The site's first page needs a finished bracket, finished standings and an event in progress."""
    from tournaments.models import CorrectionRecord, Tournament, TournamentMatch

    call_command("seed_demo", stdout=StringIO())
    statuses = dict(Tournament.objects.values_list("format", "status"))
    assert statuses == {
        Tournament.Format.SINGLE_ELIMINATION: Tournament.Status.FINISHED,
        Tournament.Format.SWISS: Tournament.Status.FINISHED,
        Tournament.Format.DOUBLE_ELIMINATION: Tournament.Status.RUNNING,
    }
    decided = TournamentMatch.objects.filter(status=TournamentMatch.Status.DECIDED, match__isnull=False)
    # Every decided pairing was decided by verified logs (or a player's verified log that
    # stood unconfirmed, or the one recorded correction), never set by hand.
    corrected = set(CorrectionRecord.objects.values_list("tournament_id", "key"))
    assert len(corrected) == 1
    for pairing in decided.select_related("match"):
        provenance = set(pairing.match.games.filter(status=Game.Status.DECIDED).values_list("decided_by", flat=True))
        if (pairing.tournament_id, pairing.key) in corrected:
            assert provenance == {Game.DecidedBy.CORRECTION}, pairing.key
        else:
            assert provenance <= {Game.DecidedBy.LOG, Game.DecidedBy.LAPSE}, pairing.key
            assert pairing.match.games.filter(logs__status=MatchLog.Status.VERIFIED).exists(), pairing.key
    # What the demo shows of results that need the other side, and of corrections.
    assert Game.objects.filter(status=Game.Status.AWAITING_CONFIRMATION).exists()
    assert Game.objects.filter(status=Game.Status.DISPUTED).exists()
    assert Game.objects.filter(decided_by=Game.DecidedBy.LAPSE).exists()
    assert Match.objects.filter(status=Match.Status.ANNULLED).exists()
    # And every derived number follows from its sources.
    out = StringIO()
    call_command("audit_records", stdout=out)
    assert "No differences" in out.getvalue()


def test_a_reverified_log_that_disagrees_after_the_match_ended_is_flagged_not_rewritten(alice, ben):
    """The match is over: its result stands until an organiser corrects it, and the history says why."""
    match = make_match(alice, ben, best_of=1)
    game = match.games.get()
    log = submit(game, won_log("speed", ["alice", "ben"], winner_seat=0))
    log_verify(log_id=log.pk)
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, alice)
    # An older engine had judged it for ben; the re-verification reads alice.
    MatchLog.objects.filter(pk=log.pk).update(engine_version="0.9", winner=ben, winner_seat=1)
    Game.objects.filter(pk=game.pk).update(winner=ben)
    Match.objects.filter(pk=match.pk).update(winner=ben)
    log_verify(log_id=log.pk)
    game.refresh_from_db()
    match.refresh_from_db()
    assert (game.status, game.winner, match.status, match.winner) == ("decided", ben, "finished", ben)
    flagged = ResultChange.objects.filter(match=match, kind="dispute").get()
    assert "organiser must correct" in flagged.reason


@pytest.mark.django_db
class TestPracticeLogs:
    """A practice table's log: no game, provenance "practice", verified as every log is, deciding nothing."""

    def test_a_practice_log_is_stored_pending_then_judged_and_rejudged_like_any(self, capture):
        document = won_log("speed", ["pat", "bot-easy-1"], winner_seat=1)
        with capture() as enqueued:
            log = log_submit_practice(data=body(document))
        assert len(enqueued) == 1  # sent to the workers when the table's transaction commits
        assert (log.game_id, log.provenance, log.status) == (None, "practice", "pending")
        assert bytes(MatchLog.objects.get(pk=log.pk).data) == body(document)
        assert [pending.pk for pending in logs_for_reverification(pending=True)] == [log.pk]

        judged = log_verify(log_id=log.pk)
        assert judged is not None
        assert (judged.status, judged.code, judged.winner_seat, judged.winner_id) == ("verified", "ok", 1, None)
        assert not ResultChange.objects.exists() and not Game.objects.exists()  # nothing to decide, nobody rated
        assert log_verify(log_id=log.pk, force=True).judgements == 2
        assert LogVerdict.objects.filter(log=log).count() == 1

    def test_a_tampered_practice_log_is_rejected(self):
        log = log_submit_practice(data=body(tampered(won_log("speed", ["pat", "bot-easy-1"]))))
        judged = log_verify(log_id=log.pk)
        assert judged is not None and judged.status == "rejected" and judged.code != "ok"

    def test_only_a_practice_log_goes_without_a_game(self, alice, ben):
        game = make_match(alice, ben).games.get()
        data = body(won_log("speed", ["alice", "ben"]))
        for game_of, provenance in ((None, "table"), (game, "practice")):
            with pytest.raises(IntegrityError), transaction.atomic():
                MatchLog.objects.create(game=game_of, data=data, size=len(data), sha256="0" * 64, provenance=provenance)
