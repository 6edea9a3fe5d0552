"""Pages bounded whatever the tournament's size: brackets by section, pages of standings and players,
sort orders, a cache that a result landing invalidates, and query counts that do not grow with the field."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.test import Client

from tests.factories import make_tournament, play, player
from tests.queries import database_queries
from tournaments.generators import Section, double_elimination, single_elimination
from tournaments.models import TournamentMatch
from web.drawing.bracket import WHOLE, bracket_sections

pytestmark = pytest.mark.django_db(transaction=True)


def players(count: int, prefix: str) -> list[Any]:
    return [player(f"{prefix}{n:03d}") for n in range(1, count + 1)]


def queries_of(client: Client, path: str) -> tuple[int, Any]:
    with database_queries() as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries), response


# --- Sections, pure ---------------------------------------------------------------------


@pytest.mark.parametrize("make", [single_elimination, double_elimination])
def test_every_match_of_a_big_bracket_is_in_exactly_one_section(make: Any) -> None:
    bracket = make(tuple(range(1, 129)))
    sections = bracket_sections(bracket)
    seen = Counter(key for section in sections for key in section.keys)
    assert set(seen) == {match.match_id for match in bracket.matches}
    assert set(seen.values()) == {1}
    # No section spans more than five rounds, and ids are unique.
    assert all(section.last_round - section.first_round < 5 for section in sections)
    assert len({section.id for section in sections}) == len(sections)


def test_a_128_single_elimination_splits_into_eight_regions_then_the_final_rounds() -> None:
    sections = bracket_sections(single_elimination(tuple(range(1, 129)), third_place=True))
    # Seven rounds: rounds 1-4 in eight regions of 15 matches, rounds 5-7 (and the third place) together.
    assert [(s.id, s.first_round, s.last_round, len(s.keys)) for s in sections] == [
        *((f"main-1-{n}", 1, 4, 15) for n in range(1, 9)),
        ("main-2-1", 5, 7, 8),
    ]
    assert sections[0].title == "Bracket, rounds 1\u20134, part 1 of 8"


def test_a_small_bracket_is_one_whole_section() -> None:
    bracket = double_elimination(tuple(range(1, 9)))
    assert [section.id for section in bracket_sections(bracket)] == [WHOLE]


def test_the_losers_bracket_is_sectioned_too() -> None:
    sections = bracket_sections(double_elimination(tuple(range(1, 129))))
    losers = [section for section in sections if section.section is Section.LOSERS]
    assert losers and all(len(section.keys) >= 1 for section in losers)
    assert sections[-1].section is Section.GRAND_FINAL


# --- The tournament page ------------------------------------------------------------------


@pytest.fixture
def big_bracket(organiser: Any) -> Any:
    return make_tournament(organiser, players(128, "s"), format="single_elimination", name="Big Cup")


def test_a_big_bracket_is_drawn_a_section_at_a_time_with_navigation(client: Client, big_bracket: Any) -> None:
    body = client.get(f"/tournaments/{big_bracket.pk}/").content.decode()
    assert 'data-role="bracket-sections"' in body
    assert body.count('class="bracket__match"') == 15  # one region: rounds 1-4 under one round-4 match
    assert "Bracket, rounds 1\u20134, part 1 of 8" in body
    assert len(re.findall(r'href="\?section=main-1-\d#bracket-title"', body)) == 8
    assert 'href="?section=main-2-1#bracket-title"' in body
    assert 'data-role="section-onward"' in body
    # Rounds are named from the bracket's real last round, not the section's.
    assert ">Round 4</text>" in body and ">Final</text>" not in body

    final = client.get(f"/tournaments/{big_bracket.pk}/?section=main-2-1").content.decode()
    assert final.count('class="bracket__match"') == 7
    assert ">Final</text>" in final and ">Quarter-finals</text>" in final
    assert 'aria-current="page" class="is-current">1</a>' in final

    # An unknown section is the default one, not an error.
    assert client.get(f"/tournaments/{big_bracket.pk}/?section=nope").status_code == 200


def test_the_home_page_shows_a_big_bracket_bounded(client: Client, big_bracket: Any) -> None:
    body = client.get("/").content.decode()
    assert 'data-role="featured-part"' in body
    assert body.count("bracket__box") <= 8  # the final rounds alone
    assert "128 players" in body


def test_page_query_counts_do_not_grow_with_the_field(organiser: Any) -> None:
    client = Client()
    counts = []
    for count, prefix in ((72, "a"), (128, "b")):
        cup = make_tournament(organiser, players(count, prefix), format="single_elimination", name=f"Cup {prefix}")
        swiss = make_tournament(organiser, players(count, f"w{prefix}"), format="swiss", name=f"Swiss {prefix}")
        cold = [queries_of(client, f"/tournaments/{t.pk}/")[0] for t in (cup, swiss)]
        warm = [queries_of(client, f"/tournaments/{t.pk}/?page=2&sort=name")[0] for t in (cup, swiss)]
        counts.append((cold, warm))
    assert counts[0] == counts[1]
    # Warm, what is the same for every visitor comes from the cache: a couple of queries are left.
    assert all(warm <= 4 for warm in counts[1][1])


def test_standings_paginate_and_sort(client: Client, organiser: Any) -> None:
    field = players(60, "p")
    swiss = make_tournament(organiser, field, format="swiss", name="Big Swiss")
    first = client.get(f"/tournaments/{swiss.pk}/")
    assert len(first.context["standings"].rows) == 50
    assert first.context["standings_pager"].paginator.num_pages == 2
    second = client.get(f"/tournaments/{swiss.pk}/?page=2")
    assert len(second.context["standings"].rows) == 10
    by_name = client.get(f"/tournaments/{swiss.pk}/?sort=name")
    handles = [row.player.handle for row in by_name.context["standings"].rows]
    assert handles == sorted(p.handle for p in field)[:50]
    by_seed = client.get(f"/tournaments/{swiss.pk}/?sort=seed&page=2")
    assert [row.player.handle for row in by_seed.context["standings"].rows] == [p.handle for p in field[50:]]
    # Entrants a page at a time too.
    assert len(first.context["entrants"]) == 50
    assert [e.seed for e in client.get(f"/tournaments/{swiss.pk}/?entrants=2").context["entrants"]] == list(
        range(51, 61)
    )


def test_the_standings_api_paginates(client: Client, organiser: Any) -> None:
    swiss = make_tournament(organiser, players(60, "q"), format="swiss", name="Api Swiss")
    page = client.get(f"/api/tournaments/{swiss.pk}/standings/?limit=20&offset=40&sort=name").json()
    assert page["count"] == 60 and len(page["rows"]) == 20
    assert page["next"] is None and "offset=20" in page["previous"]
    assert [row["player"] for row in page["rows"]] == [f"q{n:03d}" for n in range(41, 61)]
    assert page["kind"] == "table" and page["tie_breaks"]
    assert client.get(f"/api/tournaments/{swiss.pk}/standings/?sort=shoe-size").status_code == 400


def test_the_player_list_paginates_and_sorts(client: Client) -> None:
    made = players(60, "m")
    first = client.get("/players/")
    assert len(first.context["players"]) == 50 and first.context["pager"].paginator.count == 60
    second = client.get("/players/?page=2")
    assert [p.handle for p in second.context["players"]] == [p.handle for p in made[50:]]
    newest = client.get("/players/?sort=newest")
    assert newest.context["players"][0].handle == "m060"
    assert client.get("/players/?sort=rating").status_code == 200
    # The pager's and the sorts' links keep the other parameters and change their own.
    body = client.get("/players/?q=m&sort=newest").content.decode()
    assert 'rel="next" href="?q=m&amp;sort=newest&amp;page=2"' in body
    assert "1\u201350 of 60 · page 1 of 2" in body and 'rel="prev"' not in body
    assert 'href="?q=m&amp;sort=rating&amp;page=1"' in body
    last = client.get("/players/?q=m&sort=newest&page=9").content.decode()  # past the end: the last page
    assert 'rel="prev" href="?q=m&amp;sort=newest&amp;page=1"' in last and "51\u201360 of 60" in last


# --- The cache and a result landing -------------------------------------------------------


def test_a_result_landing_invalidates_the_cached_page(client: Client, organiser: Any) -> None:
    field = players(4, "r")
    cup = make_tournament(organiser, field, format="single_elimination", name="Little Cup")
    before = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "bracket__slot--won" not in before
    assert client.get(f"/tournaments/{cup.pk}/").content.decode().count("bracket__slot--won") == 0  # cached
    pairing = TournamentMatch.objects.get(tournament=cup, key="R1-1")
    play(organiser, pairing, pairing.player_one)
    after = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert after.count("bracket__slot--won") == 1
    assert client.get("/").content.decode().count("bracket__slot--won") == 1  # the home page's panel too
