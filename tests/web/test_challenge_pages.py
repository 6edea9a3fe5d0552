"""Challenges on the site through Django's test client: the form, My matches' lists and buttons, a player's page.

The pages hand their fields to `matches.services.challenge_*`; these tests read
what they did back from the database and from the pages that follow.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from matches.models import Challenge, Match, Player
from matches.services import challenge_create
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


def said(response: Any) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def text(response: Any) -> str:
    """The page's words, tags left out."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


def form(challenged: str = "ben", **more: str) -> dict[str, str]:
    return {"challenged": challenged, "ruleset": "speed", "series": "best_of", "series_length": "3", **more}


def test_a_players_new_match_page_is_the_challenge_form(alice: Player, ben: Player) -> None:
    page = signed_in(alice.user).get("/matches/new/?challenged=ben").content.decode()
    assert "<h1>Challenge a player</h1>" in page
    assert re.search(r'<input[^>]*name="challenged"[^>]*value="ben"', page)  # from the player's page link
    assert '<option value="ben">' in page and '<option value="alice">' not in page  # not oneself
    assert '<option value="spit"' in page and '<option value="three-way"' not in page  # two-player rulesets only
    response = signed_in(alice.user).post("/matches/new/", form(series="first_to", series_length="2"))
    assert response.status_code == 302 and response["Location"] == "/me/"
    made = Challenge.objects.get()
    assert (made.challenger, made.challenged, made.series, made.series_length) == (alice, ben, "first_to", 2)
    assert said(response) == ["Challenge sent to ben: the match is made when they accept."]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        (form("alice"), "challenged", "cannot challenge yourself"),
        (form("nobody"), "challenged", "No player with handle 'nobody'"),
        (form(series_length="4"), "series_length", "best_of must be odd"),
        (form(ruleset="spit", time_limit_seconds="60"), "time_limit_seconds", "Spit"),
        (form(ruleset="three-way"), "ruleset", "Select a valid choice"),
    ],
)
def test_errors_land_by_the_field_they_name(alice: Player, ben: Player, fields: Any, field: str, words: str) -> None:
    response = signed_in(alice.user).post("/matches/new/", fields)
    assert response.status_code == 200
    errors = {name: " ".join(errors) for name, errors in response.context["form"].errors.items()}
    assert list(errors) == [field] and words in errors[field], errors
    assert not Challenge.objects.exists()


def test_my_matches_lists_them_with_their_buttons_and_accept_goes_to_the_match(alice: Player, ben: Player) -> None:
    made = challenge_create(user=alice.user, challenged="ben", best_of=3)
    mine = signed_in(ben.user).get("/me/")
    assert "alice challenges you" in text(mine) and "Best of 3 · Speed" in text(mine)
    assert f'action="/challenges/{made.pk}/accept/"' in mine.content.decode()
    assert f'action="/challenges/{made.pk}/decline/"' in mine.content.decode()
    theirs = signed_in(alice.user).get("/me/")
    assert "You challenged ben" in text(theirs)
    assert f'action="/challenges/{made.pk}/withdraw/"' in theirs.content.decode()
    assert "/accept/" not in theirs.content.decode()

    response = signed_in(ben.user).post(f"/challenges/{made.pk}/accept/")
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert said(response) == ["You accepted alice's challenge: game 1 is open."]
    assert "Play at a table: game 1" in signed_in(ben.user).get(response["Location"]).content.decode()
    after = signed_in(alice.user).get("/me/")
    assert "ben accepted your challenge" in text(after)
    assert f'href="/matches/{match.pk}/">To the match' in after.content.decode()


def test_decline_and_withdraw_from_my_matches(alice: Player, ben: Player) -> None:
    made = challenge_create(user=alice.user, challenged="ben", best_of=3)
    response = signed_in(ben.user).post(f"/challenges/{made.pk}/decline/")
    assert response["Location"] == "/me/" and said(response) == ["You declined alice's challenge."]
    assert "ben declined your challenge" in text(signed_in(alice.user).get("/me/"))
    again = challenge_create(user=alice.user, challenged="ben", best_of=1)
    response = signed_in(alice.user).post(f"/challenges/{again.pk}/withdraw/")
    assert said(response) == ["Your challenge to ben is withdrawn."]
    assert dict(Challenge.objects.values_list("pk", "status")) == {made.pk: "declined", again.pk: "withdrawn"}
    assert "You challenged ben" not in text(signed_in(alice.user).get("/me/"))
    assert not Match.objects.exists()


def test_a_refused_answer_says_why_and_changes_nothing(alice: Player, ben: Player, carol: Player) -> None:
    made = challenge_create(user=alice.user, challenged="ben", best_of=3)
    response = signed_in(carol.user).post(f"/challenges/{made.pk}/accept/")
    assert response["Location"] == "/me/"
    assert said(response) == ["Only ben, who was challenged, can accept this challenge."]
    signed_in(ben.user).post(f"/challenges/{made.pk}/decline/")
    late = signed_in(ben.user).post(f"/challenges/{made.pk}/accept/")
    assert said(late) == ["This challenge is already declined, so it cannot be accepted."]
    assert Challenge.objects.get().status == "declined" and not Match.objects.exists()
    assert Client().post(f"/challenges/{made.pk}/accept/")["Location"].startswith("/accounts/login/")
    assert signed_in(ben.user).get(f"/challenges/{made.pk}/accept/").status_code == 405


def test_a_players_page_offers_challenge_to_other_players_only(alice: Player, ben: Player) -> None:
    link = 'href="/matches/new/?challenged=ben"'
    assert link in signed_in(alice.user).get("/players/ben/").content.decode()
    assert link not in signed_in(ben.user).get("/players/ben/").content.decode()  # not oneself
    assert link not in Client().get("/players/ben/").content.decode()  # visitors sign in first
    assert link not in signed_in(make_user(organiser=True)).get("/players/ben/").content.decode()  # makes matches


def test_the_nav_says_challenge_to_players_and_new_match_to_organisers(alice: Player) -> None:
    assert ">Challenge</a>" in signed_in(alice.user).get("/").content.decode()
    organiser_home = signed_in(make_user(organiser=True)).get("/").content.decode()
    assert ">New match</a>" in organiser_home and ">Challenge</a>" not in organiser_home


def test_the_emails_can_be_turned_off_in_the_settings(alice: Player) -> None:
    page = text(signed_in(alice.user).get("/accounts/notifications/"))
    assert "A player challenges me to a match" in page and "A player accepts or declines my challenge" in page
