"""A practice game's log is a log: stored by the table with its final play, verified after the commit by the
task that verifies every log, replayed from its kept steps; a failure of the engine undoes nothing at the table."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

import speedrules.verify
from play.messages import Intent
from play.models import Table, TableEvent
from play.services import table_intent, table_practice_create, table_tick
from replays.models import LogVerdict, MatchLog, ReplaySteps
from tests.factories import make_player

from .conftest import fixed_deck

pytestmark = pytest.mark.django_db(transaction=True)  # the verification runs when the referee's commit does


def _resigned_practice_game() -> Table:
    """A practice game against a bot, started by its countdown and resigned by the player: over, log stored."""
    me = make_player("pat")
    table = table_practice_create(user=me.user, ruleset="speed", bots=["easy"], deck=fixed_deck())
    assert table_intent(table_id=table.pk, seat=0, intent=Intent("ready", None)).refusal is None
    counting = Table.objects.get(pk=table.pk)
    assert counting.countdown_at is not None
    table_tick(table_id=table.pk, now=counting.countdown_at + 60_000)  # the countdown is over: the cards are turned
    assert Table.objects.get(pk=table.pk).status in (Table.Status.PLAYING, Table.Status.STUCK)
    assert table_intent(table_id=table.pk, seat=0, intent=Intent("resign", "r1")).refusal is None
    return Table.objects.get(pk=table.pk)


def _engine_broken(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a bug in the verifier")


def test_a_practice_game_over_leaves_a_log_verified_by_the_task_with_no_game() -> None:
    table = _resigned_practice_game()
    assert (table.status, table.result) == (Table.Status.OVER, {"winner": 1, "by": "resign"})
    log = MatchLog.objects.get(pk=table.log_id)
    assert (log.game_id, log.provenance, log.submitted_by_id) == (None, MatchLog.Provenance.PRACTICE, None)
    # Verified as the evidence of the cards played: the resign, not the log, names the winner.
    assert (log.status, log.code, log.winner_seat, log.winner_id) == ("verified", "ok", None, None)
    assert log.judgements == 1 and log.places is None and not LogVerdict.objects.exists()


def test_an_engine_failure_in_the_verification_leaves_the_final_play_and_marks_the_log_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The engine's verification raises, wherever it is called from (the referee used to call it under its lock).
    monkeypatch.setattr(speedrules.verify, "verify_parsed", _engine_broken)
    table = _resigned_practice_game()
    assert table.status == Table.Status.OVER and table.ended is not None and table.ended["by"] == "resign"
    assert TableEvent.objects.filter(table=table).count() == table.event_count
    log = MatchLog.objects.get(pk=table.log_id)
    assert (log.status, log.code, log.judgements) == ("failed", "failed", 1)
    assert "RuntimeError" in log.message and log.size == len(bytes(log.data))


def test_a_practice_replay_is_read_from_its_kept_steps_without_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _resigned_practice_game()
    client = APIClient()
    first = client.get(f"/api/logs/{table.log_id}/steps/compact/?from=0&count=5")
    assert first.status_code == 200 and ReplaySteps.objects.filter(log_id=table.log_id).exists()
    monkeypatch.setattr(speedrules.verify, "verify_parsed", _engine_broken)  # kept: the engine is not run again
    again = client.get(f"/api/logs/{table.log_id}/steps/compact/?from=0&count=5")
    assert again.status_code == 200 and again.json() == first.json()
    assert client.get(f"/api/tables/{table.pk}/steps/compact/?from=0&count=5").json() == first.json()
    assert client.get(f"/replays/{table.log_id}/").status_code == 200
