"""Registrations approved as they arrive: the tournament's `auto_approve`, through the organiser's approval
(its entry, its emails, the cap and its waiting list), from the API, the service and the site's forms."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from core.errors import Conflict
from matches.models import Player
from matches.services import user_email_set
from tests.factories import PASSWORD, make_players, make_tournament
from tournaments.models import Entrant, Registration, Tournament
from tournaments.services.registration import (
    registration_create,
    registration_decide,
    tournament_registration_set,
)

pytestmark = pytest.mark.django_db


def open_cup(organiser: Any, **fields: Any) -> Tournament:
    cup = make_tournament(organiser, [], format="round_robin", name="Open cup", start=False, **fields)
    tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    return cup


def with_email(player: Player) -> Player:
    assert player.user is not None
    user_email_set(user=player.user, email=f"{player.handle}@example.org")
    return player


def test_an_auto_approved_registration_enters_and_emails_up_to_the_cap_then_waits(organiser, capture) -> None:
    cup = open_cup(organiser, auto_approve=True, max_entrants=2)
    players = [with_email(player) for player in make_players(3, prefix="a")]
    with capture(execute=True):
        decided = [registration_create(tournament_id=cup.pk, user=player.user) for player in players]
    assert [r.status for r in decided] == ["approved", "approved", "waiting"]
    assert [r.decided_by for r in decided] == [None, None, None]
    assert [e.player.handle for e in Entrant.objects.filter(tournament=cup).order_by("seed")] == ["a01", "a02"]
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["a01@example.org"], "Speed: you are entered in Open cup"),
        (["a02@example.org"], "Speed: you are entered in Open cup"),
        (["a03@example.org"], "Speed: you are on the waiting list of Open cup"),
    ]


def test_without_it_a_registration_waits_for_the_organiser(organiser, capture) -> None:
    cup = open_cup(organiser)
    (player,) = make_players(1, prefix="w")
    registration = registration_create(tournament_id=cup.pk, user=player.user)
    assert registration.status == "pending" and not Entrant.objects.filter(tournament=cup).exists()


def test_a_pending_registration_is_approved_when_its_player_registers_again_with_it_on(organiser) -> None:
    cup = open_cup(organiser)
    (player,) = make_players(1, prefix="p")
    registration_create(tournament_id=cup.pk, user=player.user)
    Tournament.objects.filter(pk=cup.pk).update(auto_approve=True)
    again = registration_create(tournament_id=cup.pk, user=player.user)
    assert again.status == "approved" and Entrant.objects.filter(tournament=cup, player=player).exists()
    with pytest.raises(Conflict, match="already approved"):
        registration_decide(registration_id=again.pk, user=organiser, approve=True)


def test_the_api_creates_shows_and_replaces_the_option(client_for, organiser) -> None:
    api = client_for(organiser)
    created = api.post(
        "/api/tournaments/", {"name": "Auto", "format": "round_robin", "best_of": 1, "auto_approve": True}, "json"
    )
    assert created.status_code == 201, created.json()
    assert created.json()["auto_approve"] is True
    url = f"/api/tournaments/{created.json()['id']}/"
    assert api.get(url).json()["auto_approve"] is True
    replaced = api.put(url, {"name": "Auto", "format": "round_robin", "best_of": 1}, format="json")
    assert replaced.status_code == 200 and replaced.json()["auto_approve"] is False, "PUT replaces every setting"
    turned_on = api.put(
        url, {"name": "Auto", "format": "round_robin", "best_of": 1, "auto_approve": True}, format="json"
    )
    assert turned_on.json()["auto_approve"] is True
    refused = api.put(
        url, {"name": "Auto", "format": "round_robin", "best_of": 1, "auto_approve": "sometimes"}, format="json"
    )
    assert refused.status_code == 400


FORM = {"format": "round_robin", "series": "best_of", "series_length": 1, "ruleset": "speed"}


def test_the_new_and_edit_forms_have_the_checkbox(client: Client, organiser: Any) -> None:
    client.login(username="orga", password=PASSWORD)
    page = html.unescape(client.get("/organise/tournaments/new/").content.decode())
    assert 'name="auto_approve"' in page and "Approve registrations automatically" in page
    created = client.post("/organise/tournaments/new/", FORM | {"name": "Ticked", "auto_approve": "on"})
    assert created.status_code == 302, created.content.decode()[:2000]
    cup = Tournament.objects.get(name="Ticked")
    assert cup.auto_approve is True
    edit = f"/organise/tournaments/{cup.pk}/edit/"
    assert client.get(edit).context["form"]["auto_approve"].value() is True
    assert client.post(edit, FORM | {"name": "Ticked"}).status_code == 302  # an unticked box is sent as nothing
    cup.refresh_from_db()
    assert cup.auto_approve is False


def test_the_player_is_told_they_are_entered(client: Client, organiser: Any) -> None:
    cup = open_cup(organiser, auto_approve=True)
    (player,) = make_players(1, prefix="t")
    client.login(username=player.user.username, password=PASSWORD)
    assert "you are entered as you register" in client.get(f"/tournaments/{cup.pk}/").content.decode()
    page = client.post(f"/tournaments/{cup.pk}/join/", {"action": "register"}, follow=True)
    assert "Registered and approved: you are entered." in html.unescape(page.content.decode())
    assert Registration.objects.get(tournament=cup, player=player).status == "approved"
