"""Every model of matches and replays has a working admin: list (with search and filters) and edit pages."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Game, Match, NotificationPreference, OutboxEmail, Player
from matches.services.notifications import Kind, notification_preferences_set, notify
from replays.models import LogVerdict, MatchLog, ReplaySteps
from replays.services import log_steps_build, log_submit, log_verify
from tests.factories import body, make_match, make_user, won_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(alice, ben) -> Client:
    game = make_match(alice, ben).games.get()
    log, _ = log_submit(game_id=game.pk, data=body(won_log("speed", ["alice", "ben"])), user=alice.user, enqueue=False)
    log_verify(log_id=log.pk)
    log_verify(log_id=log.pk, force=True)  # an audit row
    log_steps_build(log_id=log.pk)
    notification_preferences_set(user=alice.user, kinds=["dispute"])
    notify(kind=Kind.MATCH_CALLED, user_ids=[alice.user.pk], subject="alice is called", lines=["x"], path="/")
    client = Client()
    client.force_login(make_user("boss", superuser=True))
    return client


@pytest.mark.parametrize(
    "model", [Player, Match, Game, MatchLog, LogVerdict, ReplaySteps, NotificationPreference, OutboxEmail]
)
def test_admin_pages_work(admin_client, model):
    url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "alice"}).status_code == 200
    obj = model.objects.first()
    assert admin_client.get(f"{url}{obj.pk}/change/").status_code == 200


def test_the_log_list_shows_verdicts_and_filters_by_status(admin_client):
    page = admin_client.get("/admin/replays/matchlog/", {"status__exact": "verified"}).content.decode()
    assert "verified" in page
    assert "ok" in page
    assert admin_client.get("/admin/replays/matchlog/", {"status__exact": "rejected"}).context["cl"].result_count == 0
