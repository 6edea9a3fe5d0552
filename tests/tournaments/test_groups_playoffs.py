"""Groups then playoffs against PostgreSQL: groups, the cross-seeded playoff, placings, corrections, API, pages."""

from __future__ import annotations

import pytest
from django.test import Client

from core.errors import Conflict, Invalid
from matches.models import Match, Player
from tests.factories import make_players, make_tournament, play, ready
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.selectors import tournament_standings
from tournaments.services import pairing_correct, tournament_start

pytestmark = pytest.mark.django_db


def pairing(tournament: Tournament, key: str) -> TournamentMatch:
    return TournamentMatch.objects.select_related("player_one", "player_two").get(tournament=tournament, key=key)


def handles(row: TournamentMatch) -> tuple[str | None, str | None]:
    return (
        row.player_one.handle if row.player_one else None,
        row.player_two.handle if row.player_two else None,
    )


def play_groups(organiser, tournament: Tournament, winner_of=None) -> None:
    """Play every group pairing; the better seed (lower handle) wins unless `winner_of` says otherwise."""
    winner_of = winner_of or {}
    for row in ready(tournament):
        assert row.bracket == "group"
        pair = frozenset((row.player_one.handle, row.player_two.handle))
        winner = winner_of.get(pair, min(pair))
        play(organiser, row, row.player_one if row.player_one.handle == winner else row.player_two)


@pytest.fixture
def eight(organiser) -> tuple[Tournament, dict[str, Player]]:
    players = make_players(8)
    tournament = make_tournament(organiser, players, format="groups_playoffs")
    return tournament, {player.handle: player for player in players}


class TestGroupStage:
    def test_snake_seeded_groups_play_a_round_robin_each_and_defaults_are_filled(self, eight):
        tournament, _ = eight
        assert (tournament.options["group_count"], tournament.options["advance_per_group"]) == (2, 2)
        rows = list(TournamentMatch.objects.filter(tournament=tournament).select_related("player_one", "player_two"))
        assert len(rows) == 12 and {row.bracket for row in rows} == {"group"}
        assert {row.status for row in rows} == {"ready"} and all(row.match_id for row in rows)
        groups: dict[str, set[str]] = {}
        for row in rows:
            groups.setdefault(row.key.split("-")[0], set()).update(handles(row))
        assert groups == {"G1": {"p01", "p04", "p05", "p08"}, "G2": {"p02", "p03", "p06", "p07"}}

    def test_start_refuses_groups_that_cannot_work(self, organiser):
        crowded = make_tournament(organiser, make_players(3), format="groups_playoffs", group_count=2, start=False)
        with pytest.raises(Invalid, match="3 players cannot fill 2 groups of at least 2"):
            tournament_start(tournament_id=crowded.pk, user=organiser)
        greedy = make_tournament(
            organiser, make_players(8, "q"), format="groups_playoffs", group_count=4, advance_per_group=3, start=False
        )
        with pytest.raises(Invalid, match="3 cannot advance"):
            tournament_start(tournament_id=greedy.pk, user=organiser)
        alone = make_tournament(
            organiser, make_players(4, "r"), format="groups_playoffs", group_count=1, advance_per_group=1, start=False
        )
        with pytest.raises(Invalid, match="At least two players must reach the playoff"):
            tournament_start(tournament_id=alone.pk, user=organiser)
        assert Tournament.objects.filter(status=Tournament.Status.SETUP).count() == 3


class TestPlayoff:
    def test_group_winners_meet_the_other_groups_runners_up_and_everyone_is_placed(self, organiser, eight):
        tournament, players = eight
        assert not TournamentMatch.objects.filter(tournament=tournament).exclude(bracket="group").exists()
        play_groups(organiser, tournament)
        semis = {row.key: handles(row) for row in ready(tournament)}
        assert semis == {"R1-1": ("p01", "p03"), "R1-2": ("p02", "p04")}, "A1 v B2, B1 v A2"
        assert pairing(tournament, "R2-1").status == "waiting"
        play(organiser, pairing(tournament, "R1-1"), players["p03"])
        play(organiser, pairing(tournament, "R1-2"), players["p02"])
        play(organiser, pairing(tournament, "R2-1"), players["p03"])
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        places = {e.player.handle: (e.place, e.place_to) for e in Entrant.objects.filter(tournament=tournament)}
        assert places == {
            "p03": (1, 1),
            "p02": (2, 2),
            "p01": (3, 4),
            "p04": (3, 4),
            "p05": (5, 6),  # third in their groups
            "p06": (5, 6),
            "p07": (7, 8),
            "p08": (7, 8),
        }
        standings = tournament_standings(tournament=tournament)
        assert standings.kind == "placings" and standings.finished
        assert [row.player.handle for row in standings.rows][:2] == ["p03", "p02"]

    def test_a_third_place_match_when_asked(self, organiser):
        players = make_players(8, "t")
        tournament = make_tournament(organiser, players, format="groups_playoffs", third_place=True)
        play_groups(organiser, tournament)
        keys = set(
            TournamentMatch.objects.filter(tournament=tournament).exclude(bracket="group").values_list("key", flat=True)
        )
        assert keys == {"R1-1", "R1-2", "R2-1", "3P"}


