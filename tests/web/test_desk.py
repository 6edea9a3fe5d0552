"""The organiser's queue: disputes, claims, registrations and matches underway, with the navigation's count."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from matches.models import Game
from matches.services import game_dispute_claim, game_report_result
from tests.factories import PASSWORD, make_match, make_player, make_players, make_tournament, ready
from tests.queries import database_queries
from tournaments.models import Registration
from tournaments.services.registration import registration_create, tournament_registration_set
from tournaments.services.running import pairing_call
from web.selectors import desk as desk_reads
from web.selectors.desk import desk, desk_count, desk_counts_by_tournament

pytestmark = pytest.mark.django_db


def _event(organiser: Any) -> dict[str, Any]:
    """A running cup of four (one game disputed, one claimed, one called), and a cup taking registrations."""
    players = make_players(4, prefix="d")
    cup = make_tournament(organiser, players, format="single_elimination", name="Winter cup")
    one, two = ready(cup)
    disputed = Game.objects.get(match_id=one.match_id)
    game_report_result(game_id=disputed.pk, user=players[0].user, winner=players[0].handle)
    game_dispute_claim(game_id=disputed.pk, user=players[3].user, reason="I won")
    claimed = Game.objects.get(match_id=two.match_id)
    game_report_result(game_id=claimed.pk, user=players[1].user, winner=players[1].handle)
    pairing_call(tournament_id=cup.pk, key=two.key, user=organiser, station="Table 4")
    spring = make_tournament(organiser, [], format="round_robin", name="Spring open", start=False)
    tournament_registration_set(tournament_id=spring.pk, user=organiser, open=True)
    zed = make_player("zed")
    registration = registration_create(tournament_id=spring.pk, user=zed.user)
    return {"cup": cup, "spring": spring, "disputed": disputed, "claimed": claimed, "registration": registration}


def test_the_desk_lists_each_kind_across_the_tournaments_and_per_tournament(organiser: Any) -> None:
    event = _event(organiser)
    everything = desk()
    assert [g.pk for g in everything.disputes] == [event["disputed"].pk]
    assert [g.pk for g in everything.claims] == [event["claimed"].pk]
    assert [r.pk for r in everything.registrations] == [event["registration"].pk]
    assert [p.match_id for p in everything.underway] == [event["claimed"].match_id]
    assert everything.needs_you == 2
    spring = desk(tournament_id=event["spring"].pk)
    assert (spring.disputes.paginator.count, spring.claims.paginator.count) == (0, 0)
    assert spring.registrations.paginator.count == 1
    counts = desk_counts_by_tournament(tournament_ids=[event["cup"].pk, event["spring"].pk])
    cup = counts[event["cup"].pk]
    assert (cup.disputes, cup.claims, cup.registrations, cup.underway, cup.needs_you) == (1, 1, 0, 1, 1)
    assert counts[event["spring"].pk].needs_you == 1


def test_a_casual_dispute_is_on_the_desk_but_a_casual_claim_is_not(organiser: Any) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    disputed, claimed = (make_match(alice, ben).games.get() for _ in range(2))
    for game in (disputed, claimed):
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
    game_dispute_claim(game_id=disputed.pk, user=ben.user, reason="no")
    found = desk()
    assert [g.pk for g in found.disputes] == [disputed.pk]
    assert found.claims.paginator.count == 0


def test_the_desk_is_nine_queries_and_the_nav_count_one(organiser: Any, django_assert_num_queries: Any) -> None:
    _event(organiser)
    with django_assert_num_queries(9):
        found = desk()
        for page in (found.disputes, found.claims, found.registrations, found.underway):
            for row in page:
                str(row)
        for game in found.disputes:
            assert game.match.tournament_match.tournament.name == "Winter cup"
    organiser.refresh_from_db()  # a fresh user: the organiser check is one query of its own
    assert desk_count(user=organiser) == 2
    with django_assert_num_queries(1):
        assert desk_count(user=organiser) == 2
    assert desk_count(user=AnonymousUser()) == 0


def test_a_long_list_is_paged(organiser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(desk_reads, "PER_PAGE", 2)
    alice, ben = make_player("alice"), make_player("ben")
    for _ in range(3):
        game = make_match(alice, ben).games.get()
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
        game_dispute_claim(game_id=game.pk, user=ben.user, reason="no")
    first, second = desk().disputes, desk(pages={"disputes": 2}).disputes
    assert (len(first), len(second), first.paginator.count) == (2, 1, 3)


def test_the_pages_show_the_queue_and_the_badge_one_click_from_each_action(organiser: Any) -> None:
    event = _event(organiser)
    client = Client()
    client.login(username=organiser.get_username(), password=PASSWORD)
    page = client.get("/organise/").content.decode()
    assert 'data-role="desk-count"' in page and ">2<" in page  # the nav's badge
    assert f'href="/matches/{event["disputed"].match_id}/#enter-title" data-role="settle"' in page
    assert "zed · Spring open" in page
    manage = client.get(f"/organise/tournaments/{event['cup'].pk}/").content.decode()
    assert "1 dispute</a>" in manage and "1 claim to confirm</a>" in manage and "1 underway</a>" in manage
    # Approving from the desk returns to the desk.
    response = client.post(
        f"/organise/tournaments/{event['spring'].pk}/",
        {"action": "approve", "registration": event["registration"].pk, "next": "/organise/"},
    )
    assert response["Location"] == "/organise/"
    assert Registration.objects.get(pk=event["registration"].pk).status == Registration.Status.APPROVED


def test_players_see_no_desk_badge(organiser: Any) -> None:
    _event(organiser)
    client = Client()
    client.login(username="d01", password=PASSWORD)
    assert 'data-role="desk-count"' not in client.get("/me/").content.decode()


def test_the_desk_page_reads_as_many_queries_for_one_dispute_as_for_five(organiser: Any) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    client = Client()
    client.login(username=organiser.get_username(), password=PASSWORD)

    def dispute() -> None:
        game = make_match(alice, ben).games.get()
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
        game_dispute_claim(game_id=game.pk, user=ben.user, reason="no")

    def page_queries() -> int:
        with database_queries() as queries:
            assert client.get("/organise/").status_code == 200
        return len(queries)

    dispute()
    one = page_queries()
    for _ in range(4):
        dispute()
    assert page_queries() == one
