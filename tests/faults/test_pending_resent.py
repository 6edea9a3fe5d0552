"""Logs left pending are sent again by a periodic task: after the broker was down, or a worker lost them.

The log is submitted while the broker is unreachable (its 202 comes back, the
task never leaves); once the broker is back, the beat's task re-sends it and
a real worker verifies it, with nobody running `reverify --pending`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from benchmarks.workers import WorkerProcess
from replays.models import MatchLog, SolitaireRun
from replays.services import pending_resend
from speedsite.celery import app as celery_app
from tests.factories import body, make_match, won_log
from tests.replays.test_pipeline import wait_until_judged, worker_env

pytestmark = [pytest.mark.pipeline, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def broker_down() -> Iterator[None]:
    """Tasks go to an address nothing listens on, until the fixture ends."""
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"
    celery_app._after_fork()  # drop the pooled broker connections (Celery's own reset)
    try:
        yield
    finally:
        celery_app.conf.broker_url = settings.CELERY_BROKER_URL
        celery_app.conf.task_always_eager = True
        celery_app._after_fork()


def _submit_while_down(client_for, player, game_id: int, document: bytes) -> int:
    response = client_for(player.user).post(
        f"/api/games/{game_id}/logs/", data=document, content_type="application/json"
    )
    assert response.status_code == 202
    return int(response.json()["id"])


def test_the_beat_entry_names_the_resend_task():
    celery_app.autodiscover_tasks(force=True)  # as a worker or beat does at start
    entries = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "replays.logs_resend_pending" in entries
    assert "replays.logs_resend_pending" in celery_app.tasks
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > settings.SPEED_RESEND_PENDING_AFTER_SECONDS


def test_a_log_submitted_while_the_broker_was_down_is_verified_by_the_periodic_task(
    client_for,
    alice,
    ben,
    broker,
    tmp_path,
):
    game = make_match(alice, ben).games.get()
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"
    celery_app._after_fork()
    try:
        log_id = _submit_while_down(client_for, alice, game.pk, body(won_log("speed", ["alice", "ben"])))
    finally:
        celery_app.conf.broker_url = settings.CELERY_BROKER_URL
        celery_app._after_fork()
    assert MatchLog.objects.get(pk=log_id).status == MatchLog.Status.PENDING
    # Older than the threshold, as it would be a few minutes later.
    MatchLog.objects.filter(pk=log_id).update(
        submitted_at=timezone.now() - timedelta(seconds=settings.SPEED_RESEND_PENDING_AFTER_SECONDS + 1)
    )
    worker = WorkerProcess(env=worker_env(), concurrency=1, log_path=tmp_path / "worker.log").wait_ready()
    try:
        celery_app.send_task("replays.logs_resend_pending")  # what beat sends on its schedule
        [log] = wait_until_judged([log_id], timeout=60)
    finally:
        worker.stop()
    assert (log.status, log.code, log.judgements) == (MatchLog.Status.VERIFIED, "ok", 1)


def test_only_logs_pending_longer_than_the_threshold_are_sent_and_twice_is_harmless(
    client_for, alice, ben, broker_down
):
    old_game, new_game = make_match(alice, ben).games.get(), make_match(alice, ben).games.get()
    old = _submit_while_down(client_for, alice, old_game.pk, body(won_log("speed", ["alice", "ben"])))
    new = _submit_while_down(client_for, alice, new_game.pk, body(won_log("speed", ["alice", "ben"], start=1)))
    MatchLog.objects.filter(pk=old).update(submitted_at=timezone.now() - timedelta(minutes=5))
    celery_app.conf.task_always_eager = True  # the broker is back; verify in-process
    resent = pending_resend(older_than=timedelta(minutes=2))
    assert (resent.logs, resent.runs) == (1, 0)
    assert MatchLog.objects.get(pk=old).status == MatchLog.Status.VERIFIED
    assert MatchLog.objects.get(pk=new).status == MatchLog.Status.PENDING  # may still be on its way
    # A duplicate (the first message arrives after all) judges nothing again.
    MatchLog.objects.filter(pk=new).update(submitted_at=timezone.now() - timedelta(minutes=5))
    assert pending_resend(older_than=timedelta(minutes=2)).logs == 1
    assert pending_resend(older_than=timedelta(minutes=2)).logs == 0
    from replays.services import log_verify

    log_verify(log_id=old)
    assert MatchLog.objects.get(pk=old).judgements == 1
    assert not SolitaireRun.objects.exists()


def test_a_log_lost_with_a_killed_worker_is_sent_again_before_the_visibility_timeout(
    client_for,
    organiser,
    alice,
    ben,
    broker,
    *,
    tmp_path,
):
    """A worker SIGKILLed mid-task: Redis would hand its message back after 600 s; the beat's task does not wait."""
    from tests.replays.test_pipeline import game_row_locked, post_log, wait_for_a_backend_waiting_on_a_lock

    env = worker_env(CELERY_VISIBILITY_TIMEOUT="600")  # the production default
    game = make_match(alice, ben).games.get()
    response = post_log(client_for(organiser), game.pk, body(won_log("speed", ["alice", "ben"], winner_seat=0)))
    assert response.status_code == 202
    log_id = response.json()["id"]
    with game_row_locked(game.pk) as held:
        doomed = WorkerProcess(env=env, pool="solo", log_path=tmp_path / "doomed.log").wait_ready()
        try:
            wait_for_a_backend_waiting_on_a_lock(held, doomed)
        finally:
            doomed.kill()
    assert MatchLog.objects.get(pk=log_id).status == MatchLog.Status.PENDING
    MatchLog.objects.filter(pk=log_id).update(
        submitted_at=timezone.now() - timedelta(seconds=settings.SPEED_RESEND_PENDING_AFTER_SECONDS + 1)
    )
    fresh = WorkerProcess(env=env, concurrency=1, log_path=tmp_path / "fresh.log").wait_ready()
    try:
        celery_app.send_task("replays.logs_resend_pending")
        [log] = wait_until_judged([log_id], timeout=60)
    finally:
        fresh.stop()
    assert (log.status, log.code, log.judgements) == (MatchLog.Status.VERIFIED, "ok", 1)
