"""Without a beat (the demo), a due lapse is applied when the site or the API is read."""

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from matches.models import Game
from matches.services import game_report_result, match_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_due_claim_stands_when_a_page_is_read(alice, ben) -> None:
    match = match_create(players=["alice", "ben"], best_of=1, confirm_within=60)
    game = game_report_result(game_id=match.games.get().pk, user=alice.user, winner="alice")
    assert game.status == Game.Status.AWAITING_CONFIRMATION
    with override_settings(SPEED_LAPSE_ON_READ=False):
        Client().get("/")
    assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION  # off: nothing happens
    # The window runs out (moved back rather than waiting a minute).
    Game.objects.filter(pk=game.pk).update(confirm_by=timezone.now() - timedelta(seconds=1))
    with override_settings(SPEED_LAPSE_ON_READ=True):
        assert Client().get(f"/api/matches/{match.pk}/").json()["status"] == "finished"
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.winner_id, game.decided_by) == ("decided", alice.pk, "lapse")
