"""A tables tournament and a timed tournament played through the API with simulated, verified logs.

The expected standings are computed here from the logs alone (the engine's
verdict gives the places; the points per place and the tie-breaks are
applied by hand), never from the code under test.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from matches.placings import race_places
from speedrules import verify_bytes
from tests.factories import body, make_players, make_tournament, play_table, ready, won_log
from tournaments.models import Entrant, Tournament, TournamentMatch

pytestmark = pytest.mark.django_db

POINTS = {3: (2, 1, 0), 4: (3, 1, 0, 0)}
RULESETS = {3: "three-way", 4: "four-way"}


def api(client: Any, method: str, url: str, payload: dict[str, Any] | None = None, status: int = 200) -> Any:
    response = (
        getattr(client, method)(url, payload, format="json") if payload is not None else getattr(client, method)(url)
    )
    assert response.status_code == status, response.content
    return response.json()


def submit(client: Any, capture: Any, match_id: int, document: dict[str, Any]) -> None:
    game_id = api(client, "get", f"/api/matches/{match_id}/")["games"][-1]["id"]
    with capture(execute=True):
        response = client.post(f"/api/games/{game_id}/logs/", data=body(document), content_type="application/json")
    assert response.status_code == 202, response.content


def places_of(document: dict[str, Any]) -> dict[str, int]:
    """Each handle's place in a race, from the engine's verdict of the log."""
    verdict = verify_bytes(body(document))
    assert verdict.code == "ok" and verdict.cards_left is not None
    places = race_places(winner=verdict.winner, cards_left=verdict.cards_left)
    assert places is not None
    return dict(zip(document["players"], places, strict=True))


def expected_ranking(
    seeds: list[str], points: dict[str, int], wins: dict[str, int], above: dict[tuple[str, str], int]
) -> list[tuple[int, str]]:
    """(rank, handle) by points, then tables won, then finishing above the others still tied, then seed."""
    ordered = sorted(seeds, key=lambda h: (-points[h], -wins[h]))
    groups: list[list[str]] = []
    for handle in ordered:
        if groups and (points[groups[-1][0]], wins[groups[-1][0]]) == (points[handle], wins[handle]):
            groups[-1].append(handle)
        else:
            groups.append([handle])
    ranked: list[tuple[int, str]] = []
    for group in groups:
        h2h = {h: sum(above[(h, other)] for other in group if other != h) for h in group}
        inner = sorted(group, key=lambda h: (-h2h[h], seeds.index(h)))
        for index, handle in enumerate(inner):
            tied_with_previous = index and h2h[inner[index - 1]] == h2h[handle]
            ranked.append((ranked[-1][0] if tied_with_previous else len(ranked) + 1, handle))
    return ranked


def test_a_tables_tournament_of_ten_plays_to_a_final_table(client_for, organiser, capture):
    client = client_for(organiser)
    seeds = [player.handle for player in make_players(10, prefix="t")]
    tournament = api(
        client,
        "post",
        "/api/tournaments/",
        {"name": "Tables", "format": "tables", "best_of": 1, "options": {"table_rounds": 2}, "confirmation": "none"},
        status=201,
    )
    options = tournament["options"]
    assert (options["ruleset_three"]["players"], options["ruleset_four"]["players"]) == (3, 4)
    assert options["table_rounds"] == 2 and options["final_table_size"] == 4
    url = f"/api/tournaments/{tournament['id']}"
    for seed, handle in enumerate(seeds, start=1):
        api(client, "post", f"{url}/entrants/", {"player": handle, "seed": seed}, status=201)
    api(client, "post", f"{url}/start/", {})

    points: dict[str, int] = dict.fromkeys(seeds, 0)
    wins: dict[str, int] = dict.fromkeys(seeds, 0)
    above: dict[tuple[str, str], int] = defaultdict(int)
    mates: dict[str, set[str]] = {handle: set() for handle in seeds}
    log_seed = 0
    for round_number in (1, 2):
        tables = api(client, "get", f"{url}/matches/?round={round_number}&bracket=tables")["results"]
        assert sorted(len(table["players"]) for table in tables) == [3, 3, 4]
        assert sorted(handle for table in tables for handle in table["players"]) == sorted(seeds)
        if round_number == 1:  # the snake by seed
            assert [table["players"] for table in tables] == [
                ["t01", "t06", "t07", "t10"],
                ["t02", "t05", "t08"],
                ["t03", "t04", "t09"],
            ]
        # After a round of 4 + 3 + 3, a table of four must seat two who met (three earlier tables):
        # one repeated pair is the fewest possible, and the seating finds it.
        repeated = {
            frozenset((a, b)) for table in tables for a in table["players"] for b in table["players"] if b in mates[a]
        }
        assert len(repeated) == (0 if round_number == 1 else 1)
        for table in tables:
            seated = table["players"]
            document = won_log(RULESETS[len(seated)], seated, start=log_seed)
            log_seed += 13
            submit(client, capture, table["match_id"], document)
            places = places_of(document)
            for handle in seated:
                points[handle] += POINTS[len(seated)][places[handle] - 1]
                wins[handle] += places[handle] == 1
                mates[handle] |= set(seated) - {handle}
                for other in seated:
                    above[(handle, other)] += places[handle] < places[other]
        decided = api(client, "get", f"{url}/matches/?round={round_number}&bracket=tables")["results"]
        for table in decided:
            assert table["status"] == "decided"
            assert table["points"] == [POINTS[len(table["players"])][place - 1] for place in table["places"]], (
                "each seat's points are its place's"
            )

    ranking = expected_ranking(seeds, points, wins, above)
    standings = api(client, "get", f"{url}/standings/")
    assert standings["tie_breaks"] == ["table_points", "match_wins", "head_to_head"]
    assert [(row["rank"], row["player"]) for row in standings["rows"]] == ranking
    assert {row["player"]: row["values"]["table_points"] for row in standings["rows"]} == points

    # The top four by the standings play the final table, seated by standing.
    final = api(client, "get", f"{url}/matches/F/")
    assert final["bracket"] == "final_table" and final["status"] == "ready"
    assert final["players"] == [handle for _, handle in ranking[:4]]
    document = won_log("four-way", final["players"], start=99)
    submit(client, capture, final["match_id"], document)
    final_places = places_of(document)

    detail = api(client, "get", f"{url}/")
    assert detail["status"] == "finished"
    expected_top = sorted(final["players"], key=lambda h: (final_places[h], final["players"].index(h)))
    rest = [handle for _, handle in ranking if handle not in final_places]
    standings = api(client, "get", f"{url}/standings/")
    assert [row["player"] for row in standings["rows"]] == expected_top + rest
    placed = {entrant["player"]: entrant["place"] for entrant in detail["entrants"]}
    for handle in expected_top:
        assert placed[handle] is not None and int(placed[handle].split("-")[0]) == final_places[handle]
    assert int(placed[rest[0]].split("-")[0]) == 5
    assert Tournament.objects.get(pk=tournament["id"]).status == Tournament.Status.FINISHED
    assert Entrant.objects.filter(tournament_id=tournament["id"], place__isnull=True).count() == 0


def test_a_timed_tournament_ranks_by_cards_played_within_the_limits(client_for, organiser, capture):
    client = client_for(organiser)
    handles = [player.handle for player in make_players(3, prefix="c")]
    limit = 15_000
    tournament = api(
        client,
        "post",
        "/api/tournaments/",
        {"name": "Clock", "format": "round_robin", "best_of": 1, "time_limit_ms": limit, "confirmation": "none"},
        status=201,
    )
    assert tournament["time_limit_ms"] == limit
    url = f"/api/tournaments/{tournament['id']}"
    for seed, handle in enumerate(handles, start=1):
        api(client, "post", f"{url}/entrants/", {"player": handle, "seed": seed}, status=201)
    api(client, "post", f"{url}/start/", {})

    cards = dict.fromkeys(handles, 0)
    for start, pairing in enumerate(api(client, "get", f"{url}/matches/")["results"]):
        if pairing["status"] != "ready":
            continue
        match = api(client, "get", f"/api/matches/{pairing['match_id']}/")
        assert match["time_limit_ms"] == limit
        document = won_log("speed", pairing["players"], start=start * 11)
        submit(client, capture, pairing["match_id"], document)
        # Counted from the log's own events: plays at or before the limit.
        for seat, handle in enumerate(document["players"]):
            cards[handle] += sum(
                1
                for event in document["events"]
                if event["type"] == "play" and event.get("player") == seat and event["t"] <= limit
            )
    standings = api(client, "get", f"{url}/standings/")
    assert standings["finished"]
    assert standings["tie_breaks"][0] == "timed_cards"
    rows = standings["rows"]
    assert {row["player"]: row["values"]["timed_cards"] for row in rows} == cards
    assert [row["values"]["timed_cards"] for row in rows] == sorted(cards.values(), reverse=True)
    assert len(set(cards.values())) == 3, "the logs chosen give three different totals (else pick others)"


def test_five_players_sit_three_and_two_and_fewer_than_three_are_refused(client_for, organiser):
    client = client_for(organiser)
    handles = [player.handle for player in make_players(5, prefix="f")]
    url = "/api/tournaments/{}"
    small = api(client, "post", "/api/tournaments/", {"name": "S", "format": "tables", "best_of": 1}, status=201)
    for handle in handles[:2]:
        api(client, "post", f"{url.format(small['id'])}/entrants/", {"player": handle}, status=201)
    refused = client.post(f"{url.format(small['id'])}/start/")
    assert refused.status_code == 400 and "at least 3" in refused.json()["message"]

    five = api(client, "post", "/api/tournaments/", {"name": "F", "format": "tables", "best_of": 1}, status=201)
    for handle in handles:
        api(client, "post", f"{url.format(five['id'])}/entrants/", {"player": handle}, status=201)
    api(client, "post", f"{url.format(five['id'])}/start/", {})
    tables = api(client, "get", f"{url.format(five['id'])}/matches/")["results"]
    assert [table["players"] for table in tables] == [["f01", "f04", "f05"], ["f02", "f03"]]
    pair = api(client, "get", f"/api/matches/{tables[1]['match_id']}/")
    assert pair["ruleset_name"] == "speed" and pair["points_per_place"] is None
    three = api(client, "get", f"/api/matches/{tables[0]['match_id']}/")
    assert three["ruleset_name"] == "three-way" and three["points_per_place"] == [2, 1, 0]


def test_a_tables_result_is_corrected_through_the_api_by_its_games_places(client_for, organiser):
    players = make_players(4, prefix="k")
    tournament = make_tournament(organiser, players, format="tables", table_rounds=2)
    (table,) = ready(tournament)
    play_table(organiser, table, players)
    client = client_for(organiser)
    url = f"/api/tournaments/{tournament.pk}/matches/T1-1/correct/"
    refused = client.post(url, {"winner": "k02", "dry_run": True}, format="json")
    assert refused.status_code == 400
    assert "is a table (k01 v k02 v k03 v k04): give the corrected places" in refused.json()["message"]

    places = {"k02": 1, "k01": 2, "k03": 3, "k04": 4}
    preview = api(client, "post", url, {"games": [{"game": 1, "places": places}], "dry_run": True})
    assert (preview["old_winner"], preview["new_winner"], preview["applied"]) == ("k01", "k02", False)
    assert preview["games"] == [
        {
            "game": 1,
            "before": {"k01": 1, "k02": 2, "k03": 3, "k04": 4},
            "after": places,
            "before_status": "decided",
            "after_status": "decided",
        }
    ]
    assert preview["standing"]["after"]["k02"] == {"points": 3, "firsts": 1}
    assert preview["changes"] == [], "round 2, already seated, stays"
    done = api(client, "post", url, {"games": [{"game": 1, "places": places}], "reason": "misread"})
    assert done["applied"]
    row = api(client, "get", f"/api/tournaments/{tournament.pk}/matches/T1-1/")
    assert (row["places"], row["points"]) == ([2, 1, 3, 4], [1, 3, 0, 0])
    history = api(client, "get", f"/api/tournaments/{tournament.pk}/corrections/")["results"]
    assert (
        history[0]["after"]["games"] == {"1": {"places": places, "status": "decided"}}
        and history[0]["reason"] == "misread"
    )
    assert TournamentMatch.objects.get(tournament=tournament, key="T1-1").winner_id == players[1].pk
