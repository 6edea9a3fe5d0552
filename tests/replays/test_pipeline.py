"""The pipeline for real: PostgreSQL, Redis, and `celery -A speedsite worker` processes.

Each test commits its data (transactional_db) so the worker, another process
with its own database connection, sees it; tasks go through Redis database 13
(SPEED_TEST_BROKER_URL) instead of running in-process.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.db import transaction

from benchmarks.workers import WorkerProcess, current_database_url
from matches.models import Game, Match
from replays.models import LogVerdict, MatchLog
from replays.services import log_submit_practice
from speedsite.celery import app as celery_app
from tests.factories import body, deadlock_log, make_match, tampered, won_log

pytestmark = [pytest.mark.pipeline, pytest.mark.django_db(transaction=True)]


def worker_env(**extra: str) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "speedsite.settings",
        "DATABASE_URL": current_database_url(),  # the test database
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        # A killed worker's message comes back after 3 s, checked every second.
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "CELERY_UNACKED_RESTORE_INTERVAL": "1",
        "CELERY_UNACKED_RESTORE_THROTTLE": "1",
        **extra,
    }


@pytest.fixture
def broker() -> Iterator[None]:
    """Send tasks to Redis (a clean database of their own) instead of running them in-process."""
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    celery_app.conf.task_always_eager = False
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = True


@pytest.fixture
def worker(broker: None, transactional_db: None, tmp_path) -> Iterator[WorkerProcess]:
    process = WorkerProcess(env=worker_env(), concurrency=2, log_path=tmp_path / "worker.log").wait_ready()
    yield process
    process.stop()


def wait_until_judged(log_ids: list[int], timeout: float = 60) -> list[MatchLog]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        logs = list(MatchLog.objects.filter(pk__in=log_ids).order_by("pk"))
        if len(logs) == len(log_ids) and all(log.status != MatchLog.Status.PENDING for log in logs):
            return logs
        time.sleep(0.1)
    pending = MatchLog.objects.filter(pk__in=log_ids, status=MatchLog.Status.PENDING).count()
    raise AssertionError(f"{pending} of {len(log_ids)} logs still pending after {timeout}s")


def post_log(client, game_id: int, data: bytes) -> Any:
    return client.post(f"/api/games/{game_id}/logs/", data=data, content_type="application/json")


def test_logs_of_several_rulesets_reach_their_verdicts_in_a_worker(worker, client_for, organiser, alice, ben):
    client = client_for(organiser)
    cases: list[tuple[str, bytes, str, str, int | None]] = []
    for i, ruleset in enumerate(["speed", "doubles", "jokers-wild", "california", "runs-at-once"]):
        document = won_log(ruleset, ["alice", "ben"], start=10 * i)
        cases.append((ruleset, body(document), "verified", "ok", None))
        cases.append((ruleset, body(tampered(document)), "rejected", "result_mismatch", None))
        broken = won_log(ruleset, ["alice", "ben"], start=10 * i + 200)
        broken["events"][3]["t"] = broken["events"][2]["t"] - 1
        cases.append((ruleset, body(broken), "rejected", "time_reversed", 3))
    cases.append(("speed", body(deadlock_log(["alice", "ben"])), "verified", "ok", None))

    submitted = []
    for ruleset, data, status, code, event in cases:
        match = make_match(alice, ben, ruleset=ruleset, best_of=1)
        response = post_log(client, match.games.get().pk, data)
        assert response.status_code == 202, response.json()
        assert response.json()["status"] == "pending"
        submitted.append((response.json()["id"], status, code, event))

    logs = {log.pk: log for log in wait_until_judged([log_id for log_id, *_ in submitted])}
    for log_id, status, code, event in submitted:
        log = logs[log_id]
        assert (log.status, log.code, log.event) == (status, code, event), log.message
        api = client.get(f"/api/logs/{log_id}/").json()
        assert (api["status"], api["code"], api["event"]) == (status, code, event)
    assert sorted(log.judgements for log in logs.values()) == [1] * len(cases)  # each judged exactly once
    assert LogVerdict.objects.count() == 0
    # Won games decided their best-of-1 matches; rejected logs left theirs open.
    finished = Match.objects.filter(status=Match.Status.FINISHED).count()
    assert finished == sum(1 for _, _, status, _, _ in cases if status == "verified") - 1  # minus the deadlock


def test_a_practice_log_is_verified_by_a_worker_after_its_commit(worker):
    with transaction.atomic():  # as the referee stores it, under the table's transaction
        log = log_submit_practice(data=body(won_log("speed", ["pat", "bot-easy-1"], winner_seat=1)))
    (judged,) = wait_until_judged([log.pk])
    assert (judged.game_id, judged.provenance, judged.status, judged.winner_seat) == (None, "practice", "verified", 1)


def test_a_match_played_out_through_the_api(worker, client_for, alice, ben):
    alice_client, ben_client = client_for(alice.user), client_for(ben.user)
    challenged = alice_client.post("/api/challenges/", {"challenged": "ben", "best_of": 3}, format="json")
    assert challenged.status_code == 201
    accepted = ben_client.post(f"/api/challenges/{challenged.json()['id']}/accept/")
    assert accepted.status_code == 200
    match_id = accepted.json()["match"]
    for round_number, seat in enumerate([1, 0, 0]):
        detail = alice_client.get(f"/api/matches/{match_id}/").json()
        game = detail["games"][-1]
        assert (game["number"], game["status"]) == (round_number + 1, "open")
        document = won_log("speed", ["alice", "ben"], winner_seat=seat, start=round_number * 40)
        response = post_log(ben_client if seat else alice_client, game["id"], body(document))
        assert response.status_code == 202
        judged = [response.json()["id"]]
        if round_number == 0:
            # The loser sends the same recorder's file: both sides' word, which decides the game.
            same = post_log(alice_client, game["id"], body(document))
            assert same.status_code == 202
            judged.append(same.json()["id"])
            wait_until_judged(judged)
        else:
            wait_until_judged(judged)
            # The winner's own log is one side's word: the loser confirms it.
            confirmed = (alice_client if seat else ben_client).post(f"/api/games/{game['id']}/confirm/")
            assert confirmed.status_code == 200, confirmed.json()
        # The same file again from the same player is the same submission.
        assert post_log(ben_client if seat else alice_client, game["id"], body(document)).status_code == 200
    detail = alice_client.get(f"/api/matches/{match_id}/").json()
    assert detail["status"] == "finished"
    assert detail["winner"] == "alice"
    assert detail["score"] == {"alice": 2, "ben": 1}
    decided = [(g["winner"], g["decided_by"]) for g in detail["games"]]
    assert decided == [("ben", "log"), ("alice", "log"), ("alice", "log")]
    assert MatchLog.objects.count() == 4  # the repeated submissions were the same submissions


@pytest.mark.usefixtures("broker", "transactional_db")
def test_disagreeing_logs_dispute_the_game_in_the_worker(client_for, alice, ben, tmp_path):
    match = make_match(alice, ben, best_of=3)
    game = match.games.get()
    # Both are submitted before a worker runs (else the first could decide the game first,
    # and the second would be refused); two pool processes then take one each.
    one = post_log(client_for(alice.user), game.pk, body(won_log("speed", ["alice", "ben"], winner_seat=0)))
    two = post_log(client_for(ben.user), game.pk, body(won_log("speed", ["alice", "ben"], winner_seat=1)))
    assert (one.status_code, two.status_code) == (202, 202)
    worker = WorkerProcess(env=worker_env(), concurrency=2, log_path=tmp_path / "worker.log").wait_ready()
    try:
        wait_until_judged([one.json()["id"], two.json()["id"]])
    finally:
        worker.stop()
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    assert game.winner is None
    assert Game.objects.filter(match=match).count() == 1


@contextmanager
def game_row_locked(game_id: int) -> Iterator[psycopg.Connection]:
    """Hold the game's row lock from a connection of the test's own, outside Django."""
    with psycopg.connect(current_database_url().replace("postgres://", "postgresql://", 1)) as held:
        held.execute("SELECT id FROM matches_game WHERE id = %s FOR UPDATE", [game_id])
        yield held
        held.rollback()


def wait_for_a_backend_waiting_on_a_lock(held: psycopg.Connection, worker: WorkerProcess, timeout: float = 120) -> None:
    """The barrier: another backend of this database is blocked on a row lock (ours).

    `held` is inside the transaction that holds the lock, and PostgreSQL shows a
    transaction one snapshot of pg_stat_activity, taken when it first reads it:
    each look clears it first, or a worker that blocks after the first look is
    never seen (the test failed so on a busy machine, the worker slow to start).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        held.execute("SELECT pg_stat_clear_snapshot()")
        waiting = held.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        ).fetchone()
        if waiting and waiting[0]:
            return
        time.sleep(0.05)
    held.execute("SELECT pg_stat_clear_snapshot()")
    activity = held.execute(
        "SELECT pid, state, wait_event_type, wait_event, left(query, 120) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    ).fetchall()
    raise AssertionError(
        f"no backend waited on the game's row lock within {timeout}s; backends: {activity}\n{worker.output()[-3000:]}"
    )


def kill_while_blocked_on_the_game(game: Game, tmp_path: Path) -> None:
    """Start a solo worker, let its verification block on the game's row lock (held here), SIGKILL it, release."""
    with game_row_locked(game.pk) as held:
        # The solo pool runs the task in the process the test kills (no pool child to fork first).
        doomed = WorkerProcess(env=worker_env(), pool="solo", log_path=tmp_path / "doomed.log").wait_ready()
        try:
            wait_for_a_backend_waiting_on_a_lock(held, doomed)
        finally:
            doomed.kill()


@pytest.mark.parametrize("best_of", [1, 3], ids=["match-ending", "mid-match"])
@pytest.mark.usefixtures("broker", "transactional_db")
def test_a_worker_killed_mid_verification_leaves_nothing_half_written(
    client_for, organiser, alice, ben, *, tmp_path, best_of
):
    """SIGKILL the worker after it judged the log and began writing; a new worker finishes it once.

    The test holds the game's row lock, so the worker stops at its write to the
    game, after writing the verdict in its open transaction: a kill there is a
    kill in the middle of the writes, reached without any sleep in the code.
    Each statement waits for its answer, so the COMMIT was never sent and the
    server rolls the transaction back; the redelivered task then does it all, once.
    """
    match = make_match(alice, ben, best_of=best_of)
    game = match.games.get()
    # An organiser's log: the verification decides the game (and ends the match, or opens the next game).
    response = post_log(client_for(organiser), game.pk, body(won_log("speed", ["alice", "ben"], winner_seat=0)))
    assert response.status_code == 202
    log_id = response.json()["id"]
    kill_while_blocked_on_the_game(game, tmp_path)

    log = MatchLog.objects.get(pk=log_id)
    assert log.status == MatchLog.Status.PENDING
    assert (log.code, log.engine_version, log.verified_at) == ("", "", None)
    assert log.judgements == 0
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.OPEN, None)
    assert Game.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).status != Match.Status.FINISHED

    fresh = WorkerProcess(env=worker_env(), concurrency=1, log_path=tmp_path / "fresh.log").wait_ready()
    try:
        [log] = wait_until_judged([log_id], timeout=60)
    finally:
        fresh.stop()
    assert (log.status, log.code, log.winner) == (MatchLog.Status.VERIFIED, "ok", alice)
    assert log.judgements == 1  # verified exactly once
    assert not LogVerdict.objects.filter(log_id=log_id).exists()
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_by) == (Game.Status.DECIDED, alice, Game.DecidedBy.LOG)
    ended = Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert ended == (best_of == 1)
    expected_games = [(1, Game.Status.DECIDED)] + ([] if ended else [(2, Game.Status.OPEN)])
    assert list(Game.objects.filter(match=match).values_list("number", "status")) == expected_games


