"""Emails: a claim to confirm, a dispute, a match called, a registration approved; each after the commit,
each to be turned off, none without an address and none for a change rolled back."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction

from core.errors import Invalid
from matches.email_times import email_time, email_time_words, email_times_render
from matches.models import Game, OutboxEmail, Player
from matches.services import (
    game_dispute_claim,
    game_report_result,
    match_create,
    user_email_set,
    user_time_zone_set,
)
from matches.services.notifications import Kind, notification_preferences_get, notification_preferences_set
from tests.factories import make_match, make_player, make_tournament, make_user, ready
from tournaments.models import Registration
from tournaments.services.registration import registration_create, registration_decide, tournament_registration_set
from tournaments.services.running import pairing_call

pytestmark = pytest.mark.django_db


def with_email(player: Player) -> Player:
    assert player.user is not None
    user_email_set(user=player.user, email=f"{player.handle}@example.org")
    player.user.refresh_from_db()
    return player


def to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if address in message.to]


def test_a_claim_emails_the_opponent_with_the_link_to_confirm(alice, ben, capture) -> None:
    with_email(alice), with_email(ben)
    match = make_match(alice, ben)
    game = match.games.get()
    with capture(execute=True):
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    assert [message.to for message in mail.outbox] == [["ben@example.org"]]
    message = mail.outbox[0]
    assert "confirm game 1 of alice v ben" in message.subject
    assert "alice says game 1 of alice v ben ended: alice won." in message.body
    assert f"http://localhost:8000/matches/{match.pk}/" in message.body  # SPEED_SITE_URL
    assert "/accounts/notifications/" in message.body


def test_nothing_is_sent_before_the_commit_nor_for_a_change_rolled_back(alice, ben, capture) -> None:
    with_email(ben)
    game = make_match(alice, ben).games.get()
    with capture(execute=True) as callbacks, pytest.raises(RuntimeError), transaction.atomic():
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
        assert mail.outbox == []  # not yet: the transaction has not committed
        raise RuntimeError("rolled back")
    assert mail.outbox == []
    assert callbacks == []


def test_a_kind_turned_off_is_not_sent_and_the_others_still_are(alice, ben, capture) -> None:
    with_email(ben)
    assert ben.user is not None
    notification_preferences_set(user=ben.user, kinds=[Kind.MATCH_CALLED])
    prefs = notification_preferences_get(user_id=ben.user.pk)
    assert (prefs.claim_waiting, prefs.match_called) == (False, True)
    game = make_match(alice, ben).games.get()
    with capture(execute=True):
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    assert mail.outbox == []


def test_a_person_who_turned_another_kind_off_still_gets_this_one(alice, ben, capture) -> None:
    with_email(ben)
    assert ben.user is not None
    notification_preferences_set(user=ben.user, kinds=[Kind.CLAIM_WAITING])
    game = make_match(alice, ben).games.get()
    with capture(execute=True):
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    assert [message.to for message in mail.outbox] == [["ben@example.org"]]


def test_nobody_without_an_address_gets_one(alice, ben, capture) -> None:
    game = make_match(alice, ben).games.get()
    with capture(execute=True):
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    assert mail.outbox == []


def test_a_dispute_emails_the_tournaments_organiser_with_the_reason(capture) -> None:
    organiser = make_user("boss", organiser=True)
    other_organiser = make_user("other", organiser=True)
    for user in (organiser, other_organiser):
        user_email_set(user=user, email=f"{user.get_username()}@example.org")
    alice, ben = with_email(make_player("alice")), with_email(make_player("ben"))
    tournament = make_tournament(organiser, [alice, ben], format="single_elimination")
    pairing = ready(tournament)[0]
    game = pairing.match.games.get()
    game_report_result(game_id=game.pk, user=alice.user, winner="alice")  # its email is not sent: never committed
    with capture(execute=True):
        game_dispute_claim(game_id=game.pk, user=ben.user, reason="I won on the last card")
    assert [message.to for message in mail.outbox] == [["boss@example.org"]]
    assert "is disputed" in mail.outbox[0].subject
    assert "I won on the last card" in mail.outbox[0].body


def test_a_dispute_in_a_casual_match_emails_the_organisers(alice, ben, capture) -> None:
    boss = make_user("boss", organiser=True)
    make_user("plain")
    for user in get_user_model().objects.all():
        user_email_set(user=user, email=f"{user.get_username()}@example.org")
    game = make_match(alice, ben).games.get()
    game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    with capture(execute=True):
        game_dispute_claim(game_id=game.pk, user=ben.user, reason="no")
    assert [message.to for message in mail.outbox] == [[f"{boss.get_username()}@example.org"]]


def test_calling_a_match_emails_its_players_and_taking_it_back_does_not(organiser, capture) -> None:
    alice, ben = with_email(make_player("alice")), with_email(make_player("ben"))
    tournament = make_tournament(organiser, [alice, ben], format="single_elimination", name="Spring cup")
    pairing = ready(tournament)[0]
    with capture(execute=True):
        pairing_call(tournament_id=tournament.pk, key=pairing.key, user=organiser, station="Table 2")
    assert sorted(address for message in mail.outbox for address in message.to) == [
        "alice@example.org",
        "ben@example.org",
    ]
    assert "is called at Table 2" in mail.outbox[0].subject
    assert f"/matches/{pairing.match_id}/" in mail.outbox[0].body
    mail.outbox.clear()
    with capture(execute=True):
        pairing_call(tournament_id=tournament.pk, key=pairing.key, user=organiser, underway=False)
    assert mail.outbox == []


def test_an_approved_registration_emails_the_player_and_a_declined_one_does_not(organiser, capture) -> None:
    alice, ben = with_email(make_player("alice")), with_email(make_player("ben"))
    tournament = make_tournament(organiser, [], format="round_robin", name="Open", start=False)
    tournament_registration_set(tournament_id=tournament.pk, user=organiser, open=True)
    yes = registration_create(tournament_id=tournament.pk, user=alice.user)
    no = registration_create(tournament_id=tournament.pk, user=ben.user)
    with capture(execute=True):
        registration_decide(registration_id=yes.pk, user=organiser, approve=True)
        registration_decide(registration_id=no.pk, user=organiser, approve=False)
    assert [message.to for message in mail.outbox] == [["alice@example.org"]]
    assert "you are entered in Open" in mail.outbox[0].subject
    assert f"/tournaments/{tournament.pk}/" in mail.outbox[0].body
    assert Registration.objects.get(pk=yes.pk).status == Registration.Status.APPROVED


def test_an_address_that_is_not_one_is_refused(alice) -> None:
    with pytest.raises(Invalid, match="not an email address"):
        user_email_set(user=alice.user, email="alice at home")


def test_a_tables_claim_emails_every_other_player_with_the_places(capture) -> None:
    players = [with_email(make_player(handle)) for handle in ("ann", "bo", "cy")]
    match = match_create(players=[p.handle for p in players], ruleset="three-way", best_of=1)
    game = match.games.get()
    with capture(execute=True):
        game_report_result(game_id=game.pk, user=players[0].user, places={"ann": 2, "bo": 3, "cy": 1})
    assert sorted(address for message in mail.outbox for address in message.to) == [
        "bo@example.org",
        "cy@example.org",
    ]
    assert "ann says game 1 of ann, bo and cy ended: cy 1st, ann 2nd, bo 3rd." in mail.outbox[0].body


def timed_claim_game(one: Player, two: Player) -> Game:
    """The open game of a match whose claims stand after an hour: its claim's email says when."""
    return match_create(players=[one.handle, two.handle], best_of=1, confirm_within=3600).games.get()


