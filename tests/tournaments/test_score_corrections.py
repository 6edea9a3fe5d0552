"""Correcting the real score of two players' match, game by game: 2-1 the other way, not every game turned round."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Game, Match, ResultChange
from matches.services import game_set_result
from speedsite.errors import ApplicationError, Conflict
from tests.factories import make_player, make_tournament, play
from tournaments.audit import audit_records
from tournaments.models import CorrectionRecord, PlayerRating, RatingChange, Tournament, TournamentMatch
from tournaments.selectors import rating_history, tournament_standings
from tournaments.services import pairing_correct

pytestmark = pytest.mark.django_db

NAMES = ("alice", "ben", "chloe", "dev", "emma", "finn")


def pairing(tournament: Tournament, key: str) -> TournamentMatch:
    return TournamentMatch.objects.select_related("player_one", "player_two", "winner").get(
        tournament=tournament, key=key
    )


def play_games(organiser: Any, match_id: int, winners: tuple[str, ...]) -> None:
    for winner in winners:
        game = Game.objects.filter(match_id=match_id, status=Game.Status.OPEN).get()
        game_set_result(game_id=game.pk, user=organiser, winner=winner)


@pytest.fixture
def cup(organiser: Any) -> dict[str, Any]:
    """6 players, best of 3: dev beats emma (R1-2) 2-1 (dev, emma, dev), then alice (R2-1)."""
    players = {name: make_player(name) for name in NAMES}
    tournament = make_tournament(organiser, [players[name] for name in NAMES], format="single_elimination", best_of=3)
    r12 = pairing(tournament, "R1-2")
    play_games(organiser, r12.match_id, ("dev", "emma", "dev"))
    play(organiser, pairing(tournament, "R1-4"), players["chloe"])
    play(organiser, pairing(tournament, "R2-1"), players["dev"])
    return {"tournament": tournament, "players": players, "r12": r12.match_id}


EMMA_2_1 = [{"game": 1, "winner": "emma"}, {"game": 2, "winner": "emma"}, {"game": 3, "winner": "dev"}]


def test_the_real_score_is_entered_game_by_game_and_everything_follows(organiser, cup):
    tournament, players = cup["tournament"], cup["players"]
    semi_match = pairing(tournament, "R2-1").match_id
    # Game 3 went to emma, not game 1: emma won 2-1 with games dev, emma, emma.
    games = [{"game": 1, "winner": "dev"}, {"game": 2, "winner": "emma"}, {"game": 3, "winner": "emma"}]
    preview = pairing_correct(tournament_id=tournament.pk, key="R1-2", games=games, user=organiser, dry_run=True)
    assert not preview.applied
    assert (preview.old_winner, preview.new_winner) == ("dev", "emma")
    assert preview.games == [{"game": 3, "before": "dev", "after": "emma"}]
    assert preview.score == {"before": {"dev": 2, "emma": 1}, "after": {"dev": 1, "emma": 2}}
    assert [(change.key, change.action) for change in preview.changes] == [("R2-1", "reset"), ("R3-1", "refill")]
    assert preview.to_dict()["score"] == preview.score
    assert Match.objects.get(pk=cup["r12"]).winner == players["dev"], "a dry run changes nothing"

    with pytest.raises(Conflict, match="confirm"):
        pairing_correct(tournament_id=tournament.pk, key="R1-2", games=games, user=organiser)
    done = pairing_correct(
        tournament_id=tournament.pk, key="R1-2", games=games, user=organiser, reason="Sheet misread", confirm=True
    )
    assert done.applied

    match = Match.objects.get(pk=cup["r12"])
    assert match.winner == players["emma"]
    numbers = list(match.games.order_by("number").values_list("winner__handle", "decided_by"))
    assert numbers == [
        ("dev", Game.DecidedBy.ORGANISER),
        ("emma", Game.DecidedBy.ORGANISER),
        ("emma", Game.DecidedBy.CORRECTION),
    ], "only the game that changed is corrected"
    corrected = pairing(tournament, "R1-2")
    assert (corrected.winner, corrected.games_one, corrected.games_two) == (players["emma"], 1, 2)
    assert corrected.result_source == TournamentMatch.Source.CORRECTION

    record = CorrectionRecord.objects.get(tournament=tournament)
    assert record.before["games"] == {"3": "dev"} and record.after["games"] == {"3": "emma"}
    (change,) = ResultChange.objects.filter(match=match, kind=ResultChange.Kind.CORRECTION)
    assert (change.game.number, change.before["winner"], change.after["winner"]) == (3, "dev", "emma")
    assert (change.reason, change.source) == ("Sheet misread", {"correction": record.pk})

    # The bracket: emma plays alice again; dev's semi-final is set aside.
    semi = pairing(tournament, "R2-1")
    assert (semi.player_one, semi.player_two, semi.status) == (players["alice"], players["emma"], "ready")
    assert Match.objects.get(pk=semi_match).status == Match.Status.ANNULLED
    # Ratings: dev's only counting result is the 1-2 loss, three games.
    (dev_change,) = rating_history(player=players["dev"])
    assert dev_change.match_id == cup["r12"] and dev_change.rating_after < 1500
    assert PlayerRating.objects.get(player=players["dev"]).games == 3
    assert not RatingChange.objects.filter(match_id=semi_match).exists()
    assert audit_records().differences == []


def test_a_score_that_keeps_the_winner_moves_only_the_games(organiser):
    """Round robin: ann won 2-1 either way, but which games she won changes the games' history."""
    ann, bob, cy = make_player("ann"), make_player("bob"), make_player("cy")
    tournament = make_tournament(organiser, [ann, bob, cy], format="round_robin", best_of=3)
    first = next(p for p in TournamentMatch.objects.filter(tournament=tournament) if p.match_id is not None)
    one, two = first.player_one.handle, first.player_two.handle
    play_games(organiser, first.match_id, (one, two, one))
    first.refresh_from_db()
    preview = pairing_correct(
        tournament_id=tournament.pk,
        key=first.key,
        games=[{"game": 1, "winner": two}, {"game": 2, "winner": one}],
        user=organiser,
    )
    assert preview.applied and preview.changes == [] and preview.old_winner == preview.new_winner == one
    assert len(preview.games) == 2
    assert ResultChange.objects.filter(match_id=first.match_id, kind=ResultChange.Kind.CORRECTION).count() == 2
    assert audit_records().differences == []
    # Giving the games as they are changes nothing and records nothing.
    again = pairing_correct(
        tournament_id=tournament.pk, key=first.key, games=[{"game": 1, "winner": two}], user=organiser
    )
    assert not again.applied and again.games == []
    assert CorrectionRecord.objects.filter(tournament=tournament).count() == 1
    rows = {row.player.handle: row.values["match_wins"] for row in tournament_standings(tournament=tournament).rows}
    assert rows[one] == 1


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ([{"game": 3, "winner": "emma"}, {"game": 2, "winner": "dev"}], "over after game 2"),
        ([{"game": 1, "winner": "emma"}, {"game": 3, "winner": "emma"}], "over after game 2"),
        ([{"game": 4, "winner": "emma"}], "Game 4 .* not a decided game"),
        ([{"game": 1, "winner": "finn"}], "'finn' did not play"),
        ([{"game": 1, "places": {"dev": 1, "emma": 2}}], "give each game's winner"),
        ([{"game": 1, "winner": "emma"}, {"game": 1, "winner": "dev"}], "given twice"),
    ],
)
def test_refuses_a_score_the_match_could_not_have_had(organiser, cup, games, message):
    with pytest.raises(ApplicationError, match=message):
        pairing_correct(tournament_id=cup["tournament"].pk, key="R1-2", games=games, user=organiser, dry_run=True)


def test_refuses_both_a_winner_and_games(organiser, cup):
    with pytest.raises(ApplicationError, match="not both"):
        pairing_correct(tournament_id=cup["tournament"].pk, key="R1-2", winner="emma", games=EMMA_2_1, user=organiser)
