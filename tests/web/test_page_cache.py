"""What a warm page costs: its queries and its round trips to the cache, and that its cached parts are the page.

A page reads its tournament's cache through one reader (the generation once, the
entries and the parts' HTML together), so a warm page costs a fixed few round trips
whatever the field; the parts' HTML is what the page would render, and a result
landing replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from tests.factories import make_player, make_players, make_tournament, play, ready
from tests.queries import database_queries
from tournaments.models import TournamentMatch
from web.selectors.tournament_page import PageLoader, bracket_index

pytestmark = pytest.mark.django_db(transaction=True)


class RoundTrips:
    """Counts the calls that reach the cache (each one round trip to Redis in production).

    Only the outermost: local memory's `get_many` calls its `get` for each key, where Redis sends one command.
    """

    def __init__(self) -> None:
        self.count = 0
        self.depth = 0


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[RoundTrips]:
    counter = RoundTrips()
    backend = caches["default"]
    for name in ("get", "get_many", "set", "add", "set_many", "delete"):
        method = getattr(backend, name)

        def counted(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
            counter.count += counter.depth == 0
            counter.depth += 1
            try:
                return _method(*args, **kwargs)
            finally:
                counter.depth -= 1

        monkeypatch.setattr(backend, name, counted)
    yield counter


def warm(client: Client, path: str, round_trips: RoundTrips) -> tuple[int, int, str]:
    """The page's queries, round trips to the cache and HTML on a second visit (the first one fills the cache)."""
    cold = client.get(path)
    assert cold.status_code == 200
    round_trips.count = 0
    with database_queries() as queries:
        response = client.get(path)
    assert response.status_code == 200
    assert response.content == cold.content, f"{path}: the cached parts differ from the page drawn afresh"
    return len(queries), round_trips.count, response.content.decode()


def test_a_warm_tournament_page_is_one_query_and_at_most_three_round_trips(
    client: Client, organiser: Any, round_trips: RoundTrips
) -> None:
    cup = make_tournament(organiser, make_players(72, "c"), format="single_elimination", name="Big Cup")
    swiss = make_tournament(organiser, make_players(60, "s"), format="swiss", name="Big Swiss")
    for pairing in ready(swiss)[:3]:
        play(organiser, pairing, pairing.player_one)
    index = bracket_index(PageLoader(cup))
    assert index is not None and len(index.sections) > 2
    paths = [
        f"/tournaments/{cup.pk}/",
        f"/tournaments/{cup.pk}/?section={index.sections[1].id}",
        f"/tournaments/{cup.pk}/?section={index.sections[1].id}&page=2",  # the navigation is drawn, not cached
        f"/tournaments/{cup.pk}/embed/",
        f"/tournaments/{swiss.pk}/",
        f"/tournaments/{swiss.pk}/?page=2&sort=name",
        f"/tournaments/{swiss.pk}/?rounds=1&entrants=2",
        f"/tournaments/{swiss.pk}/embed/?sort=rating",
    ]
    for path in paths:
        queries, trips, _ = warm(client, path, round_trips)
        # The tournament's row and, on the full page of a running event, its live tables (one bounded
        # query: play changes no generation, so they are never cached); everything else comes from the
        # cache: the generation, what the query names, and (on the default section) that section once
        # the index names it.
        expected = 1 if "/embed/" in path else 2
        assert (queries, trips <= 3) == (expected, True), (path, queries, trips)


def test_the_cached_parts_follow_a_result(client: Client, organiser: Any) -> None:
    players = make_players(4, "r")
    league = make_tournament(organiser, players, format="round_robin", name="Little League")
    path = f"/tournaments/{league.pk}/"

    def ready_badges(html: str) -> int:
        now = html.split('data-live-region="now"', 1)[1].split('data-live-region="standings"', 1)[0]
        return now.count('<span class="badge">Ready</span>')

    before = client.get(path).content.decode()
    assert client.get(path).content.decode() == before  # from the cache
    assert ready_badges(before) == len(ready(league)) > 0
    pairing = ready(league)[0]
    play(organiser, pairing, pairing.player_one)
    after = client.get(path).content.decode()
    assert ready_badges(after) == ready_badges(before) - 1  # the list of matches to call
    rounds = after.split('data-live-region="rounds"', 1)[1]
    assert rounds != before.split('data-live-region="rounds"', 1)[1]  # the page of rounds
    assert TournamentMatch.objects.get(pk=pairing.pk).status == TournamentMatch.Status.DECIDED


