"""The entrant's road on a waiting list: emailed on joining it, on moving up and when left out at the start;
the no-shows a start drops make room for it, and an undone start puts both back."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from matches.models import OutboxEmail, Player
from matches.services import user_email_set
from matches.services.notifications import Kind, notification_preferences_set
from matches.services.outbox import TURNED_OFF
from tests.factories import make_players, make_tournament
from tournaments.models import Entrant, Registration, Tournament
from tournaments.services import entrant_remove, tournament_start, tournament_start_undo
from tournaments.services.entry import entry_rules_set, waiting_place
from tournaments.services.registration import (
    entrant_check_in,
    registration_create,
    registration_decide,
    tournament_checkin_set,
    tournament_registration_set,
    tournament_start_checked,
)

pytestmark = pytest.mark.django_db


def with_emails(players: list[Player]) -> list[Player]:
    for player in players:
        assert player.user is not None
        user_email_set(user=player.user, email=f"{player.handle}@example.org")
    return players


def inbox(handle: str) -> list[str]:
    """The subjects sent to this player, in order."""
    return [message.subject for message in mail.outbox if message.to == [f"{handle}@example.org"]]


def entered(tournament: Tournament) -> list[tuple[str, int]]:
    return [(e.player.handle, e.seed) for e in Entrant.objects.filter(tournament=tournament).select_related("player")]


def waiting(tournament: Tournament) -> list[str]:
    rows = Registration.objects.filter(tournament=tournament, status=Registration.Status.WAITING)
    return [r.player.handle for r in rows.select_related("player").order_by("waiting_since", "id")]


def full_cup(organiser: Any, players: list[Player], cap: int, capture: Any) -> Tournament:
    """A cup with this cap, every player registered and approved in order: the first `cap` in, the rest waiting."""
    cup = make_tournament(organiser, [], format="round_robin", name="Spring cup", start=False, max_entrants=cap)
    tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    with capture(execute=True):
        for player in players:
            registration = registration_create(tournament_id=cup.pk, user=player.user)
            registration_decide(registration_id=registration.pk, user=organiser, approve=True)
    return cup


def test_joining_the_list_is_emailed_with_the_place_on_it(organiser, capture) -> None:
    players = with_emails(make_players(4, prefix="j"))
    cup = full_cup(organiser, players, 2, capture)
    assert inbox("j01") == ["Speed: you are entered in Spring cup"]
    assert inbox("j03") == ["Speed: you are on the waiting list of Spring cup"]
    assert inbox("j04") == ["Speed: you are on the waiting list of Spring cup"]
    [fourth] = [m for m in mail.outbox if m.to == ["j04@example.org"]]
    assert "you are number 2 on its waiting list" in fourth.body
    assert f"http://localhost:8000/tournaments/{cup.pk}/" in fourth.body


def test_moving_up_on_a_withdrawal_or_a_higher_cap_is_emailed(organiser, capture) -> None:
    players = with_emails(make_players(5, prefix="m"))
    cup = full_cup(organiser, players, 2, capture)
    mail.outbox.clear()
    with capture(execute=True):
        assert entrant_remove(tournament_id=cup.pk, handle="m01", user=organiser) == ["m03"]
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["m03@example.org"], "Speed: you moved up: you are entered in Spring cup")
    ]
    with capture(execute=True):
        entry_rules_set(tournament_id=cup.pk, user=organiser, max_entrants=4, registration_closes_at=None)
    assert inbox("m04") == inbox("m05") == ["Speed: you moved up: you are entered in Spring cup"]
    assert "m01@example.org" not in [m.to[0] for m in mail.outbox]


def test_those_still_waiting_at_the_start_are_told_they_are_left_out(organiser, capture) -> None:
    players = with_emails(make_players(5, prefix="s"))
    cup = full_cup(organiser, players, 3, capture)
    assert players[4].user is not None
    notification_preferences_set(user=players[4].user, kinds=[Kind.CLAIM_WAITING])  # waiting_list off
    mail.outbox.clear()
    with capture(execute=True):
        tournament_start(tournament_id=cup.pk, user=organiser)
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["s04@example.org"], "Speed: Spring cup has started without you")
    ]
    assert "you are not playing in it" in mail.outbox[0].body
    assert OutboxEmail.objects.get(user=players[4].user, kind=Kind.WAITING_LIST, sent_at=None).skipped == TURNED_OFF
    assert waiting(cup) == ["s04", "s05"]  # still on the list, should the start be undone


def test_no_shows_make_room_for_the_list_and_an_undone_start_puts_everyone_back(organiser, capture) -> None:
    players = with_emails(make_players(6, prefix="n"))
    cup = full_cup(organiser, players, 4, capture)  # n01..n04 in; n05, n06 waiting
    tournament_checkin_set(tournament_id=cup.pk, user=organiser, open=True)
    for handle in ("n01", "n03"):  # n02 and n04 never come
        entrant_check_in(tournament_id=cup.pk, user=organiser, handle=handle)
    mail.outbox.clear()
    with capture(execute=True):
        start = tournament_start_checked(tournament_id=cup.pk, user=organiser)
    assert (start.dropped, start.moved_up) == (["n02", "n04"], ["n05", "n06"])
    assert start.tournament.status == Tournament.Status.RUNNING
    assert entered(cup) == [("n01", 1), ("n03", 2), ("n05", 3), ("n06", 4)]
    assert waiting(cup) == []
    assert inbox("n05") == inbox("n06") == ["Speed: you moved up: you are entered in Spring cup"]
    assert inbox("n02") == [] and inbox("n01") == []

    mail.outbox.clear()
    with capture(execute=True):
        tournament_start_undo(tournament_id=cup.pk, user=organiser)
    # The entry as before the start: the no-shows at their seeds, the list as it was.
    assert entered(cup) == [("n01", 1), ("n02", 2), ("n03", 3), ("n04", 4)]
    assert waiting(cup) == ["n05", "n06"]
    fifth = Registration.objects.get(tournament=cup, player=players[4])
    assert waiting_place(fifth) == 1
    assert (
        inbox("n05") == inbox("n06") == ["Speed: the start of Spring cup is undone: you are on its waiting list again"]
    )
    assert Tournament.objects.get(pk=cup.pk).start_entry is None
    # Started again with check-in closed, the no-shows play and the list is left out.
    mail.outbox.clear()
    with capture(execute=True):
        again = tournament_start_checked(tournament_id=cup.pk, user=organiser)
    assert (again.dropped, again.moved_up) == ([], [])
    assert [handle for handle, _seed in entered(cup)] == ["n01", "n02", "n03", "n04"]
    assert inbox("n05") == inbox("n06") == ["Speed: Spring cup has started without you"]


def test_the_list_moves_up_only_into_the_places_no_shows_free(organiser, capture) -> None:
    players = with_emails(make_players(6, prefix="p"))
    cup = full_cup(organiser, players, 3, capture)  # p01..p03 in; p04, p05, p06 waiting
    tournament_checkin_set(tournament_id=cup.pk, user=organiser, open=True)
    for handle in ("p01", "p03"):
        entrant_check_in(tournament_id=cup.pk, user=organiser, handle=handle)
    mail.outbox.clear()
    with capture(execute=True):
        start = tournament_start_checked(tournament_id=cup.pk, user=organiser)
    assert (start.dropped, start.moved_up) == (["p02"], ["p04"])
    assert waiting(cup) == ["p05", "p06"]
    assert inbox("p04") == ["Speed: you moved up: you are entered in Spring cup"]
    assert inbox("p05") == inbox("p06") == ["Speed: Spring cup has started without you"]


def test_an_undone_start_with_no_one_dropped_changes_no_seed(organiser, capture) -> None:
    players = make_players(3, prefix="u")
    cup = make_tournament(organiser, players, format="round_robin", start=False)
    tournament_checkin_set(tournament_id=cup.pk, user=organiser, open=True)
    for player in players:
        entrant_check_in(tournament_id=cup.pk, user=organiser, handle=player.handle)
    start = tournament_start_checked(tournament_id=cup.pk, user=organiser)
    assert (start.dropped, start.moved_up, start.tournament.start_entry) == ([], [], None)
    tournament_start_undo(tournament_id=cup.pk, user=organiser)
    assert entered(cup) == [("u01", 1), ("u02", 2), ("u03", 3)]


def test_the_start_page_says_who_moves_up_and_who_is_left_out(organiser, capture, client) -> None:
    players = with_emails(make_players(5, prefix="w"))
    cup = full_cup(organiser, players, 3, capture)
    tournament_checkin_set(tournament_id=cup.pk, user=organiser, open=True)
    for handle in ("w01", "w02"):
        entrant_check_in(tournament_id=cup.pk, user=organiser, handle=handle)
    client.force_login(organiser)
    page = client.get(f"/organise/tournaments/{cup.pk}/start/")
    assert [r.player.handle for r in page.context["moving_up"]] == ["w04"]
    assert [r.player.handle for r in page.context["left_out"]] == ["w05"]
    assert page.context["playing_count"] == 3
    text = page.content.decode()
    assert "Moving up from the waiting list" in text and "<strong>w04</strong>" in text
    with capture(execute=True):
        done = client.post(f"/organise/tournaments/{cup.pk}/start/", follow=True)
    assert "Moved up from the waiting list into their places: w04." in done.content.decode()
    assert [handle for handle, _seed in entered(cup)] == ["w01", "w02", "w04"]
