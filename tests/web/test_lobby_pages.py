"""The lobby (`/play/`) through Django's test client: posting, accepting and cancelling a game, the live tables."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches.models import Player
from play.models import Seek, Table
from play.services import seek_create, table_practice_create
from tests.factories import PASSWORD, make_player

pytestmark = pytest.mark.django_db


def signed_in(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.handle, password=PASSWORD)
    return client


def test_a_game_posted_is_accepted_and_both_are_sent_to_one_table(alice: Player, ben: Player, carol: Player) -> None:
    page = signed_in(alice).get("/play/").content.decode()
    assert 'data-role="seek-form"' in page and 'data-role="practice-form"' in page
    assert "No game is open just now" in page
    posted = signed_in(alice).post("/play/seeks/", {"seek-ruleset": "california", "seek-kind": "casual"})
    assert posted.status_code == 302 and posted["Location"] == "/play/"
    seek = Seek.objects.get()
    assert (seek.ruleset_name, seek.rated) == ("california", False)

    mine = signed_in(alice).get("/play/").content.decode()
    assert "Waiting for an opponent: California, casual" in mine
    assert 'data-live-region="mine-open"' in mine  # its state in its name: a change redraws the whole page
    assert f'action="/play/seeks/{seek.pk}/cancel/"' in mine and 'data-role="seek-form"' not in mine
    assert f'action="/play/seeks/{seek.pk}/accept/"' not in mine  # not one's own

    theirs = signed_in(ben).get("/play/").content.decode()
    assert f'action="/play/seeks/{seek.pk}/accept/"' in theirs and "California · casual" in theirs
    accepted = signed_in(ben).post(f"/play/seeks/{seek.pk}/accept/")
    table = Table.objects.get()
    assert accepted["Location"] == f"/tables/{table.pk}/"

    gone = signed_in(alice).get("/play/").content.decode()
    assert f'data-go="/tables/{table.pk}/"' in gone and "ben accepted your game" in gone
    assert 'data-live-region="mine-taken"' in gone and 'data-role="seek-form"' not in gone
    late = signed_in(carol).post(f"/play/seeks/{seek.pk}/accept/", follow=True)
    assert late.redirect_chain[-1][0] == "/play/"
    assert "This game has been taken" in late.content.decode()
    assert Table.objects.count() == 1


def test_a_player_cancels_their_game(alice: Player) -> None:
    client = signed_in(alice)
    client.post("/play/seeks/", {"seek-ruleset": "speed", "seek-kind": "rated"})
    seek = Seek.objects.get()
    assert client.post(f"/play/seeks/{seek.pk}/cancel/")["Location"] == "/play/"
    seek.refresh_from_db()
    assert seek.status == Seek.Status.CANCELLED
    assert 'data-role="seek-form"' in client.get("/play/").content.decode()


def test_a_refused_post_says_why(alice: Player) -> None:
    client = signed_in(alice)
    bad = client.post("/play/seeks/", {"seek-ruleset": "team", "seek-kind": "rated"})  # four seats
    assert bad.status_code == 400 and not Seek.objects.exists()
    table = table_practice_create(user=alice.user, ruleset="speed", bots=["easy"])
    refused = client.post("/play/seeks/", {"seek-ruleset": "speed", "seek-kind": "rated"}, follow=True)
    assert f"You have a seat at table {table.pk}" in refused.content.decode()
    assert not Seek.objects.exists()
    assert Client().post("/play/seeks/", {"seek-ruleset": "speed", "seek-kind": "rated"}).status_code == 302


def test_live_tables_are_listed_with_their_players_and_cards_left(alice: Player, ben: Player) -> None:
    table = table_practice_create(user=ben.user, ruleset="speed", bots=["easy"])
    page = signed_in(alice).get("/play/").content.decode()
    row = re.search(rf'<li data-table-id="{table.pk}">.*?</li>', page, re.S)
    assert row is not None
    assert f'href="/tables/{table.pk}/"' in row.group(0)
    assert "ben <span" in row.group(0) and "bot-easy-1" in row.group(0)
    assert "(20 left)" in row.group(0)  # a hand of five and a draw pile of fifteen, before the first card
    Table.objects.filter(pk=table.pk).update(status=Table.Status.OVER)
    assert f'data-table-id="{table.pk}"' not in signed_in(alice).get("/play/").content.decode()


def test_the_newest_tables_are_listed_and_the_page_says_how_many_more(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("web.selectors.lobby.TABLES_SHOWN", 2)
    tables = [
        table_practice_create(user=make_player(f"solo{n}").user, ruleset="speed", bots=["easy"]) for n in range(3)
    ]
    page = signed_in(alice).get("/play/").content.decode()
    listed = [int(found) for found in re.findall(r'<li data-table-id="(\d+)">', page)]
    assert listed == [tables[2].pk, tables[1].pk]
    assert "And 1 more: the newest are shown first." in page


def test_the_page_reads_a_fixed_number_of_queries(alice: Player) -> None:
    client = signed_in(alice)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/play/").status_code == 200
        return len(queries)

    others = [make_player(f"seeker{index}") for index in range(4)]
    seek_create(user=others[0].user, ruleset="speed", rated=True)
    table_practice_create(user=others[1].user, ruleset="speed", bots=["easy"])
    few = count()
    for player in others[2:]:
        seek_create(user=player.user, ruleset="speed", rated=False)
        table_practice_create(user=player.user, ruleset="california", bots=["hard"])
    assert count() == few


def test_the_lobby_poll_keeps_ones_game_listed_and_changes_with_the_lobby(alice: Player, ben: Player) -> None:
    client = signed_in(alice)
    client.post("/play/seeks/", {"seek-ruleset": "speed", "seek-kind": "rated"})
    seek = Seek.objects.get()
    before = seek.last_seen
    first = client.get("/live/?lobby")
    seek.refresh_from_db()
    assert seek.last_seen > before
    unchanged = client.get("/live/?lobby", HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304
    seek_create(user=ben.user, ruleset="speed", rated=True)
    assert client.get("/live/?lobby", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_the_solitaire_page_starts_a_run_at_a_table(alice: Player) -> None:
    assert 'data-role="play-solitaire"' not in Client().get("/solitaire/").content.decode()  # signed out
    client = signed_in(alice)
    page = client.get("/solitaire/").content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" data-role="play-solitaire">(.*?)</form>', page, re.S)
    assert form is not None
    fields = dict(re.findall(r'name="(ruleset|level)" value="([^"]+)"', form.group(2)))
    started = client.post(form.group(1), fields)
    table = Table.objects.get()
    assert started.status_code == 302 and started["Location"] == f"/tables/{table.pk}/"
    assert (table.ruleset_name, table.players, table.bots) == ("solitaire", ["alice"], [None])
