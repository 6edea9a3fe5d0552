"""A tournament's page lists its live tables ("At the tables now"), bounded, read in one query on every visit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from matches.models import Game
from play.models import Table
from play.services import table_open_for_game, table_practice_create
from tests.factories import make_player, make_players, make_tournament, ready
from tests.queries import database_queries
from tournaments.models import Tournament, TournamentMatch
from web.selectors.tournament_page import TABLES_SHOWN

pytestmark = pytest.mark.django_db


def _open_tables(organiser: Any, pairings: list[TournamentMatch]) -> list[Table]:
    tables = []
    for pairing in pairings:
        game = Game.objects.get(match_id=pairing.match_id, number=1)
        tables.append(table_open_for_game(game_id=game.pk, user=organiser)[0])
    return tables


def _rows(html: str) -> dict[int, str]:
    section = re.search(r'<section[^>]*data-role="tables-now".*?</section>', html, re.S)
    if section is None:
        return {}
    return {int(found[0]): found[1] for found in re.findall(r'<li data-table-id="(\d+)">(.*?)</li>', section[0], re.S)}


def _warm(client: Client, path: str) -> tuple[int, str]:
    assert client.get(path).status_code == 200  # fills the cache
    with database_queries() as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_live_tables_are_listed_with_players_and_cards_left_linking_to_each_table(
    client: Client, organiser: Any
) -> None:
    cup = make_tournament(organiser, make_players(8, "c"), format="single_elimination", name="Cup")
    other = make_tournament(organiser, make_players(4, "o"), format="single_elimination", name="Other")
    pairings = ready(cup)
    first, second = _open_tables(organiser, pairings[:2])
    _open_tables(organiser, ready(other)[:1])  # another event's table: not this page's
    table_practice_create(user=make_player("solo").user, ruleset="speed", bots=["easy"])  # nor a practice one
    Table.objects.filter(pk=second.pk).update(status=Table.Status.OVER)  # a finished table is not live
    rows = _rows(client.get(f"/tournaments/{cup.pk}/").content.decode())
    assert list(rows) == [first.pk]
    row = rows[first.pk]
    assert f'href="/tables/{first.pk}/"' in row
    one, two = pairings[0].player_one, pairings[0].player_two
    assert one is not None and two is not None
    assert f"{one.handle} <span" in row and f"{two.handle} <span" in row
    assert row.count("(20 left)") == 2  # a hand of five and a draw pile of fifteen each, before the first card


def test_the_list_is_bounded_and_its_query_the_same_however_many_tables(client: Client, organiser: Any) -> None:
    field = make_players(64, "f")  # 32 first-round pairings, no byes
    cup = make_tournament(organiser, field, format="single_elimination", name="Big Cup")
    pairings = ready(cup)
    assert len(pairings) >= TABLES_SHOWN + 5
    path = f"/tournaments/{cup.pk}/"
    none_yet, html = _warm(client, path)
    assert _rows(html) == {}
    _open_tables(organiser, pairings[:2])
    few, html = _warm(client, path)
    assert len(_rows(html)) == 2
    assert few == none_yet  # the table's read is made whether or not a table is live
    many = _open_tables(organiser, pairings[2 : TABLES_SHOWN + 5])
    queries, html = _warm(client, path)
    assert queries == few
    listed = _rows(html)
    assert list(listed) == sorted(listed, reverse=True) and len(listed) == TABLES_SHOWN  # the newest first
    assert many[-1].pk in listed
    assert re.search(r'data-role="tables-now-more">and 5 more<', html)


def test_no_read_of_tables_before_or_after_the_event_runs(client: Client, organiser: Any) -> None:
    planned = make_tournament(organiser, make_players(4, "s"), format="single_elimination", name="Later", start=False)
    path = f"/tournaments/{planned.pk}/"
    with database_queries() as queries:
        assert client.get(path).status_code == 200
    assert not any('"play_table"' in sql for sql in queries)
    Tournament.objects.filter(pk=planned.pk).update(status=Tournament.Status.RUNNING)
    with database_queries() as queries:
        assert client.get(path).status_code == 200
    assert any('"play_table"' in sql for sql in queries)


def test_the_pages_live_version_follows_a_table_opening_and_ending(client: Client, organiser: Any) -> None:
    cup = make_tournament(organiser, make_players(4, "v"), format="single_elimination", name="Versions")

    def version() -> str:
        with database_queries() as queries:
            answer = client.get(f"/live/?tournament={cup.pk}")
        assert len(queries) == 1  # still one statement
        return str(answer.json()["version"])

    before = version()
    (table,) = _open_tables(organiser, ready(cup)[:1])
    opened = version()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)
    ended = version()
    assert opened not in (before, ended)
    assert ended == before  # no table live again: the page shows what it showed before
