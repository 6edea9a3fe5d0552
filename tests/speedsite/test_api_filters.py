"""Every query parameter the schema lists does what it says: each filter narrows, each sort sorts.

`CASES` holds one test per (path, parameter) of the schema; a parameter added to the
schema without a case here fails `test_every_listed_parameter_has_a_case`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest
from drf_spectacular.generators import SchemaGenerator

from matches.models import Match
from matches.services import game_set_result
from speedrules import simulate
from tests.factories import make_match, make_player, make_players, make_tournament, play, ready

pytestmark = pytest.mark.django_db

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
#: The parameters that window a list or a log's steps rather than filter it; tests/replays/test_steps_api.py
#: and the pagination tests read pages and chunks through them.
WINDOWS = {"limit", "offset", "from", "count"}


def ids_of(response: Any) -> list[int]:
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


def decided(match: Match, winner: str, organiser: Any) -> Match:
    for game in match.games.order_by("number"):
        game_set_result(game_id=game.pk, user=organiser, winner=winner)
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
    return match


def matches_status(anon: Any, organiser: Any) -> None:
    one, two, three = make_players(3)
    finished = decided(make_match(one, two, best_of=1), one.handle, organiser)
    running = make_match(two, three, best_of=1)
    assert ids_of(anon.get("/api/matches/?status=finished")) == [finished.pk]
    assert ids_of(anon.get("/api/matches/?status=in_progress")) == [running.pk]
    assert len(ids_of(anon.get("/api/matches/?status="))) == 2  # empty: every status


def matches_player(anon: Any, organiser: Any) -> None:
    one, two, three, four = make_players(4)
    make_match(one, two)
    theirs = make_match(three, four)
    assert ids_of(anon.get(f"/api/matches/?player={three.handle.upper()}")) == [theirs.pk]


def matches_tournament(anon: Any, organiser: Any) -> None:
    tournament = make_tournament(organiser, make_players(4), format="single_elimination")
    other = make_tournament(organiser, make_players(4, prefix="q"), format="single_elimination")
    friendly = make_match(make_player("f1"), make_player("f2"))
    pairings = set(tournament.pairings.exclude(match=None).values_list("match_id", flat=True))
    assert len(pairings) == 2
    listed = anon.get(f"/api/matches/?tournament={tournament.pk}").json()["results"]
    assert {row["id"] for row in listed} == pairings
    assert {row["tournament"] for row in listed} == {tournament.pk}
    assert {row["tournament"] for row in anon.get(f"/api/matches/?tournament={other.pk}").json()["results"]} == {
        other.pk
    }
    assert anon.get(f"/api/matches/{friendly.pk}/").json()["tournament"] is None
    assert ids_of(anon.get("/api/matches/?tournament=999999")) == []
    for bad in ("", "x", "0", "-1", "\u0661"):
        response = anon.get("/api/matches/", {"tournament": bad})
        assert response.status_code == 400, bad
        assert "tournament" in response.json()["message"]


def players_search(anon: Any, organiser: Any) -> None:
    make_player("ann")
    make_player("bob")
    found = anon.get("/api/players/?search=AN").json()["results"]
    assert [row["handle"] for row in found] == ["ann"]


def _solitaire_run(handle: str, client_for: Any, capture: Any) -> None:
    """A verified run of a new player (any simulated run is valid: cleared or stuck)."""
    player = make_player(handle)
    with capture(execute=True):
        response = client_for(player.user).post(
            "/api/solitaire/",
            data=orjson.dumps(simulate("solitaire", seed=1, players=[handle])),
            content_type="application/json",
        )
    assert response.status_code == 202


def solitaire_player(anon: Any, organiser: Any, client_for: Any, capture: Any) -> None:
    _solitaire_run("sam", client_for, capture)
    _solitaire_run("tia", client_for, capture)
    assert anon.get("/api/solitaire/").json()["count"] == 2
    assert [row["player"] for row in anon.get("/api/solitaire/?player=tia").json()["results"]] == ["tia"]


def tournaments_status(anon: Any, organiser: Any) -> None:
    running = make_tournament(organiser, make_players(2), format="round_robin")
    setup = make_tournament(organiser, make_players(2, prefix="q"), format="round_robin", start=False)
    assert ids_of(anon.get("/api/tournaments/?status=running")) == [running.pk]
    assert ids_of(anon.get("/api/tournaments/?status=setup")) == [setup.pk]


def tournaments_format(anon: Any, organiser: Any) -> None:
    swiss = make_tournament(organiser, make_players(2), format="swiss", start=False)
    make_tournament(organiser, make_players(2, prefix="q"), format="round_robin", start=False)
    assert ids_of(anon.get("/api/tournaments/?tournament_format=swiss")) == [swiss.pk]


def pairings_round(anon: Any, organiser: Any) -> None:
    tournament = make_tournament(organiser, make_players(4), format="single_elimination")
    url = f"/api/tournaments/{tournament.pk}/matches/"
    every = anon.get(url).json()["results"]
    second = anon.get(f"{url}?round=2").json()["results"]
    assert second and len(second) < len(every)
    assert {row["round"] for row in second} == {2}


def pairings_bracket(anon: Any, organiser: Any) -> None:
    tournament = make_tournament(organiser, make_players(4), format="double_elimination")
    url = f"/api/tournaments/{tournament.pk}/matches/"
    every = anon.get(url).json()["results"]
    losers = anon.get(f"{url}?bracket=losers").json()["results"]
    assert losers and len(losers) < len(every)
    assert {row["bracket"] for row in losers} == {"losers"}
    assert len(anon.get(f"{url}?bracket=").json()["results"]) == len(every)  # empty: every bracket
    assert anon.get(f"{url}?bracket=nonsense").status_code == 400


def standings_sort(anon: Any, organiser: Any) -> None:
    players = [make_player(handle) for handle in ("dora", "cleo", "bram", "abel")]  # seeded 1 to 4
    tournament = make_tournament(organiser, players, format="round_robin")
    for pairing in ready(tournament):
        play(organiser, pairing, pairing.player_one)
    url = f"/api/tournaments/{tournament.pk}/standings/"
    by_seed = [row["player"] for row in anon.get(f"{url}?sort=seed").json()["rows"]]
    by_name = [row["player"] for row in anon.get(f"{url}?sort=name").json()["rows"]]
    assert by_seed == ["dora", "cleo", "bram", "abel"]
    assert by_name == ["abel", "bram", "cleo", "dora"]


CASES: dict[tuple[str, str], Callable[..., None]] = {
    ("/api/matches/", "status"): matches_status,
    ("/api/matches/", "player"): matches_player,
    ("/api/matches/", "tournament"): matches_tournament,
    ("/api/players/", "search"): players_search,
    ("/api/solitaire/", "player"): solitaire_player,
    ("/api/tournaments/", "status"): tournaments_status,
    ("/api/tournaments/", "tournament_format"): tournaments_format,
    ("/api/tournaments/{tournament_id}/matches/", "round"): pairings_round,
    ("/api/tournaments/{tournament_id}/matches/", "bracket"): pairings_bracket,
    ("/api/tournaments/{tournament_id}/standings/", "sort"): standings_sort,
}


def test_every_listed_parameter_has_a_case() -> None:
    listed = {
        (path, parameter["name"])
        for path, methods in SCHEMA["paths"].items()
        for operation in methods.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query" and parameter["name"] not in WINDOWS
    }
    assert listed == set(CASES)


@pytest.mark.parametrize("case", list(CASES), ids=[f"{path}?{name}" for path, name in CASES])
def test_the_parameter_filters(case, anon, organiser, client_for, capture) -> None:
    check = CASES[case]
    extra = {"client_for": client_for, "capture": capture} if check is solitaire_player else {}
    check(anon, organiser, **extra)