class TestCorrections:
    # Group 1 (p01, p04, p05, p08) with the better seed winning: p01 3 wins, p04 2, p05 1, p08 0.
    # Giving p04 v p05 to p05 puts p05 second: it is p05, not p04, who meets p02.

    def test_a_group_correction_that_changes_who_advances_refills_the_playoff(self, organiser, eight):
        tournament, players = eight
        play_groups(organiser, tournament)
        semi = pairing(tournament, "R1-2")
        group_key = next(row.key for row in ready_or_decided(tournament) if set(handles(row)) == {"p04", "p05"})
        preview = pairing_correct(
            tournament_id=tournament.pk, key=group_key, winner="p05", user=organiser, dry_run=True
        )
        assert [(change.key, change.action) for change in preview.changes] == [("R1-2", "refill")]
        assert preview.changes[0].after["players"] == ["p02", "p05"]
        done = pairing_correct(tournament_id=tournament.pk, key=group_key, winner="p05", user=organiser)
        assert done.applied
        refilled = pairing(tournament, "R1-2")
        assert handles(refilled) == ("p02", "p05") and refilled.match_id == semi.match_id
        match = Match.objects.get(pk=semi.match_id)
        assert (match.player_one, match.player_two) == (players["p02"], players["p05"])

    def test_a_started_playoff_match_is_reset_only_with_confirmation(self, organiser, eight):
        tournament, players = eight
        play_groups(organiser, tournament)
        play(organiser, pairing(tournament, "R1-2"), players["p04"])
        played = pairing(tournament, "R1-2").match_id
        group_key = next(row.key for row in ready_or_decided(tournament) if set(handles(row)) == {"p04", "p05"})
        with pytest.raises(Conflict, match="confirm") as refused:
            pairing_correct(tournament_id=tournament.pk, key=group_key, winner="p05", user=organiser)
        assert [c["match"] for c in refused.value.extra["preview"]["changes"]] == ["R1-2", "R2-1"]
        pairing_correct(tournament_id=tournament.pk, key=group_key, winner="p05", user=organiser, confirm=True)
        semi = pairing(tournament, "R1-2")
        assert (handles(semi), semi.status, semi.winner_id) == (("p02", "p05"), "ready", None)
        assert semi.match_id not in (None, played), "the semi-final is played again"
        assert Match.objects.get(pk=played).status == Match.Status.ANNULLED, "the played match stays, set aside"
        final = pairing(tournament, "R2-1")
        assert (final.player_two_id, final.status) == (None, "waiting")

    def test_a_group_correction_that_changes_nobody_advancing_leaves_the_playoff(self, organiser, eight):
        tournament, _ = eight
        play_groups(organiser, tournament)
        group_key = next(row.key for row in ready_or_decided(tournament) if set(handles(row)) == {"p05", "p08"})
        preview = pairing_correct(tournament_id=tournament.pk, key=group_key, winner="p08", user=organiser)
        assert preview.applied and preview.changes == []
        assert handles(pairing(tournament, "R1-2")) == ("p02", "p04")

    def test_a_playoff_correction_moves_the_winner_on(self, organiser, eight):
        tournament, players = eight
        play_groups(organiser, tournament)
        play(organiser, pairing(tournament, "R1-1"), players["p01"])
        preview = pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p03", user=organiser)
        assert [(change.key, change.action) for change in preview.changes] == [("R2-1", "refill")]
        assert pairing(tournament, "R2-1").player_one == players["p03"]


def ready_or_decided(tournament: Tournament) -> list[TournamentMatch]:
    return list(TournamentMatch.objects.filter(tournament=tournament).select_related("player_one", "player_two"))


