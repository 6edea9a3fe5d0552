"""Challenges through their services: the match only an accept makes, every refusal, expiry, the emails, a race."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.db import connection, transaction
from django.utils import timezone

from core.errors import ApplicationError, Conflict, Invalid, NotAllowed, NotFound
from matches.models import Challenge, Match, OutboxEmail, Player
from matches.selectors import challenge_status
from matches.services import (
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenge_withdraw,
    challenges_expire,
    game_report_result,
    user_email_set,
)
from matches.services.notifications import Kind, notification_preferences_set
from matches.services.outbox import TURNED_OFF, outbox_sweep
from speedrules import PRESETS
from speedsite.celery import app as celery_app
from tests.factories import make_player, make_user
from tests.locks import wait_for_a_lock_waiter

pytestmark = pytest.mark.django_db


def challenge(by: Player, to: Player | str, **settings: Any) -> Challenge:
    return challenge_create(
        user=by.user, challenged=to if isinstance(to, str) else to.handle, **(settings or {"best_of": 3})
    )


def past(row: Challenge) -> None:
    """As the challenge is once its day is up."""
    Challenge.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))


def outbox(kind: Kind) -> list[int | None]:
    return list(OutboxEmail.objects.filter(kind=kind.value).order_by("id").values_list("user_id", flat=True))


def _state() -> tuple[object, ...]:
    return (
        sorted(Challenge.objects.values_list("pk", "status", "match_id")),
        Match.objects.count(),
        OutboxEmail.objects.count(),
    )


@contextmanager
def refused(error: type[Exception], words: str) -> Iterator[None]:
    """The block raises `error` saying `words`, and changed nothing: no challenge, match or email more, no status."""
    before = _state()
    with pytest.raises(error, match=words):
        yield
    assert _state() == before


class TestCreate:
    def test_a_challenge_waits_a_day_with_the_settings_a_match_stores_and_tells_the_challenged(self, alice, ben):
        made = challenge(alice, ben, ruleset="doubles", first_to=2, time_limit_ms=90_000)
        assert (made.challenger, made.challenged, made.status) == (alice, ben, Challenge.Status.OPEN)
        assert made.ruleset == PRESETS["doubles"].to_json() and made.ruleset_name == "doubles"
        assert (made.series, made.series_length, made.time_limit_ms) == ("first_to", 2, 90_000)
        assert timedelta(hours=23, minutes=59) < made.expires_at - timezone.now() <= timedelta(days=1)
        assert made.match is None and not Match.objects.exists()  # nobody plays (or reports) before the yes
        [email] = OutboxEmail.objects.all()
        assert (email.kind, email.user_id) == (Kind.CHALLENGE_RECEIVED.value, ben.user_id)
        assert "alice challenges you to a match: first to 2 of doubles, timed (90 s a game)" in email.body
        assert "/me/" in email.body

    @pytest.mark.parametrize(
        "case",
        [
            ("alice", {"best_of": 3}, Invalid, "cannot challenge yourself"),
            ("nobody", {"best_of": 3}, Invalid, "No player with handle 'nobody'"),
            ("ben", {"best_of": 3, "ruleset": "three-way"}, Invalid, "seats 3 players, but 2 play here"),
            ("ben", {"best_of": 4}, Invalid, "best_of must be odd"),
            ("ben", {"best_of": 3, "first_to": 2}, Invalid, "exactly one of best_of"),
            ("ben", {"best_of": 1, "ruleset": "spit", "time_limit_ms": 60_000}, Invalid, "Spit"),
        ],
    )
    def test_refused_with_a_clear_error_and_nothing_changed(self, alice, ben, case):
        to, settings, error, words = case
        with refused(error, words):
            challenge(alice, to, **settings)

    def test_a_player_with_no_account_cannot_be_challenged(self, alice) -> None:
        offline = make_player("offline")
        Player.objects.filter(pk=offline.pk).update(user=None)  # as when their account is deleted
        with refused(Invalid, "no account to answer a challenge with"):
            challenge(alice, "offline")

    def test_only_players_challenge(self, ben) -> None:
        with refused(NotAllowed, "Only players challenge"):
            challenge_create(user=make_user(), challenged="ben", best_of=1)

    def test_twice_is_refused_either_way_round_while_the_first_is_open(self, alice, ben) -> None:
        first = challenge(alice, ben)
        with refused(Conflict, f"You already challenged ben \\(challenge {first.pk}"):
            challenge(alice, ben, best_of=5)
        with refused(Conflict, f"alice has already challenged you \\(challenge {first.pk}\\): accept or decline"):
            challenge(ben, alice)
        assert list(Challenge.objects.values_list("pk", flat=True)) == [first.pk]
        assert outbox(Kind.CHALLENGE_RECEIVED) == [ben.user_id]
        # Once answered (or withdrawn), another may follow.
        challenge_withdraw(challenge_id=first.pk, user=alice.user)
        assert challenge(ben, alice).challenger == ben

    def test_an_expired_one_is_no_obstacle_to_a_new_one(self, alice, ben) -> None:
        first = challenge(alice, ben)
        past(first)
        second = challenge(alice, ben)
        first.refresh_from_db()
        assert first.status == Challenge.Status.EXPIRED and second.status == Challenge.Status.OPEN


class TestAnswers:
    def test_accept_makes_the_match_as_challenged_and_tells_the_challenger(self, alice, ben) -> None:
        made = challenge(alice, ben, ruleset="speed", best_of=5, time_limit_ms=120_000)
        accepted = challenge_accept(challenge_id=made.pk, user=ben.user)
        assert accepted.status == Challenge.Status.ACCEPTED and accepted.answered_at is not None
        match = Match.objects.get()
        assert accepted.match == match
        assert [p.handle for p in match.players] == ["alice", "ben"]
        assert (match.series, match.series_length, match.ruleset_name, match.time_limit_ms) == (
            "best_of",
            5,
            "speed",
            120_000,
        )
        assert match.created_by == ben.user and match.games.get().number == 1
        assert outbox(Kind.CHALLENGE_ANSWERED) == [alice.user_id]
        told = OutboxEmail.objects.get(kind=Kind.CHALLENGE_ANSWERED.value)
        assert told.subject == "Speed: ben accepted your challenge" and f"/matches/{match.pk}/" in told.body
        # The match is theirs to report now.
        game_report_result(game_id=match.games.get().pk, user=alice.user, winner="alice")

    def test_decline_makes_no_match_and_tells_the_challenger(self, alice, ben) -> None:
        made = challenge(alice, ben)
        assert challenge_decline(challenge_id=made.pk, user=ben.user).status == Challenge.Status.DECLINED
        assert not Match.objects.exists()
        assert outbox(Kind.CHALLENGE_ANSWERED) == [alice.user_id]
        assert OutboxEmail.objects.get(kind=Kind.CHALLENGE_ANSWERED.value).subject.endswith(
            "ben declined your challenge"
        )

    def test_withdraw_makes_no_match_and_tells_nobody_more(self, alice, ben) -> None:
        made = challenge(alice, ben)
        assert challenge_withdraw(challenge_id=made.pk, user=alice.user).status == Challenge.Status.WITHDRAWN
        assert not Match.objects.exists() and outbox(Kind.CHALLENGE_ANSWERED) == []

    @pytest.mark.parametrize(
        "case",
        [
            (challenge_accept, "carol", "Only ben, who was challenged, can accept"),
            (challenge_accept, "alice", "Only ben, who was challenged, can accept"),
            (challenge_decline, "carol", "Only ben, who was challenged, can decline"),
            (challenge_decline, "alice", "Only ben, who was challenged, can decline"),
            (challenge_withdraw, "ben", "Only alice, who made this challenge, can withdraw"),
            (challenge_withdraw, "carol", "Only alice, who made this challenge, can withdraw"),
        ],
    )
    def test_only_the_right_player_answers(self, alice, ben, carol, case) -> None:
        answer, who, words = case
        made = challenge(alice, ben)
        with refused(NotAllowed, words):
            answer(challenge_id=made.pk, user={"alice": alice, "ben": ben, "carol": carol}[who].user)
        with refused(NotAllowed, "Only"):
            answer(challenge_id=made.pk, user=make_user(organiser=True))  # organisers make matches instead

    @pytest.mark.parametrize("first", ["accept", "decline", "withdraw", "expire"])
    def test_an_answered_or_expired_challenge_takes_no_other_answer(self, alice, ben, first) -> None:
        made = challenge(alice, ben)
        if first == "accept":
            challenge_accept(challenge_id=made.pk, user=ben.user)
        elif first == "decline":
            challenge_decline(challenge_id=made.pk, user=ben.user)
        elif first == "withdraw":
            challenge_withdraw(challenge_id=made.pk, user=alice.user)
        else:
            past(made)
        words = "expired at .*, so it cannot be" if first == "expire" else "is already"
        for answer, user in (
            (challenge_accept, ben.user),
            (challenge_decline, ben.user),
            (challenge_withdraw, alice.user),
        ):
            with refused(Conflict, words):
                answer(challenge_id=made.pk, user=user)

    def test_a_missing_challenge_is_not_found(self, ben) -> None:
        with pytest.raises(NotFound, match="no challenge 999999"):
            challenge_accept(challenge_id=999_999, user=ben.user)


class TestExpiry:
    def test_past_its_time_it_reads_expired_and_the_sweep_writes_it_down(self, alice, ben, carol) -> None:
        old, fresh = challenge(alice, ben), challenge(carol, ben)
        past(old)
        old.refresh_from_db()
        assert old.status == Challenge.Status.OPEN  # as stored: nothing swept yet
        assert challenge_status(old, now=timezone.now()) == Challenge.Status.EXPIRED
        assert challenge_status(fresh, now=timezone.now()) == Challenge.Status.OPEN
        assert challenges_expire() == 1
        assert dict(Challenge.objects.values_list("pk", "status")) == {
            old.pk: Challenge.Status.EXPIRED,
            fresh.pk: Challenge.Status.OPEN,
        }
        assert challenges_expire() == 0

    def test_the_beat_runs_the_sweep(self) -> None:
        celery_app.autodiscover_tasks(force=True)  # as a worker or beat does at start
        tasks = {entry["task"] for entry in django_settings.CELERY_BEAT_SCHEDULE.values()}
        assert "matches.challenges_expire" in tasks and "matches.challenges_expire" in celery_app.tasks


class TestEmails:
    def test_an_email_whose_task_was_lost_with_the_broker_is_sent_by_the_sweep(self, alice, ben) -> None:
        for player in (alice, ben):
            user_email_set(user=player.user, email=f"{player.handle}@example.org")
        # The commit's callback never runs here (no capture): as when the broker was down at the commit.
        made = challenge(alice, ben)
        assert mail.outbox == []
        assert OutboxEmail.objects.get().sent_at is None
        challenge_accept(challenge_id=made.pk, user=ben.user)
        sent = outbox_sweep(older_than=timedelta(0))
        assert sent.sent == 2
        assert sorted((m.to[0], m.subject) for m in mail.outbox) == [
            ("alice@example.org", "Speed: ben accepted your challenge"),
            ("ben@example.org", "Speed: alice challenges you to a match"),
        ]
        assert outbox_sweep(older_than=timedelta(0)).sent == 0

    def test_each_kind_can_be_turned_off(self, alice, ben) -> None:
        for player in (alice, ben):
            user_email_set(user=player.user, email=f"{player.handle}@example.org")
        notification_preferences_set(user=ben.user, kinds=[k.value for k in Kind if k != Kind.CHALLENGE_RECEIVED])
        notification_preferences_set(user=alice.user, kinds=[k.value for k in Kind if k != Kind.CHALLENGE_ANSWERED])
        made = challenge(alice, ben)
        challenge_decline(challenge_id=made.pk, user=ben.user)
        result = outbox_sweep(older_than=timedelta(0))
        assert (result.sent, result.skipped) == (0, 2) and mail.outbox == []
        assert set(OutboxEmail.objects.values_list("skipped", flat=True)) == {TURNED_OFF}


@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_make_one_match() -> None:
    """Two accepts race (two threads, two connections): the row lock lets one make the match; the other is told."""
    alice, ben = make_player("alice"), make_player("ben")
    made = challenge(alice, ben)
    outcomes: list[object] = []

    def accept() -> None:
        try:
            outcomes.append(challenge_accept(challenge_id=made.pk, user=ben.user).status)
        except ApplicationError as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept) for _ in range(2)]
    with transaction.atomic():
        # Hold the row until both accepts wait behind it: then they truly meet at the lock.
        Challenge.objects.select_for_update().get(pk=made.pk)
        for thread in threads:
            thread.start()
        wait_for_a_lock_waiter(count=2)
    for thread in threads:
        thread.join(timeout=30)
    assert len(outcomes) == 2
    assert Challenge.Status.ACCEPTED in outcomes
    [refused] = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert isinstance(refused, Conflict) and "already accepted" in refused.message
    assert Match.objects.count() == 1
    assert Challenge.objects.get(pk=made.pk).match == Match.objects.get()
