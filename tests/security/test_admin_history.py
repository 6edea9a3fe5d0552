"""The admin shows history and verdicts read-only: no add, change or delete, even for a superuser."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Game, ResultChange
from replays.models import LogVerdict, MatchLog, ReplaySteps
from replays.services import log_steps_build, log_submit, log_verify
from tests.factories import body, make_match, make_user, won_log
from tournaments.models import CorrectionRecord, PlayerRating, RatingChange, TournamentMatch

pytestmark = pytest.mark.django_db

HISTORY = [
    MatchLog,
    LogVerdict,
    ReplaySteps,
    ResultChange,
    Game,
    CorrectionRecord,
    RatingChange,
    PlayerRating,
    TournamentMatch,
]


@pytest.fixture
def admin_client(alice, ben) -> Client:
    game = make_match(alice, ben).games.get()
    log, _ = log_submit(game_id=game.pk, data=body(won_log("speed", ["alice", "ben"])), user=alice.user, enqueue=False)
    log_verify(log_id=log.pk)
    log_verify(log_id=log.pk, force=True)
    log_steps_build(log_id=log.pk)
    client = Client()
    client.force_login(make_user("boss", superuser=True))
    return client


@pytest.mark.parametrize("model", HISTORY, ids=lambda model: model.__name__)
def test_history_is_read_only(admin_client, model):
    admin = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    assert admin_client.get(admin).status_code == 200
    assert admin_client.get(f"{admin}add/").status_code == 403
    row = model.objects.first()
    if row is None:
        return  # the list page and the refused add page are all this model shows here
    page = admin_client.get(f"{admin}{row.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client.post(f"{admin}{row.pk}/change/", {}).status_code == 403
    assert admin_client.post(f"{admin}{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def test_a_verdict_cannot_be_rewritten_through_the_admin(admin_client):
    log = MatchLog.objects.get()
    before = (log.status, log.code, log.winner_id)
    admin_client.post(f"/admin/replays/matchlog/{log.pk}/change/", {"status": "rejected", "code": "no_fit"})
    log.refresh_from_db()
    assert (log.status, log.code, log.winner_id) == before
