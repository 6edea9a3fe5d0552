"""The tournament's page tells a player where they stand: the waiting list, the deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import PASSWORD, make_players, make_tournament
from tournaments.models import Registration
from tournaments.services import entrant_remove
from tournaments.services.entry import entry_rules_set
from tournaments.services.registration import (
    registration_create,
    registration_decide,
    tournament_registration_set,
)

pytestmark = pytest.mark.django_db


def test_a_waiting_player_sees_their_place_and_then_that_they_are_entered(organiser: Any, client: Client) -> None:
    players = make_players(4, prefix="g")
    cup = make_tournament(organiser, [], format="swiss", start=False, name="Full", max_entrants=2)
    tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    for player in players:
        registration = registration_create(tournament_id=cup.pk, user=player.user)
        registration_decide(registration_id=registration.pk, user=organiser, approve=True)
    client.login(username="g04", password=PASSWORD)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "you are number 2 on the waiting list" in page
    assert "2 of 2 places taken, 2 on the waiting list" in page
    entrant_remove(tournament_id=cup.pk, handle="g01", user=organiser)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "you are number 1 on the waiting list" in page and "1 on the waiting list" in page
    entrant_remove(tournament_id=cup.pk, handle="g02", user=organiser)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "You are entered as seed" in page


def test_after_the_deadline_the_page_says_registration_closed(organiser: Any, client: Client) -> None:
    (player,) = make_players(1, prefix="h")
    cup = make_tournament(organiser, [], format="swiss", start=False, name="Late")
    tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    client.login(username="h01", password=PASSWORD)
    assert 'value="register"' in client.get(f"/tournaments/{cup.pk}/").content.decode()
    entry_rules_set(
        tournament_id=cup.pk, user=organiser, max_entrants=None, registration_closes_at=timezone.now() - timedelta(1)
    )
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Registration closed on" in page and 'value="register"' not in page
    response = client.post(f"/tournaments/{cup.pk}/join/", {"action": "register"}, follow=True)
    assert "closed at" in response.content.decode()
    assert not Registration.objects.filter(tournament=cup, player=player).exists()
