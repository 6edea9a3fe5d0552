"""Before play: a tournament's settings edited, its start undone, the tournament deleted; and the refusals."""

from __future__ import annotations

import pytest

from core.errors import Conflict, Invalid, NotAllowed
from matches.models import Game, Match, ResultChange
from matches.services import game_report_result
from tests.factories import make_players, make_tournament, play, ready
from tournaments.audit import audit_records
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.services import (
    TournamentSettings,
    pairing_correct,
    tournament_delete,
    tournament_start,
    tournament_start_undo,
    tournament_update,
)
from tournaments.services.running import pairing_call

pytestmark = pytest.mark.django_db


def test_settings_change_before_the_start_with_the_same_checks_as_creating(organiser):
    tournament = make_tournament(organiser, make_players(4), format="single_elimination", start=False)
    changed = tournament_update(
        tournament_id=tournament.pk,
        user=organiser,
        settings=TournamentSettings(name=" Spring open ", format="swiss", best_of=3, options={"swiss_rounds": 2}),
    )
    changed.refresh_from_db()
    assert (changed.name, changed.format, changed.series, changed.series_length) == (
        "Spring open",
        "swiss",
        "best_of",
        3,
    )
    assert changed.options["swiss_rounds"] == 2
    assert Entrant.objects.filter(tournament=tournament).count() == 4, "the entrants stay"
    with pytest.raises(Invalid, match="no option 'third_place'") as refused:
        tournament_update(
            tournament_id=tournament.pk,
            user=organiser,
            settings=TournamentSettings(name="x", format="swiss", options={"third_place": True}),
        )
    assert refused.value.extra["field"] == "options.third_place"
    with pytest.raises(Invalid):
        tournament_update(
            tournament_id=tournament.pk,
            user=organiser,
            settings=TournamentSettings(name="x", format="swiss", best_of=2),
        )
    with pytest.raises(Invalid, match=r"Unknown|format"):
        tournament_update(
            tournament_id=tournament.pk, user=organiser, settings=TournamentSettings(name="x", format="nope")
        )
    tournament.refresh_from_db()
    assert tournament.name == "Spring open", "a refused change changes nothing"


def test_settings_cannot_change_once_started_or_by_a_player(organiser, alice):
    tournament = make_tournament(organiser, make_players(4), format="single_elimination")
    with pytest.raises(Conflict, match="has started"):
        tournament_update(
            tournament_id=tournament.pk, user=organiser, settings=TournamentSettings(name="x", format="swiss")
        )
    with pytest.raises(NotAllowed):
        tournament_update(
            tournament_id=tournament.pk, user=alice.user, settings=TournamentSettings(name="x", format="swiss")
        )


def test_an_undone_start_leaves_no_pairing_match_or_game_and_the_options_as_before(organiser):
    players = make_players(6)
    before = {"matches": Match.objects.count(), "games": Game.objects.count(), "changes": ResultChange.objects.count()}
    tournament = make_tournament(organiser, players, format="swiss", start=False)
    assert tournament.options["swiss_rounds"] is None
    started = tournament_start(tournament_id=tournament.pk, user=organiser)
    assert started.options["swiss_rounds"] == 3, "the start fills the defaulted rounds from the entrants"
    assert Match.objects.count() == before["matches"] + 3
    # A match called to a station is not played: the start can still be undone.
    pairing_call(tournament_id=tournament.pk, key=ready(started)[0].key, user=organiser, station="Table 1")
    undone = tournament_start_undo(tournament_id=tournament.pk, user=organiser)
    undone.refresh_from_db()
    assert (undone.status, undone.started_at, undone.options["swiss_rounds"]) == (Tournament.Status.SETUP, None, None)
    assert not TournamentMatch.objects.filter(tournament=tournament).exists()
    assert {
        "matches": Match.objects.count(),
        "games": Game.objects.count(),
        "changes": ResultChange.objects.count(),
    } == before
    assert [e.player for e in Entrant.objects.filter(tournament=tournament).order_by("seed")] == players
    assert audit_records().differences == []
    # It starts again as new, with the entrants as they now are.
    again = tournament_start(tournament_id=tournament.pk, user=organiser)
    assert again.status == Tournament.Status.RUNNING and len(ready(again)) == 3


def test_an_undone_bracket_with_byes_goes_whole(organiser):
    tournament = make_tournament(organiser, make_players(6), format="single_elimination")
    assert TournamentMatch.objects.filter(tournament=tournament, status=TournamentMatch.Status.BYE).exists()
    tournament_start_undo(tournament_id=tournament.pk, user=organiser)
    assert not TournamentMatch.objects.filter(tournament=tournament).exists()
    assert not Match.objects.exists()
    assert audit_records().differences == []


def test_the_start_is_not_undone_once_a_game_is_decided_or_claimed(organiser, alice, ben):
    players = make_players(4)
    tournament = make_tournament(organiser, players, format="single_elimination")
    first = ready(tournament)[0]
    play(organiser, first, first.player_one)
    with pytest.raises(Conflict, match="no game is decided"):
        tournament_start_undo(tournament_id=tournament.pk, user=organiser)
    with pytest.raises(Conflict, match="deleted only before anything is played"):
        tournament_delete(tournament_id=tournament.pk, user=organiser)
    assert TournamentMatch.objects.filter(tournament=tournament).count() == 3

    claimed = make_tournament(organiser, [alice, ben], format="single_elimination")
    (final,) = ready(claimed)
    game_report_result(game_id=Game.objects.get(match_id=final.match_id).pk, user=alice.user, winner="alice")
    with pytest.raises(Conflict, match="no game is decided or claimed"):
        tournament_start_undo(tournament_id=claimed.pk, user=organiser)
    with pytest.raises(Conflict, match="only a running tournament"):
        tournament_start_undo(
            tournament_id=make_tournament(organiser, players, format="swiss", start=False).pk, user=organiser
        )


def test_a_corrected_tournament_keeps_its_start(organiser):
    players = make_players(2)
    tournament = make_tournament(organiser, players, format="round_robin")
    (only,) = ready(tournament)
    play(organiser, only, only.player_one)
    pairing_correct(tournament_id=tournament.pk, key=only.key, winner=only.player_two.handle, user=organiser)
    with pytest.raises(Conflict):
        tournament_start_undo(tournament_id=tournament.pk, user=organiser)


def test_a_tournament_without_results_is_deleted_with_what_it_made(organiser, alice):
    players = make_players(4)
    setup = make_tournament(organiser, players, format="round_robin", start=False)
    running = make_tournament(organiser, players, format="round_robin")
    with pytest.raises(NotAllowed):
        tournament_delete(tournament_id=setup.pk, user=alice.user)
    assert tournament_delete(tournament_id=setup.pk, user=organiser) == setup.name
    assert tournament_delete(tournament_id=running.pk, user=organiser) == running.name
    assert not Tournament.objects.exists()
    assert not Entrant.objects.exists() and not TournamentMatch.objects.exists() and not Match.objects.exists()
    assert audit_records().differences == []