def deadline_words(game_id: int, zone: str) -> str:
    """The claim's deadline as a clock on the wall in that zone shows it, found without the email's code."""
    deadline = Game.objects.get(pk=game_id).confirm_by
    assert deadline is not None
    local = deadline.astimezone(ZoneInfo(zone))
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} ({zone})"


def test_a_time_in_an_email_is_in_its_recipients_zone_with_the_zone_named(alice, ben, capture) -> None:
    with_email(ben)
    user_time_zone_set(user=ben.user, name="Asia/Kolkata")  # +05:30 all year: never the UTC clock
    game = timed_claim_game(alice, ben)
    with capture(execute=True):
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    (message,) = to("ben@example.org")
    assert f"it stands at {deadline_words(game.pk, 'Asia/Kolkata')}." in message.body
    assert "UTC" not in message.body and "[[time:" not in message.body
    assert "[[time:" in OutboxEmail.objects.get().body, "the row keeps the instant; the zone is read at send time"


def test_a_recipient_without_a_zone_reads_utc(alice, ben, capture) -> None:
    with_email(alice)
    game = timed_claim_game(alice, ben)
    with capture(execute=True):
        game_report_result(game_id=game.pk, user=ben.user, winner="ben")
    (message,) = to("alice@example.org")
    assert f"it stands at {deadline_words(game.pk, 'UTC')}." in message.body


def test_the_words_of_a_time_name_the_day_and_the_zone() -> None:
    saturday = datetime(2026, 12, 5, 13, 0, tzinfo=UTC)
    assert email_time_words(saturday, "Europe/Berlin") == "Sat 5 Dec, 14:00 (Europe/Berlin)"
    assert email_time_words(saturday, None) == "Sat 5 Dec, 13:00 (UTC)"
    assert email_time_words(saturday, "Not/AZone") == "Sat 5 Dec, 13:00 (UTC)"
    marked = f"At {email_time(saturday)}; [[time:2030-13-45T00:00:00Z]] is no time."
    assert email_times_render(marked, "America/New_York") == (
        "At Sat 5 Dec, 08:00 (America/New_York); [[time:2030-13-45T00:00:00Z]] is no time."
    )
