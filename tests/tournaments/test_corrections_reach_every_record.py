"""A correction changes the match itself and sets aside what followed: every page and number agrees after it.

The reported failure: in a 6-player single elimination, correcting R1-2 from
dev to emma left the bracket at "dev 1 - emma 0" with emma the winner, the
match page at "Finished, dev won", and the three later matches that were set
aside counted as normal results (dev's record and rating, the home page's
recent results).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from core.errors import Conflict
from matches.models import Game, Match, ResultChange
from matches.services import game_set_result
from tests.factories import make_player, make_tournament, play
from tournaments.audit import audit_records
from tournaments.models import CorrectionRecord, Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch
from tournaments.selectors import rating_history, tournament_standings
from tournaments.services import pairing_correct

pytestmark = pytest.mark.django_db

NAMES = ("alice", "ben", "chloe", "dev", "emma", "finn")


def pairing(tournament: Tournament, key: str) -> TournamentMatch:
    return TournamentMatch.objects.select_related("player_one", "player_two", "winner").get(
        tournament=tournament, key=key
    )


@pytest.fixture
def cup(organiser: Any) -> dict[str, Any]:
    """6 players, a third-place match, best of 3: dev beats emma (R1-2) 2-1, then alice, and wins the final."""
    players = {name: make_player(name) for name in NAMES}
    tournament = make_tournament(
        organiser, [players[name] for name in NAMES], format="single_elimination", best_of=3, third_place=True
    )
    r12 = pairing(tournament, "R1-2")
    assert (r12.player_one, r12.player_two) == (players["dev"], players["emma"])
    # R1-2 goes to three games: dev, emma, dev.
    for winner in ("dev", "emma", "dev"):
        game = Game.objects.filter(match_id=r12.match_id, status=Game.Status.OPEN).get()
        game_set_result(game_id=game.pk, user=organiser, winner=winner)
    play(organiser, pairing(tournament, "R1-4"), players["chloe"])
    play(organiser, pairing(tournament, "R2-1"), players["dev"])
    play(organiser, pairing(tournament, "R2-2"), players["ben"])
    play(organiser, pairing(tournament, "R3-1"), players["dev"])
    play(organiser, pairing(tournament, "3P"), players["alice"])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    later = {key: pairing(tournament, key).match_id for key in ("R2-1", "R3-1", "3P")}
    return {"tournament": tournament, "players": players, "r12": r12.match_id, "later": later}


def correct(organiser: Any, cup: dict[str, Any]) -> CorrectionRecord:
    pairing_correct(
        tournament_id=cup["tournament"].pk,
        key="R1-2",
        winner="emma",
        user=organiser,
        reason="The table swapped the score sheets.",
        confirm=True,
    )
    return CorrectionRecord.objects.get(tournament=cup["tournament"])


def test_the_corrected_match_itself_says_emma_won_with_the_score_turned_round(organiser, cup):
    record = correct(organiser, cup)
    players = cup["players"]
    match = Match.objects.get(pk=cup["r12"])
    assert (match.status, match.winner) == (Match.Status.FINISHED, players["emma"])
    games = list(match.games.order_by("number"))
    assert [(game.winner.handle, game.decided_by) for game in games] == [
        ("emma", Game.DecidedBy.CORRECTION),
        ("dev", Game.DecidedBy.CORRECTION),
        ("emma", Game.DecidedBy.CORRECTION),
    ]
    assert all(game.decided_by_user == organiser for game in games)
    # The bracket's pairing records the match as it now is: dev 1 - emma 2.
    corrected = pairing(cup["tournament"], "R1-2")
    assert (corrected.winner, corrected.result_source) == (players["emma"], TournamentMatch.Source.CORRECTION)
    assert (corrected.games_one, corrected.games_two) == (1, 2)
    # Each changed game keeps the change, naming the correction, its maker and reason.
    changes = list(ResultChange.objects.filter(match=match, kind=ResultChange.Kind.CORRECTION).order_by("id"))
    assert [(c.game.number, c.before["winner"], c.after["winner"]) for c in changes] == [
        (1, "dev", "emma"),
        (2, "emma", "dev"),
        (3, "dev", "emma"),
    ]
    assert {(c.made_by, c.reason, c.source["correction"]) for c in changes} == {
        (organiser, "The table swapped the score sheets.", record.pk)
    }
    assert (record.made_by, record.reason, record.before["winner"], record.after["winner"]) == (
        organiser,
        "The table swapped the score sheets.",
        "dev",
        "emma",
    )


def test_the_three_matches_set_aside_are_annulled_kept_and_counted_nowhere(organiser, cup):
    record = correct(organiser, cup)
    players = cup["players"]
    later = cup["later"]
    for key, match_id in later.items():
        match = Match.objects.get(pk=match_id)
        assert match.status == Match.Status.ANNULLED, key
        annulment = ResultChange.objects.get(match=match, kind=ResultChange.Kind.ANNULMENT)
        assert (annulment.game, annulment.source, annulment.made_by) == (None, {"correction": record.pk}, organiser)
        assert "R1-2" in annulment.reason
        assert not TournamentMatch.objects.filter(match=match).exists(), "detached: the pairing is played again"
        assert not RatingChange.objects.filter(match=match).exists(), f"{key} moves no rating"
    # The pairings wait to be played again by the right players.
    semi = pairing(cup["tournament"], "R2-1")
    assert (semi.player_one, semi.player_two, semi.status) == (players["alice"], players["emma"], "ready")
    assert semi.match_id not in later.values()
    # The tournament reopens: no placings until it finishes again.
    cup["tournament"].refresh_from_db()
    assert cup["tournament"].status == Tournament.Status.RUNNING
    assert not Entrant.objects.filter(tournament=cup["tournament"], place__isnull=False).exists()
    assert all(row.rank is None for row in tournament_standings(tournament=cup["tournament"]).rows)


def test_ratings_are_replayed_and_equal_a_replay_from_scratch(organiser, cup):
    correct(organiser, cup)
    players = cup["players"]
    # dev's only counting result is now the R1-2 loss.
    (change,) = rating_history(player=players["dev"])
    assert change.match_id == cup["r12"]
    assert change.rating_after < change.rating_before == 1500
    dev = PlayerRating.objects.get(player=players["dev"])
    assert (dev.rating, dev.games) == (change.rating_after, 3)
    assert audit_records().differences == []


def test_bracket_match_page_player_page_standings_and_home_page_agree(organiser, cup, client: Client):
    correct(organiser, cup)
    players = cup["players"]
    later = set(cup["later"].values())

    match_page = client.get(f"/matches/{cup['r12']}/")
    assert match_page.status_code == 200
    assert match_page.context["match"].winner == players["emma"]
    assert match_page.context["score"] == (1, 2)  # dev 1 - emma 2, as the bracket says

    tournament_page = client.get(f"/tournaments/{cup['tournament'].pk}/")
    (box,) = [placed.box for placed in tournament_page.context["drawing"].matches if placed.box.key == "R1-2"]
    assert [(slot.name, slot.score, slot.won) for slot in box.slots] == [("dev", 1, False), ("emma", 2, True)]

    dev_page = client.get("/players/dev/")
    record = dev_page.context["record"]
    # R1-2 lost 1-2; the annulled R2-1 and final do not count.
    assert (record.matches_won, record.matches_lost, record.games_won, record.games_lost) == (0, 1, 1, 2)
    listed = {match.pk for match in dev_page.context["matches"]}
    assert later - {cup["later"]["3P"]} <= listed, "annulled matches stay listed (labelled), just not counted"
    assert "Annulled" in dev_page.content.decode()

    home = client.get("/")
    recent = {match.pk for match in home.context["finished_matches"]}
    assert cup["r12"] in recent
    assert not recent & later


def test_a_correction_needs_confirming_before_it_annuls_anything(organiser, cup):
    with pytest.raises(Conflict, match="confirm"):
        pairing_correct(tournament_id=cup["tournament"].pk, key="R1-2", winner="emma", user=organiser)
    assert not Match.objects.filter(status=Match.Status.ANNULLED).exists()
    assert Match.objects.get(pk=cup["r12"]).winner == cup["players"]["dev"]
    assert audit_records().differences == []
