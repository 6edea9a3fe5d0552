"""Entry rules: a cap with a waiting list that moves up on a withdrawal, and a registration deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import Conflict, Invalid
from matches.models import Player
from tests.factories import make_players, make_tournament
from tournaments.models import Entrant, Registration, Tournament
from tournaments.services import entrant_add, entrant_remove
from tournaments.services.entry import entry_rules_set, waiting_place
from tournaments.services.registration import (
    registration_create,
    registration_decide,
    registration_withdraw,
    registrations_approve_all,
    tournament_registration_set,
)

pytestmark = pytest.mark.django_db


def _entered(tournament: Tournament) -> list[str]:
    return [e.player.handle for e in Entrant.objects.filter(tournament=tournament).select_related("player")]


def _registered(organiser: Any, players: list[Player], **rules: Any) -> tuple[Tournament, list[Registration]]:
    cup = make_tournament(organiser, [], format="swiss", start=False, **rules)
    tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    return cup, [registration_create(tournament_id=cup.pk, user=p.user) for p in players]


def test_approvals_past_the_cap_wait_in_order_and_move_up_on_a_withdrawal(organiser: Any) -> None:
    players = make_players(5, prefix="w")
    cup, registrations = _registered(organiser, players, max_entrants=3)
    # Approved in an order other than they registered: the waiting list follows the approvals.
    for index in (0, 1, 2, 4, 3):
        registration_decide(registration_id=registrations[index].pk, user=organiser, approve=True)
    assert _entered(cup) == ["w01", "w02", "w03"]
    waiting = Registration.objects.filter(tournament=cup, status=Registration.Status.WAITING).order_by("id")
    assert [(r.player.handle, waiting_place(r)) for r in waiting] == [("w04", 2), ("w05", 1)]

    moved = entrant_remove(tournament_id=cup.pk, handle="w02", user=organiser)
    assert moved == ["w05"]
    assert _entered(cup) == ["w01", "w03", "w05"]
    assert Registration.objects.get(pk=registrations[4].pk).status == Registration.Status.APPROVED
    assert waiting_place(Registration.objects.get(pk=registrations[3].pk)) == 1


def test_the_organiser_cannot_enter_past_the_cap_but_raising_it_moves_the_waiting_up(organiser: Any) -> None:
    players = make_players(4, prefix="c")
    cup, registrations = _registered(organiser, players[:3], max_entrants=2)
    for registration in registrations:
        registration_decide(registration_id=registration.pk, user=organiser, approve=True)
    with pytest.raises(Invalid, match="is full"):
        entrant_add(tournament_id=cup.pk, handle="c04", user=organiser)
    _cup, moved = entry_rules_set(tournament_id=cup.pk, user=organiser, max_entrants=4, registration_closes_at=None)
    assert moved == ["c03"]
    entrant_add(tournament_id=cup.pk, handle="c04", user=organiser)
    assert _entered(cup) == ["c01", "c02", "c03", "c04"]
    with pytest.raises(Invalid, match="already has 4 entrants"):
        entry_rules_set(tournament_id=cup.pk, user=organiser, max_entrants=3, registration_closes_at=None)
    # No cap: nothing waits, nothing is refused.
    entry_rules_set(tournament_id=cup.pk, user=organiser, max_entrants=None, registration_closes_at=None)
    assert Tournament.objects.get(pk=cup.pk).max_entrants is None


def test_a_waiting_player_may_leave_the_list(organiser: Any) -> None:
    players = make_players(3, prefix="l")
    cup, registrations = _registered(organiser, players, max_entrants=2)
    for registration in registrations:
        registration_decide(registration_id=registration.pk, user=organiser, approve=True)
    registration_withdraw(tournament_id=cup.pk, user=players[2].user)
    assert entrant_remove(tournament_id=cup.pk, handle="l01", user=organiser) == []


def test_registration_is_refused_after_the_deadline(organiser: Any) -> None:
    players = make_players(2, prefix="d")
    soon = timezone.now() + timedelta(hours=1)
    cup, _registrations = _registered(organiser, players[:1], registration_closes_at=soon)
    entry_rules_set(
        tournament_id=cup.pk,
        user=organiser,
        max_entrants=None,
        registration_closes_at=timezone.now() - timedelta(minutes=1),
    )
    with pytest.raises(Conflict, match="closed at"):
        registration_create(tournament_id=cup.pk, user=players[1].user)


def test_the_api_sets_and_shows_the_entry_rules(organiser: Any, client_for: Any) -> None:
    api: APIClient = client_for(organiser)
    made = api.post(
        "/api/tournaments/",
        {"name": "Capped", "format": "swiss", "best_of": 1, "seed_by": "rating", "max_entrants": 8},
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["seed_by"], body["max_entrants"], body["registration_closes_at"]) == ("rating", 8, None)
    tid = body["id"]
    changed = api.put(
        f"/api/tournaments/{tid}/entry-rules/",
        {"max_entrants": 4, "registration_closes_at": "2030-01-02T10:00:00Z"},
        format="json",
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["max_entrants"] == 4
    assert changed.json()["registration_closes_at"].startswith("2030-01-02T10:00:00")
    refused = api.put(
        f"/api/tournaments/{tid}/entry-rules/", {"max_entrants": 1, "registration_closes_at": None}, format="json"
    )
    assert refused.status_code == 400
    schema = api.get("/api/schema/?format=json").json()
    assert "put" in schema["paths"]["/api/tournaments/{tournament_id}/entry-rules/"]
    assert {"seed_by", "max_entrants", "registration_closes_at"} <= set(
        schema["components"]["schemas"]["TournamentCreateInput"]["properties"]
    )
    bad = api.post("/api/tournaments/", {"name": "x", "format": "swiss", "seed_by": "alphabetical"}, format="json")
    assert bad.status_code == 400


def test_approve_all_enters_the_pending_in_the_order_they_registered_and_the_rest_wait(organiser: Any) -> None:
    players = make_players(4, prefix="a")
    cup, registrations = _registered(organiser, players, max_entrants=3)
    registration_decide(registration_id=registrations[1].pk, user=organiser, approve=False)  # declined stays so
    decided = registrations_approve_all(tournament_id=cup.pk, user=organiser)
    assert [r.player.handle for r in decided] == ["a01", "a03", "a04"]
    assert _entered(cup) == ["a01", "a03", "a04"]
    assert Registration.objects.get(pk=registrations[1].pk).status == Registration.Status.DECLINED
    assert registrations_approve_all(tournament_id=cup.pk, user=organiser) == []  # nothing pending: nothing done


def test_approve_all_past_the_cap_puts_the_rest_on_the_waiting_list_in_order(organiser: Any) -> None:
    players = make_players(4, prefix="b")
    cup, _registrations = _registered(organiser, players, max_entrants=2)
    registrations_approve_all(tournament_id=cup.pk, user=organiser)
    assert _entered(cup) == ["b01", "b02"]
    waiting = Registration.objects.filter(tournament=cup, status=Registration.Status.WAITING).order_by("id")
    assert [(r.player.handle, waiting_place(r)) for r in waiting] == [("b03", 1), ("b04", 2)]


def test_approve_all_from_the_organisers_page(organiser: Any) -> None:
    players = make_players(3, prefix="p")
    cup, _registrations = _registered(organiser, players)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/organise/tournaments/{cup.pk}/").content.decode()
    assert 'data-role="approve-all"' in page and "Approve all 3" in page
    response = client.post(f"/organise/tournaments/{cup.pk}/", {"action": "approve_all"}, follow=True)
    assert "3 entered." in response.content.decode()
    assert _entered(cup) == ["p01", "p02", "p03"]