class TestApi:
    def test_create_with_group_options_start_and_list_group_pairings(self, client_for, organiser, anon):
        orga = client_for(organiser)
        payload = {
            "name": "Groups",
            "format": "groups_playoffs",
            "best_of": 1,
            "options": {"group_count": 2, "advance_per_group": 1},
        }
        created = orga.post("/api/tournaments/", payload, format="json")
        assert created.status_code == 201, created.json()
        body = created.json()
        assert (body["format"], body["options"]["group_count"], body["options"]["advance_per_group"]) == (
            "groups_playoffs",
            2,
            1,
        )
        tournament_id = body["id"]
        for seed, player in enumerate(make_players(6), start=1):
            orga.post(f"/api/tournaments/{tournament_id}/entrants/", {"player": player.handle, "seed": seed})
        assert orga.post(f"/api/tournaments/{tournament_id}/start/").json()["status"] == "running"
        rows = anon.get(f"/api/tournaments/{tournament_id}/matches/?bracket=group&limit=100").json()["results"]
        assert {row["bracket"] for row in rows} == {"group"}
        # Two groups of three: each plays three rounds of one match and one bye.
        assert sorted(row["status"] for row in rows) == ["bye"] * 6 + ["ready"] * 6
        listed = anon.get("/api/tournaments/?format=groups_playoffs").json()["results"]
        assert [item["id"] for item in listed] == [tournament_id]
        standings = anon.get(f"/api/tournaments/{tournament_id}/standings/").json()
        assert (standings["kind"], standings["finished"]) == ("placings", False)

    def test_bad_group_options_are_refused_with_the_field(self, client_for, organiser):
        payload = {"name": "Groups", "format": "groups_playoffs", "best_of": 1, "options": {"group_count": 0}}
        refused = client_for(organiser).post("/api/tournaments/", payload, format="json")
        assert refused.status_code == 400
        # The format's schema checks the range (in the service): the error names the option.
        assert refused.json()["extra"] == {"field": "options.group_count"}
        assert "from 1 to 32767, not 0" in refused.json()["message"]

    def test_the_schema_documents_the_format_and_its_options(self, anon):
        schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        components = schema["components"]["schemas"]
        create = components["TournamentCreateInput"]["properties"]
        (format_enum,) = create["format"]["allOf"]
        assert "groups_playoffs" in components[format_enum["$ref"].split("/")[-1]]["enum"]
        # One object per format, each with exactly its own options; the output carries the same object.
        by_title = {choice["title"]: choice for choice in create["options"]["anyOf"]}
        groups = by_title["Groups then playoffs options"]
        assert set(groups["properties"]) == {"group_count", "advance_per_group", "double_round_robin", "third_place"}
        assert groups["additionalProperties"] is False
        assert groups["properties"]["advance_per_group"] | {"description": ""} == {
            "type": "integer",
            "minimum": 1,
            "maximum": 32767,
            "nullable": False,
            "default": 2,
            "title": "Advance per group",
            "description": "",
        }
        assert "options" in components["TournamentDetailOutput"]["properties"]
        listing = schema["paths"]["/api/tournaments/"]["get"]["parameters"]
        # The filter is `tournament_format` (DRF reads `format` as its renderer override).
        assert "groups_playoffs" in next(p for p in listing if p["name"] == "tournament_format")["schema"]["enum"]


class TestPages:
    def test_the_page_shows_the_groups_then_the_playoff_in_a_fixed_number_of_queries(
        self, organiser, eight, django_assert_max_num_queries
    ):
        tournament, _ = eight
        client = Client()
        with django_assert_max_num_queries(8):
            response = client.get(f"/tournaments/{tournament.pk}/")
        assert response.context["drawing"] is None, "no playoff before the groups are played"
        groups = response.context["groups"]
        assert [group.name for group in groups] == ["Group A", "Group B"]
        assert [row.player.handle for row in groups[0].standings.rows] == ["p01", "p04", "p05", "p08"]
        body = response.content.decode()
        assert 'data-role="groups"' in body and "Group B" in body and "Match wins" in body

        play_groups(organiser, tournament)
        # Eight, and the live tables ("At the tables now"), read afresh on every visit.
        with django_assert_max_num_queries(9):
            response = client.get(f"/tournaments/{tournament.pk}/")
        drawing = response.context["drawing"]
        assert {match.box.key for match in drawing.matches} == {"R1-1", "R1-2", "R2-1"}
        assert [row.player.handle for row in response.context["groups"][1].standings.rows][:2] == ["p02", "p03"]
        assert "Playoff" in response.content.decode()

    def test_the_organiser_form_offers_the_format_and_its_options(self, organiser):
        client = Client()
        client.force_login(organiser)
        form = client.get("/organise/tournaments/new/").content.decode()
        assert 'value="groups_playoffs"' in form and 'name="groups_playoffs-group_count"' in form
        response = client.post(
            "/organise/tournaments/new/",
            {
                "name": "Group Cup",
                "format": "groups_playoffs",
                "series": "best_of",
                "series_length": 1,
                "ruleset": "speed",
                "groups_playoffs-group_count": 3,
                "groups_playoffs-advance_per_group": 1,
            },
        )
        assert response.status_code == 302
        created = Tournament.objects.get(name="Group Cup")
        assert (created.format, created.options["group_count"], created.options["advance_per_group"]) == (
            "groups_playoffs",
            3,
            1,
        )
