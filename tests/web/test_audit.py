"""`manage.py audit_records`: clean records pass; each derived number tampered with is named, and exits 1."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from matches.models import Game, Match
from matches.services import game_set_result
from tests.factories import make_match, make_players, make_tournament, play, play_table, ready
from tournaments.models import Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch
from tournaments.services import pairing_correct
from tournaments.services.ratings import ratings_recompute, ratings_record_match

pytestmark = pytest.mark.django_db


def audit() -> tuple[int, str]:
    """The command's exit status and what it printed."""
    out = StringIO()
    try:
        call_command("audit_records", stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


@pytest.fixture
def records(organiser: Any) -> dict[str, Any]:
    """A finished four-player bracket with a correction, and a match on its own half played."""
    players = make_players(4)
    tournament = make_tournament(organiser, players, format="single_elimination", best_of=3)
    for pairing in ready(tournament):
        play(organiser, pairing, pairing.player_one)
    (final,) = ready(tournament)
    play(organiser, final, final.player_one)
    pairing_correct(
        tournament_id=tournament.pk, key="R1-2", winner=players[2].handle, user=organiser, reason="x", confirm=True
    )
    (replayed,) = ready(tournament)
    play(organiser, replayed, replayed.player_two)
    loose = make_match(players[0], players[3], best_of=3)
    game_set_result(game_id=loose.games.get().pk, user=organiser, winner=players[3].handle)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return {"tournament": tournament, "players": players, "loose": loose}


def test_clean_records_have_no_differences(records):
    status, out = audit()
    assert status == 0, out
    assert "No differences" in out
    assert "rating changes" in out, "it says what it checked"
    assert RatingChange.objects.exists() and Match.objects.filter(status=Match.Status.ANNULLED).exists()


def test_a_rating_set_by_hand_is_named(records):
    alice = records["players"][0]
    PlayerRating.objects.filter(player=alice).update(rating=1234.5)
    status, out = audit()
    assert status == 1
    assert f"rating of {alice.handle}: rating is 1234.5, expected " in out
    assert "1 difference(s)" in out


def test_a_rating_change_dropped_is_named(records):
    change = RatingChange.objects.order_by("id").first()
    assert change is not None
    RatingChange.objects.filter(pk=change.pk).delete()
    status, out = audit()
    assert status == 1
    assert f"for match {change.match_id}: row is None, expected 'present'" in out


def test_a_match_winner_set_by_hand_is_named(records):
    final = TournamentMatch.objects.get(tournament=records["tournament"], key="R2-1")
    match = Match.objects.select_related("player_one", "player_two").get(pk=final.match_id)
    other = match.player_two if match.winner_id == match.player_one_id else match.player_one
    Match.objects.filter(pk=match.pk).update(winner=other)
    status, out = audit()
    assert status == 1
    assert (
        f"match {match.pk} ({match.player_one.handle} v {match.player_two.handle}): winner is '{other.handle}'" in out
    )
    # The pairing recorded the real winner: it now disagrees with its match too.
    assert f"R2-1 (match {match.pk}): winner is " in out


def test_a_match_finished_by_hand_is_named_and_a_consistent_change_is_not(records):
    loose = records["loose"]
    game = loose.games.get(number=1)
    # Game 1 open again with the match at 0-0: a record that agrees with itself.
    Game.objects.filter(pk=game.pk).update(winner=None, status=Game.Status.OPEN)
    status, out = audit()
    assert status == 0, out
    Match.objects.filter(pk=loose.pk).update(status=Match.Status.FINISHED, winner=records["players"][0])
    status, out = audit()
    assert status == 1
    assert f"match {loose.pk} (p01 v p04): status is 'finished', expected 'in_progress'" in out
    assert f"match {loose.pk} (p01 v p04): winner is 'p01', expected None" in out


def test_a_pairing_score_and_a_placing_set_by_hand_are_named(records):
    tournament = records["tournament"]
    TournamentMatch.objects.filter(tournament=tournament, key="R1-1").update(games_one=7)
    winner = Entrant.objects.get(tournament=tournament, place=1)
    Entrant.objects.filter(pk=winner.pk).update(place=3, place_to=3)
    status, out = audit()
    assert status == 1
    assert "R1-1 (match " in out and "games_one is 7, expected 2" in out
    assert f"place of {winner.player.handle} is (3, 3), expected (1, 1)" in out


def test_a_match_annulled_by_hand_is_named(records):
    loose = records["loose"]
    Match.objects.filter(pk=loose.pk).update(status=Match.Status.ANNULLED)
    status, out = audit()
    assert status == 1
    assert f"match {loose.pk} (p01 v p04): status is 'annulled', expected 'no annulment in its history'" in out


def test_ratings_recorded_out_of_order_are_replayed_to_the_order_of_the_results(organiser):
    a, b, c = make_players(3)
    first, second = make_match(a, b, best_of=1), make_match(a, c, best_of=1)
    game_set_result(game_id=first.games.get().pk, user=organiser, winner=a.handle)
    game_set_result(game_id=second.games.get().pk, user=organiser, winner=c.handle)
    assert audit()[0] == 0
    # As if the later match had been rated first (two results of one player committed together).
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    ratings_record_match(match_id=second.pk)
    ratings_record_match(match_id=first.pk)
    status, out = audit()
    assert status == 0, out
    assert PlayerRating.objects.get(player=a).games == 2


def test_ratings_recompute_from_scratch_restores_tampered_ratings(records):
    PlayerRating.objects.update(rating=1000.0)
    RatingChange.objects.filter(pk=RatingChange.objects.order_by("id").values("pk")[:1]).delete()
    assert audit()[0] == 1
    ratings_recompute()
    status, out = audit()
    assert status == 0, out


class TestTables:
    """A finished tables tournament (a timed one) audits clean; a table's points or a final place edited is named."""

    @pytest.fixture
    def tables(self, organiser: Any) -> Tournament:
        tournament = make_tournament(
            organiser, make_players(7, prefix="tb"), format="tables", table_rounds=2, time_limit_ms=60_000
        )
        while tournament.status != Tournament.Status.FINISHED:
            for pairing in ready(tournament):
                row = TournamentMatch.objects.select_related(
                    "player_one", "player_two", "player_three", "player_four"
                ).get(pk=pairing.pk)
                play_table(organiser, row, list(reversed(row.seats)))
            tournament.refresh_from_db()
        return tournament

    def test_clean(self, tables: Tournament) -> None:
        status, out = audit()
        assert status == 0, out
        assert TournamentMatch.objects.filter(tournament=tables, key="F", status="decided").exists()

    def test_a_tables_points_edited_by_hand_are_named(self, tables: Tournament) -> None:
        pairing = TournamentMatch.objects.get(tournament=tables, key="T1-1")
        assert pairing.points is not None and pairing.timed == [0] * len(pairing.seat_ids)
        TournamentMatch.objects.filter(pk=pairing.pk).update(points=[9, 9, 9, 9])
        status, out = audit()
        assert status == 1
        assert f"T1-1 (match {pairing.match_id}): points is [9, 9, 9, 9], expected {pairing.points}" in out

    def test_a_final_place_edited_by_hand_is_named(self, tables: Tournament) -> None:
        winner = Entrant.objects.select_related("player").get(tournament=tables, place=1)
        Entrant.objects.filter(pk=winner.pk).update(place=7, place_to=7)
        status, out = audit()
        assert status == 1
        assert f"place of {winner.player.handle} is (7, 7), expected (1, 1)" in out
        assert "1 difference(s)" in out
