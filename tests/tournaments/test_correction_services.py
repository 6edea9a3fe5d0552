"""Corrections against PostgreSQL: preview, confirmation, cascade, re-filling, history."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError, Conflict
from matches.models import Game, Match, ResultChange
from tests.factories import make_players, make_tournament, play, ready
from tournaments.models import CorrectionRecord, Entrant, Tournament, TournamentMatch
from tournaments.selectors import tournament_standings
from tournaments.services import pairing_correct

pytestmark = pytest.mark.django_db


def pairing(tournament: Tournament, key: str) -> TournamentMatch:
    return TournamentMatch.objects.select_related("player_one", "player_two").get(tournament=tournament, key=key)


@pytest.fixture
def eight(organiser):
    players = make_players(8)
    tournament = make_tournament(organiser, players, format="single_elimination")
    return tournament, {player.handle: player for player in players}


class TestEliminationCascade:
    def test_preview_then_confirm_resets_decided_and_refills_waiting_matches(self, organiser, eight):
        tournament, players = eight
        # Round one goes to the top seeds; p01 then beats p04.
        for key, winner in (("R1-1", "p01"), ("R1-2", "p04"), ("R1-3", "p02"), ("R1-4", "p03"), ("R2-1", "p01")):
            play(organiser, pairing(tournament, key), players[winner])
        old_semi_match = pairing(tournament, "R2-1").match_id

        preview = pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p08", user=organiser, dry_run=True)
        assert not preview.applied
        assert [(change.key, change.action) for change in preview.changes] == [("R2-1", "reset"), ("R3-1", "refill")]
        assert preview.changes[0].before["players"] == ["p01", "p04"]
        assert preview.changes[0].after == {"players": ["p08", "p04"], "status": "ready", "winner": None}
        assert preview.changes[1].after["players"] == [None, None]
        assert pairing(tournament, "R1-1").winner == players["p01"], "a dry run changes nothing"

        with pytest.raises(ApplicationError, match="confirm") as refused:
            pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p08", user=organiser)
        assert isinstance(refused.value, Conflict)
        assert refused.value.extra["preview"]["needs_confirmation"] is True

        done = pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p08", user=organiser, confirm=True)
        assert done.applied
        corrected = pairing(tournament, "R1-1")
        assert (corrected.winner, corrected.result_source) == (players["p08"], "correction")
        semi = pairing(tournament, "R2-1")
        assert (semi.player_one, semi.player_two, semi.status, semi.winner) == (
            players["p08"],
            players["p04"],
            "ready",
            None,
        )
        assert semi.match_id not in (None, old_semi_match), "the semi-final is played again"
        new_match = Match.objects.get(pk=semi.match_id)
        assert (new_match.player_one, new_match.player_two) == (players["p08"], players["p04"])
        # The match already played stays in the records, annulled (counted nowhere), outside the tournament.
        old = Match.objects.get(pk=old_semi_match)
        assert old.status == Match.Status.ANNULLED and not TournamentMatch.objects.filter(match=old).exists()
        assert old.winner == players["p01"], "its games still say who won it"
        annulment = ResultChange.objects.get(match=old, kind=ResultChange.Kind.ANNULMENT)
        assert annulment.source == {"correction": CorrectionRecord.objects.get(tournament=tournament).pk}

        record = CorrectionRecord.objects.get(tournament=tournament)
        assert (record.key, record.made_by) == ("R1-1", organiser)
        assert record.before["winner"] == "p01" and record.after["winner"] == "p08"
        assert [item["key"] for item in record.after["pairings"]] == ["R2-1", "R3-1"]

    def test_a_match_not_yet_started_is_refilled_in_place(self, organiser, eight):
        tournament, players = eight
        play(organiser, pairing(tournament, "R1-1"), players["p01"])
        play(organiser, pairing(tournament, "R1-2"), players["p04"])
        semi = pairing(tournament, "R2-1")
        preview = pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p08", user=organiser)
        assert preview.applied and [(c.key, c.action) for c in preview.changes] == [("R2-1", "refill")]
        refilled = pairing(tournament, "R2-1")
        assert refilled.match_id == semi.match_id, "same match, new players"
        match = Match.objects.get(pk=semi.match_id)
        assert (match.player_one, match.player_two) == (players["p08"], players["p04"])
        assert CorrectionRecord.objects.filter(tournament=tournament).count() == 1

    def test_correcting_the_final_of_a_finished_tournament_changes_the_placings(self, organiser):
        a, b = make_players(2)
        tournament = make_tournament(organiser, [a, b], format="single_elimination")
        (final,) = ready(tournament)
        play(organiser, final, a)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        pairing_correct(tournament_id=tournament.pk, key=final.key, winner=b.handle, user=organiser)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        assert Entrant.objects.get(tournament=tournament, player=b).place == 1

    def test_refuses_what_cannot_be_corrected(self, organiser, eight, carol):
        tournament, players = eight
        with pytest.raises(ApplicationError, match="only decided results"):
            pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p01", user=organiser)
        play(organiser, pairing(tournament, "R1-1"), players["p01"])
        with pytest.raises(ApplicationError, match="did not play in match R1-1"):
            pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p02", user=organiser)
        with pytest.raises(ApplicationError, match="no match 'R9-9'"):
            pairing_correct(tournament_id=tournament.pk, key="R9-9", winner="p02", user=organiser)
        with pytest.raises(ApplicationError, match="Only organisers"):
            pairing_correct(tournament_id=tournament.pk, key="R1-1", winner="p08", user=carol.user)


def test_double_elimination_correction_moves_the_loser_too(organiser):
    players = make_players(4)
    tournament = make_tournament(organiser, players, format="double_elimination")
    play(organiser, pairing(tournament, "W1-1"), players[0])
    play(organiser, pairing(tournament, "W1-2"), players[1])
    losers = pairing(tournament, "L1-1")
    assert (losers.player_one, losers.player_two) == (players[3], players[2])
    pairing_correct(tournament_id=tournament.pk, key="W1-1", winner=players[3].handle, user=organiser)
    losers = pairing(tournament, "L1-1")
    assert (losers.player_one, losers.player_two) == (players[0], players[2])
    assert Match.objects.get(pk=losers.match_id).player_one == players[0]
    assert pairing(tournament, "W2-1").player_one == players[3]


def test_round_robin_correction_changes_only_the_standings(organiser):
    players = make_players(3)
    tournament = make_tournament(organiser, players, format="round_robin")
    first = ready(tournament)[0]
    play(organiser, first, first.player_one)
    preview = pairing_correct(
        tournament_id=tournament.pk, key=first.key, winner=first.player_two.handle, user=organiser
    )
    assert preview.applied and preview.changes == []
    wins = {row.player: row.values["match_wins"] for row in tournament_standings(tournament=tournament).rows}
    assert wins[first.player_two] == 1 and wins[first.player_one] == 0


def test_winner_stays_on_correction_replays_the_queue(organiser):
    a, b, c = make_players(3)
    tournament = make_tournament(organiser, [a, b, c], format="winner_stays_on", max_matches=4)
    play(organiser, ready(tournament)[0], a)  # M1: a beats b
    second = ready(tournament)[0]  # M2: a v c, not started yet
    assert (second.player_one, second.player_two) == (a, c)
    second_match = second.match_id
    preview = pairing_correct(tournament_id=tournament.pk, key="M1", winner=b.handle, user=organiser, dry_run=True)
    assert [(change.key, change.action) for change in preview.changes] == [("M2", "remove")]
    pairing_correct(tournament_id=tournament.pk, key="M1", winner=b.handle, user=organiser)
    (replayed,) = ready(tournament)
    assert (replayed.key, replayed.player_one, replayed.player_two) == ("M2", b, c)
    assert not Match.objects.filter(pk=second_match).exists(), "a match never played is dropped"
    assert Game.objects.filter(match_id=replayed.match_id).count() == 1
