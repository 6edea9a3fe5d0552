"""The match page: a claim shows who says what, the opponent confirms or disputes there, the history is listed."""

import pytest
from django.test import Client

from matches.models import Game
from matches.services import game_report_result, game_set_result, match_annul, organiser_grant
from tests.factories import PASSWORD, make_match

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


def test_the_opponent_confirms_on_the_match_page(alice, ben) -> None:
    match = make_match(alice, ben, best_of=3)
    game = game_report_result(game_id=match.games.get().pk, user=alice.user, winner="alice")
    page = logged_in(alice.user).get(f"/matches/{match.pk}/").content.decode()
    assert "Awaiting confirmation" in page and 'data-role="claim"' in page
    assert f"/games/{game.pk}/confirm/" not in page  # alice's own claim: she cannot confirm it
    assert f"/games/{game.pk}/dispute/" not in page  # nor is she offered to dispute it: the other side does
    ben_page = logged_in(ben.user).get(f"/matches/{match.pk}/").content.decode()
    assert f"/games/{game.pk}/confirm/" in ben_page
    response = logged_in(ben.user).post(f"/games/{game.pk}/confirm/")
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.DECIDED
    after = logged_in(ben.user).get(f"/matches/{match.pk}/").content.decode()
    assert "Confirmed" in after and "Evidence submitted" in after  # both changes in the history


def test_an_organiser_who_plays_gets_no_confirm_button_for_their_own_claim(alice, ben) -> None:
    organiser_grant(user=alice.user)
    match = make_match(alice, ben, best_of=3)
    game = game_report_result(game_id=match.games.get().pk, user=alice.user, winner="alice")
    page = logged_in(alice.user).get(f"/matches/{match.pk}/").content.decode()
    assert f"/games/{game.pk}/confirm/" not in page
    assert logged_in(alice.user).post(f"/games/{game.pk}/confirm/").status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION


def test_a_dispute_needs_a_reason_and_is_shown(alice, ben) -> None:
    match = make_match(alice, ben)
    game = game_report_result(game_id=match.games.get().pk, user=alice.user, winner="alice")
    client = logged_in(ben.user)
    client.post(f"/games/{game.pk}/dispute/", {"reason": ""})
    assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION
    client.post(f"/games/{game.pk}/dispute/", {"reason": "The last card was mine"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.DISPUTED
    assert "The last card was mine" in client.get(f"/matches/{match.pk}/").content.decode()


def test_strangers_see_no_buttons_and_cannot_confirm(alice, ben, carol) -> None:
    match = make_match(alice, ben)
    game = game_report_result(game_id=match.games.get().pk, user=alice.user, winner="alice")
    anonymous = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f"/games/{game.pk}/confirm/" not in anonymous and "Submit a log for game" not in anonymous
    assert logged_in(carol.user).post(f"/games/{game.pk}/confirm/").status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION


def test_an_annulled_match_crowns_nobody_and_says_why(organiser, alice, ben) -> None:
    match = make_match(alice, ben, best_of=1)
    game_set_result(game_id=match.games.get().pk, user=organiser, winner="alice")
    before = Client().get(f"/matches/{match.pk}/").content.decode()
    assert 'aria-label="Winner"' in before and 'data-role="annulled"' not in before
    match_annul(match_id=match.pk, correction_id=7, made_by=organiser, reason="R1-2 was corrected")
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert 'aria-label="Winner"' not in page
    assert 'data-role="annulled"' in page and "R1-2 was corrected" in page
    assert "<title>alice v ben" in page and "</div></title>" not in page.replace(" ", "").replace("\n", "")
