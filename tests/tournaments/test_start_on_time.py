"""A tournament that runs itself starts at its start time, and calls a held round at its "not before" time,
by the beat's sweep; no other does."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_players, make_tournament, make_user
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import lifecycle, tournament_start, tournaments_start_due
from tournaments.services.running import match_score_enter, rounds_call_due
from tournaments.services.schedule import round_schedule_set, tournament_starts_at_set
from tournaments.tasks import tournaments_due_sweep_task

pytestmark = pytest.mark.django_db


def _tournament(name: str, players: int, *, format: str = "round_robin", **options: Any) -> Tournament:
    organiser = make_user(f"orga-{name}", organiser=True)
    tournament = make_tournament(
        organiser, make_players(players, prefix=name), format=format, name=name, start=False, **options
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


def test_a_start_the_format_refuses_is_said_on_the_page_and_holds_up_no_other(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    monkeypatch.setattr(lifecycle, "_STARTS_PER_SWEEP", 1)  # one start a sweep: the refused one would take it
    refused = _tournament("third", 2, format="single_elimination", advance_automatically=True, third_place=True)
    can_start = _tournament("fine", 4, advance_automatically=True)
    Tournament.objects.filter(pk=refused.pk).update(starts_at=timezone.now() - timedelta(hours=1))  # due first
    now = timezone.now()

    assert tournaments_start_due(now=now) == []  # tried first, refused: the reason is kept
    refused.refresh_from_db()
    assert refused.status == "setup" and refused.start_refused_at == now
    assert "third-place match needs semi-finals" in refused.start_refusal
    assert tournaments_start_due(now=now) == [can_start.pk]  # not held up by the refused one
    assert tournaments_start_due(now=now + timedelta(minutes=59)) == []  # not tried again yet

    page = client.get(reverse("web:tournament_detail", args=[refused.pk])).content.decode()
    assert 'data-role="start-refused"' in page and "third-place match needs semi-finals" in page
    assert client.get(f"/api/tournaments/{refused.pk}/").json()["start_refusal"] == refused.start_refusal

    later = now + timedelta(hours=1)
    assert tournaments_start_due(now=later) == []  # an hour on it is tried again, and refused again
    refused.refresh_from_db()
    assert refused.start_refused_at == later
    organiser = get_user_model().objects.get(username="orga-third")
    tournament_starts_at_set(tournament_id=refused.pk, user=organiser, starts_at=later)
    refused.refresh_from_db()
    assert refused.start_refused_at is None and refused.start_refusal == ""  # a new time: tried at the next sweep


def test_the_beat_runs_the_sweep() -> None:
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tournaments_due_sweep_task.name in schedule


def test_a_round_held_by_its_not_before_time_is_called_when_it_comes() -> None:
    organiser = make_user("orga", organiser=True)
    tournament = make_tournament(
        organiser,
        make_players(4, prefix="r"),
        format="swiss",
        start=False,
        confirmation="none",
        advance_automatically=True,
    )
    later = timezone.now() + timedelta(hours=1)
    round_schedule_set(tournament_id=tournament.pk, user=organiser, round=2, not_before=later)
    tournament_start(tournament_id=tournament.pk, user=organiser)
    first = list(TournamentMatch.objects.filter(tournament=tournament, round=1))
    assert first and all(pairing.underway_at is not None for pairing in first)  # called as paired
    for pairing in first:
        match_score_enter(match_id=pairing.match_id, user=organiser, games_one=1, games_two=0)
    second = TournamentMatch.objects.filter(tournament=tournament, round=2)
    assert second.count() == 2 and all(pairing.status == "ready" for pairing in second)
    assert not second.filter(underway_at__isnull=False).exists()  # held until its time
    assert rounds_call_due(now=later - timedelta(minutes=1)) == []
    assert rounds_call_due(now=later) == [tournament.pk]
    assert not second.filter(underway_at__isnull=True).exists()
    assert rounds_call_due(now=later) == []  # called once
