"""Running an event from the site: registration, check-in, bulk entry, re-seeding, calls, score entry, names.

Services are driven directly; pages through Django's test client (the browser
test in test_event_browser.py runs the whole event through real pages).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.test import Client

from core.errors import Conflict, Invalid, NotAllowed
from matches.models import Game, Match, Player
from tests.factories import PASSWORD, make_player, make_players, make_tournament, play, ready
from tournaments.models import Entrant, Registration, Tournament, TournamentMatch
from tournaments.services.registration import (
    bulk_lines_parse,
    entrant_check_in,
    entrants_add_bulk,
    entrants_reseed,
    registration_create,
    registration_decide,
    tournament_checkin_set,
    tournament_registration_set,
    tournament_start_checked,
)
from tournaments.services.running import match_score_enter, pairing_call
from web.presenters.names import pairing_names
from web.selectors.mine import my_page, waiting_count

pytestmark = pytest.mark.django_db


def _seeds(tournament: Tournament) -> list[tuple[str, int]]:
    return [(e.player.handle, e.seed) for e in Entrant.objects.filter(tournament=tournament).select_related("player")]


def test_registration_approval_and_check_in_drop_the_absent_at_the_start(organiser: Any) -> None:
    players = make_players(4, prefix="r")
    cup = make_tournament(organiser, [], format="single_elimination", start=False)
    with pytest.raises(Conflict):
        registration_create(tournament_id=cup.pk, user=players[0].user)  # closed until the organiser opens it
    tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    registrations = [registration_create(tournament_id=cup.pk, user=p.user) for p in players]
    registration_decide(registration_id=registrations[3].pk, user=organiser, approve=False)
    for registration in registrations[:3]:
        registration_decide(registration_id=registration.pk, user=organiser, approve=True)
    assert _seeds(cup) == [("r01", 1), ("r02", 2), ("r03", 3)]
    assert Registration.objects.get(pk=registrations[3].pk).status == Registration.Status.DECLINED
    with pytest.raises(Conflict):
        registration_create(tournament_id=cup.pk, user=players[3].user)  # declined stays declined

    with pytest.raises(Conflict):
        entrant_check_in(tournament_id=cup.pk, user=players[0].user)  # check-in not open yet
    tournament_checkin_set(tournament_id=cup.pk, user=organiser, open=True)
    entrant_check_in(tournament_id=cup.pk, user=players[0].user)
    entrant_check_in(tournament_id=cup.pk, user=organiser, handle="r03")  # the organiser's override
    start = tournament_start_checked(tournament_id=cup.pk, user=organiser)
    started, dropped = start.tournament, start.dropped
    assert (dropped, start.moved_up) == (["r02"], [])
    assert started.status == Tournament.Status.RUNNING
    assert _seeds(cup) == [("r01", 1), ("r03", 2)]  # seeds closed up


def test_only_organisers_decide_registrations(organiser: Any) -> None:
    one, two = make_players(2, prefix="q")
    cup = make_tournament(organiser, [], format="round_robin", start=False)
    tournament_registration_set(tournament_id=cup.pk, user=organiser, open=True)
    registration = registration_create(tournament_id=cup.pk, user=one.user)
    with pytest.raises(NotAllowed):
        registration_decide(registration_id=registration.pk, user=two.user, approve=True)


def test_a_pasted_list_enters_players_in_seed_order_creating_new_ones_without_a_login(organiser: Any) -> None:
    make_player("known")
    cup = make_tournament(organiser, [], format="single_elimination", start=False)
    entrants_add_bulk(
        tournament_id=cup.pk,
        lines=bulk_lines_parse("newbie, Nell Newbie\n\nknown\nfresh\tFrank Fresh\n"),
        user=organiser,
    )
    assert _seeds(cup) == [("newbie", 1), ("known", 2), ("fresh", 3)]
    newbie = Player.objects.select_related("user").get(handle="newbie")
    assert newbie.display_name == "Nell Newbie"
    assert newbie.user is not None and newbie.user.password.startswith(UNUSABLE_PASSWORD_PREFIX)
    with pytest.raises(Invalid, match="Line 2"):
        entrants_add_bulk(tournament_id=cup.pk, lines=bulk_lines_parse("other\nknown"), user=organiser)
    assert not Player.objects.filter(handle="other").exists()  # all or nothing


def test_reseeding_takes_every_entrant_once(organiser: Any) -> None:
    players = make_players(3, prefix="s")
    cup = make_tournament(organiser, players, format="single_elimination", start=False)
    entrants_reseed(tournament_id=cup.pk, handles=["s03", "S01", "s02"], user=organiser)
    assert _seeds(cup) == [("s03", 1), ("s01", 2), ("s02", 3)]
    with pytest.raises(Invalid, match="missing: s02"):
        entrants_reseed(tournament_id=cup.pk, handles=["s03", "s01"], user=organiser)


def test_calling_a_match_and_entering_its_score(organiser: Any) -> None:
    players = make_players(2, prefix="c")
    cup = make_tournament(organiser, players, format="single_elimination", best_of=3)
    (final,) = ready(cup)
    pairing_call(tournament_id=cup.pk, key=final.key, user=organiser, station="Table 2")
    final.refresh_from_db()
    assert (final.station, final.underway_at is not None) == ("Table 2", True)
    assert final.match_id is not None
    with pytest.raises(Invalid):
        match_score_enter(match_id=final.match_id, user=organiser, games_one=2, games_two=2, reason="typo")
    match = match_score_enter(match_id=final.match_id, user=organiser, games_one=1, games_two=2, reason="score sheet")
    assert match.status == Match.Status.FINISHED
    assert match.winner_id == players[1].pk
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [(g.winner_id, g.decided_by, g.reason) for g in games] == [
        (players[0].pk, "organiser", "score sheet"),
        (players[1].pk, "organiser", "score sheet"),
        (players[1].pk, "organiser", "score sheet"),
    ]
    final.refresh_from_db()
    assert final.status == TournamentMatch.Status.DECIDED
    with pytest.raises(Conflict):
        pairing_call(tournament_id=cup.pk, key=final.key, user=organiser)  # the final decided it: the cup is over


def test_a_player_cannot_enter_a_score(organiser: Any) -> None:
    players = make_players(2, prefix="d")
    cup = make_tournament(organiser, players, format="single_elimination")
    (final,) = ready(cup)
    assert final.match_id is not None
    with pytest.raises(NotAllowed):
        match_score_enter(match_id=final.match_id, user=players[0].user, games_one=1, games_two=0)


def test_pairings_are_named_in_words(organiser: Any) -> None:
    players = make_players(6, prefix="n")
    single = make_tournament(organiser, players, format="single_elimination", name="Single")
    names = pairing_names(TournamentMatch.objects.filter(tournament=single))
    assert set(names.values()) >= {"Final", "Semi-final 1", "Semi-final 2"}
    double = make_tournament(organiser, players[:4], format="double_elimination", name="Double")
    names = pairing_names(TournamentMatch.objects.filter(tournament=double))
    assert {"Winners' final", "Losers' round 1", "Losers' final", "Grand final"} <= set(names.values())
    swiss = make_tournament(organiser, players[:4], format="swiss", name="Swiss", swiss_rounds=2)
    names = pairing_names(TournamentMatch.objects.filter(tournament=swiss))
    assert sorted(names.values()) == ["Round 1, table 1", "Round 1, table 2"]


def test_my_page_lists_what_waits_on_me(organiser: Any, client: Client) -> None:
    players = make_players(2, prefix="m")
    cup = make_tournament(organiser, players, format="single_elimination")
    (final,) = ready(cup)
    assert waiting_count(user=players[0].user) == 1  # game 1 waits for a log
    page = my_page(player=players[0])
    assert [p.pk for p in page.next_matches] == [final.pk]
    assert len(page.to_log) == 1
    play(organiser, final, players[0])
    assert waiting_count(user=players[0].user) == 0
    assert my_page(player=players[0]).recent[0].pk == final.match_id
    client.login(username="m01", password=PASSWORD)
    response = client.get("/me/")
    assert response.status_code == 200
    assert b"Recent results" in response.content


def test_sign_up_checks_the_password_and_logs_in(client: Client) -> None:
    response = client.post(
        "/accounts/signup/", {"handle": "zoe", "display_name": "Zoe", "password1": "zoe", "password2": "zoe"}
    )
    assert response.status_code == 200
    assert not Player.objects.filter(handle="zoe").exists()
    assert "too short" in response.content.decode()
    good = "kettle-harbour-19"
    response = client.post(
        "/accounts/signup/", {"handle": "zoe", "display_name": "Zoe", "password1": good, "password2": good}
    )
    assert response["Location"] == "/me/"
    assert client.get("/me/").context["page"].player.handle == "zoe"


def test_an_invite_link_lets_a_player_created_without_a_login_claim_it(organiser: Any, client: Client) -> None:
    cup = make_tournament(organiser, [], format="single_elimination", start=False)
    entrants_add_bulk(tournament_id=cup.pk, lines=bulk_lines_parse("walkin, Walk In"), user=organiser)
    client.force_login(organiser)
    link = client.get(f"/organise/tournaments/{cup.pk}/invite/walkin/").context["link"]
    client.logout()
    path = link.split("testserver", 1)[1]
    password = "lantern-quarry-77"
    response = client.post(path, {"new_password1": password, "new_password2": password})
    assert response["Location"] == "/me/"
    assert Client().login(username="walkin", password=password)
    assert client.get(path).status_code == 404  # used once


def test_the_live_version_answers_304_when_nothing_changed(organiser: Any, client: Client) -> None:
    players = make_players(2, prefix="v")
    cup = make_tournament(organiser, players, format="single_elimination")
    first = client.get(f"/live/?tournament={cup.pk}")
    etag = first["ETag"]
    assert first.json()["version"] in etag
    assert client.get(f"/live/?tournament={cup.pk}", HTTP_IF_NONE_MATCH=etag).status_code == 304
    play(organiser, ready(cup)[0], players[0])
    changed = client.get(f"/live/?tournament={cup.pk}", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_standings_show_a_dash_before_any_game(organiser: Any, client: Client) -> None:
    players = make_players(4, prefix="t")
    table = make_tournament(organiser, players, format="round_robin")
    content = client.get(f"/tournaments/{table.pk}/").content.decode()
    assert f"<title>{table.name} · Speed</title>" in content
    assert "1-4" not in content
    assert "0.0%" not in content
    assert "Up next" in content
    assert "Underway" not in content
    pairing = ready(table)[0]
    pairing_call(tournament_id=table.pk, key=pairing.key, user=organiser, station="Table 9")
    content = client.get(f"/tournaments/{table.pk}/").content.decode()
    assert "Underway" in content
    assert "Table 9" in content


def test_the_embed_may_be_framed_by_other_sites(organiser: Any, client: Client) -> None:
    players = make_players(4, prefix="e")
    cup = make_tournament(organiser, players, format="single_elimination")
    response = client.get(f"/tournaments/{cup.pk}/embed/")
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    assert b"data-bracket" in response.content
