"""A tournament that runs itself starts at its start time, by the beat's sweep; no other does."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from tests.factories import make_players, make_tournament, make_user
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import tournaments_start_due
from tournaments.services.schedule import tournament_starts_at_set

pytestmark = pytest.mark.django_db


def _tournament(name: str, players: int, **options: Any) -> Tournament:
    organiser = make_user(f"orga-{name}", organiser=True)
    tournament = make_tournament(
        organiser, make_players(players, prefix=name), format="round_robin", name=name, start=False, **options
    )
    tournament_starts_at_set(
        tournament_id=tournament.pk, user=organiser, starts_at=timezone.now() - timedelta(minutes=1)
    )
    return tournament


def test_the_sweep_starts_only_the_events_that_run_themselves_and_can_start() -> None:
    runs_itself = _tournament("auto", 4, advance_automatically=True)
    manual = _tournament("desk", 4)
    too_few = _tournament("lone", 1, advance_automatically=True)
    later = _tournament("late", 4, advance_automatically=True)
    Tournament.objects.filter(pk=later.pk).update(starts_at=timezone.now() + timedelta(hours=1))

    assert tournaments_start_due() == [runs_itself.pk]
    statuses = dict(Tournament.objects.values_list("name", "status"))
    assert statuses == {"auto": "running", "desk": "setup", "lone": "setup", "late": "setup"}
    assert TournamentMatch.objects.filter(tournament=runs_itself).exists()
    assert not TournamentMatch.objects.filter(tournament__in=[manual, too_few, later]).exists()
    assert tournaments_start_due() == []  # a started event is not started again


def test_the_beat_runs_the_sweep() -> None:
    from tournaments.tasks import tournaments_start_due_task

    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tournaments_start_due_task.name in schedule