def test_bench_pipeline_prints_both_rates_and_the_latency_and_cleans_up(broker, transactional_db):
    out = StringIO()
    call_command("bench_pipeline", "--logs", "20", "--rounds", "2", "--rate", "10", "--seconds", "1", stdout=out)
    text = out.getvalue()
    rounds = re.findall(r"round \d: no-op ([\d.]+)/s, verify ([\d.]+)/s", text)
    assert len(rounds) == 2
    assert all(float(noop) > 0 and float(verify) > 0 for noop, verify in rounds)
    assert re.search(r"no-op tasks: +[\d.]+ per second \(median of 2 rounds of 20\)", text), text
    assert re.search(r"verified logs: +[\d.]+ per second", text), text
    assert re.search(r"latency: +10 organiser's logs submitted at [\d.]+/s", text), text
    p50, p95, worst = (
        float(figure) for figure in re.search(r"p50 +([\d.]+) ms, p95 +([\d.]+) ms, max +([\d.]+) ms", text).groups()
    )
    assert 0 < p50 <= p95 <= worst
    assert "bar" not in text  # a guard, not a target
    assert not MatchLog.objects.exists()  # it cleans up after itself
    assert not Match.objects.exists()


@pytest.mark.usefixtures("transactional_db")
def test_a_log_submitted_while_the_broker_is_down_is_kept_and_verified_later(client_for, alice, ben):
    game = make_match(alice, ben).games.get()
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens there
    celery_app._after_fork()  # drop the pooled broker connections (Celery's own reset)
    try:
        response = post_log(client_for(alice.user), game.pk, body(won_log("speed", ["alice", "ben"])))
    finally:
        celery_app.conf.broker_url = settings.CELERY_BROKER_URL
        celery_app.conf.task_always_eager = True
        celery_app._after_fork()
    assert response.status_code == 202  # stored and answered, though it could not be queued
    log = MatchLog.objects.get(pk=response.json()["id"])
    assert log.status == MatchLog.Status.PENDING
    out = StringIO()
    call_command("reverify", "--pending", stdout=out)  # the recovery the README gives
    assert "1 of 1 logs re-verified" in out.getvalue()
    log.refresh_from_db()
    assert log.status == MatchLog.Status.VERIFIED