def test_a_warm_home_page_reads_nothing_and_a_few_round_trips(
    client: Client, organiser: Any, round_trips: RoundTrips
) -> None:
    make_tournament(organiser, make_players(72, "h"), format="single_elimination", name="Featured Cup")
    make_tournament(organiser, make_players(20, "t"), format="swiss", name="Featured Swiss")
    queries, trips, html = warm(client, "/", round_trips)
    assert "Featured Cup" in html and "Featured Swiss" in html
    # The site lists' generation and its entries; each featured tournament's generation and its entries.
    assert (queries, trips) == (0, 6)


def test_the_live_version_is_one_statement(client: Client, organiser: Any) -> None:
    players = make_players(4, "l")
    cup = make_tournament(organiser, players, format="single_elimination")
    with database_queries() as queries:
        first = client.get(f"/live/?tournament={cup.pk}").json()["version"]
    assert len(queries) == 1
    pairing = ready(cup)[0]
    play(organiser, pairing, pairing.player_one)
    assert client.get(f"/live/?tournament={cup.pk}").json()["version"] != first


def test_the_player_list_shows_ratings_and_a_dash_for_the_unrated(client: Client, organiser: Any) -> None:
    players = make_players(4, "p")
    cup = make_tournament(organiser, players, format="single_elimination")
    pairing = ready(cup)[0]
    play(organiser, pairing, pairing.player_one)
    with database_queries() as queries:
        html = client.get("/players/").content.decode()
    assert len(queries) == 2  # the count and the page
    with database_queries() as queries:
        assert client.get("/players/").content.decode() == html
    assert len(queries) == 0  # both from the site lists' cache
    cells = dict(re.findall(r'>(p\d+)</a></th>\s*<td>[^<]*</td>\s*<td class="num">([^<]*)</td>', html))
    rated = {pairing.player_one.handle, pairing.player_two.handle}
    assert set(cells) == {p.handle for p in players}
    assert all(cells[handle].isdigit() for handle in rated), cells
    assert all(cells[handle] == "—" for handle in set(cells) - rated), cells


def test_the_tournament_list_is_cached_and_follows_new_and_changed_tournaments(
    client: Client, organiser: Any, round_trips: RoundTrips
) -> None:
    players = make_players(4, "n")
    cup = make_tournament(organiser, players, format="single_elimination", name="First Cup")
    queries, trips, html = warm(client, "/tournaments/", round_trips)
    assert (queries, trips) == (0, 2)  # the site lists' generation, then the list and its HTML together
    assert "First Cup" in html
    make_tournament(organiser, players, format="round_robin", name="Second League", start=False)
    assert "Second League" in client.get("/tournaments/").content.decode()  # tournament_create invalidates
    decided = re.compile(r"First Cup.*?<strong[^>]*>(\d+)</strong> match", re.S)
    assert decided.search(client.get("/tournaments/").content.decode()).group(1) == "0"  # type: ignore[union-attr]
    pairing = ready(cup)[0]
    play(organiser, pairing, pairing.player_one)
    assert decided.search(client.get("/tournaments/").content.decode()).group(1) == "1"  # type: ignore[union-attr]


def test_a_new_player_and_a_new_rating_reach_the_cached_player_list(client: Client, organiser: Any) -> None:
    players = make_players(2, "q")
    assert "q03" not in client.get("/players/").content.decode()
    make_player("q03")  # through player_create
    html = client.get("/players/").content.decode()
    assert "q03" in html and "3 players" in html
    assert "—" in client.get("/players/?sort=rating").content.decode()
    cup = make_tournament(organiser, players, format="single_elimination")
    play(organiser, ready(cup)[0], players[0])
    rows = client.get("/players/?sort=rating").content.decode()
    assert re.search(r'>q01</a></th>\s*<td>[^<]*</td>\s*<td class="num">\d+</td>', rows)


def test_the_cached_parts_hold_nothing_of_the_visitor(client: Client, organiser: Any) -> None:
    players = make_players(4, "v")
    cup = make_tournament(organiser, players, format="single_elimination", name="Visitor Cup")
    signed_in = Client()
    signed_in.force_login(organiser)
    for path, theirs in ((f"/tournaments/{cup.pk}/", "Manage</a>"), ("/", 'href="/matches/new/"')):
        assert theirs not in client.get(path).content.decode(), path  # an anonymous visit fills the cache
        assert theirs in signed_in.get(path).content.decode(), path
        assert theirs not in client.get(path).content.decode(), path
