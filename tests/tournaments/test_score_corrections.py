"""Correcting the real score of two players' match, game by game: 2-1 the other way, not every game turned round."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError, Conflict
from matches.models import Game, Match, ResultChange
from matches.services import game_set_result
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
    assert preview.games == [
        {"game": 3, "before": "dev", "after": "emma", "before_status": "decided", "after_status": "decided"}
    ]
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
    assert record.before["games"] == {"3": {"winner": "dev", "status": "decided"}}
    assert record.after["games"] == {"3": {"winner": "emma", "status": "decided"}}
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
        # A fourth game of a best of 3 is one too many; a fifth cannot come before the fourth.
        ([{"game": 4, "winner": "emma"}], "best of 3 has at most 3 games that someone wins"),
        ([{"game": 5, "winner": "emma"}], "Game 5 cannot be added without game 4"),
        ([{"game": 0, "winner": "emma"}], "has no game 0"),
        ([{"game": 4, "void": True}], "Game 4 .* never played .* nothing to void"),
        ([{"game": 3, "void": True}], r"no one reaches the 2 games needed \(1\N{EN DASH}1\)"),
        ([{"game": 3, "void": True, "winner": "dev"}], "its winner or say it was void, not both"),
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


def score_of(tournament: Tournament, key: str) -> dict[str, int]:
    recorded = pairing(tournament, key)
    return {recorded.player_one.handle: recorded.games_one, recorded.player_two.handle: recorded.games_two}


@pytest.mark.parametrize(
    "games",
    [
        [{"game": 2, "void": True}],  # dev, -, dev
        [{"game": 2, "winner": "dev"}, {"game": 3, "void": True}],  # dev, dev, -: a void game may follow the end
    ],
)
def test_a_2_1_that_was_2_0_voids_the_game_that_did_not_count(organiser, cup, games):
    tournament, players = cup["tournament"], cup["players"]
    preview = pairing_correct(tournament_id=tournament.pk, key="R1-2", games=games, user=organiser, dry_run=True)
    assert preview.score == {"before": {"dev": 2, "emma": 1}, "after": {"dev": 2, "emma": 0}}
    assert (preview.old_winner, preview.new_winner, preview.changes) == ("dev", "dev", [])
    voided = next(game for game in preview.games if game["after_status"] == "void")
    assert (voided["before_status"], voided["after"]) == ("decided", None)
    assert not Game.objects.filter(match_id=cup["r12"], status=Game.Status.VOID).exists(), "a dry run writes nothing"

    done = pairing_correct(
        tournament_id=tournament.pk, key="R1-2", games=games, user=organiser, reason="A practice game was counted"
    )
    assert done.applied
    match = Match.objects.get(pk=cup["r12"])
    assert match.winner == players["dev"]
    void = match.games.get(status=Game.Status.VOID)
    assert (void.winner, void.places, void.decided_by) == (None, None, Game.DecidedBy.CORRECTION)
    record = CorrectionRecord.objects.get(tournament=tournament)
    assert record.after["games"][str(void.number)] == {"winner": None, "status": "void"}
    change = ResultChange.objects.get(game=void, kind=ResultChange.Kind.CORRECTION)
    assert (change.before["status"], change.after["status"], change.after["winner"]) == ("decided", "void", None)
    assert (change.reason, change.source) == ("A practice game was counted", {"correction": record.pk})
    # The pairing, the standings' game counts and the ratings follow: two games counted, not three.
    assert score_of(tournament, "R1-2") == {"dev": 2, "emma": 0}
    assert RatingChange.objects.get(match_id=cup["r12"], player=players["dev"]).games == 2
    assert audit_records().differences == []


def test_a_2_0_that_was_2_1_adds_the_game_never_recorded(organiser, cup):
    tournament = cup["tournament"]
    r14 = pairing(tournament, "R1-4")
    chloe, other = "chloe", next(p.handle for p in (r14.player_one, r14.player_two) if p.handle != "chloe")
    assert score_of(tournament, "R1-4") == {chloe: 2, other: 0}
    games = [{"game": 2, "winner": other}, {"game": 3, "winner": chloe}]
    preview = pairing_correct(tournament_id=tournament.pk, key="R1-4", games=games, user=organiser, dry_run=True)
    assert preview.games == [
        {"game": 2, "before": chloe, "after": other, "before_status": "decided", "after_status": "decided"},
        {"game": 3, "before": None, "after": chloe, "before_status": "not_played", "after_status": "decided"},
    ]
    assert preview.score["after"] == {chloe: 2, other: 1} and preview.new_winner == chloe
    assert not Game.objects.filter(match_id=r14.match_id, number=3).exists(), "a dry run adds nothing"

    assert pairing_correct(
        tournament_id=tournament.pk, key="R1-4", games=games, user=organiser, reason="Game 3 was left off the sheet"
    ).applied
    added = Game.objects.get(match_id=r14.match_id, number=3)
    assert (added.status, added.winner.handle, added.decided_by) == ("decided", chloe, Game.DecidedBy.CORRECTION)
    (history,) = ResultChange.objects.filter(game=added)
    assert history.kind == ResultChange.Kind.CORRECTION and history.before == {}
    assert (history.after["status"], history.after["winner"]) == ("decided", chloe)
    assert history.source == {"correction": CorrectionRecord.objects.get(tournament=tournament).pk}
    assert score_of(tournament, "R1-4") == {chloe: 2, other: 1}
    assert RatingChange.objects.get(match_id=r14.match_id, player__handle=chloe).games == 3
    assert audit_records().differences == []


def test_an_added_game_can_turn_the_match_and_the_bracket_follows(organiser, cup):
    """chloe won 2-0; really her opponent won games 1 and 3: the winner changes, and the next round with it."""
    tournament = cup["tournament"]
    r14 = pairing(tournament, "R1-4")
    other = next(p for p in (r14.player_one, r14.player_two) if p.handle != "chloe")
    games = [{"game": 1, "winner": other.handle}, {"game": 3, "winner": other.handle}]
    preview = pairing_correct(tournament_id=tournament.pk, key="R1-4", games=games, user=organiser, dry_run=True)
    assert (preview.old_winner, preview.new_winner) == ("chloe", other.handle)
    assert preview.changes, "the round after it changes"
    pairing_correct(tournament_id=tournament.pk, key="R1-4", games=games, user=organiser, reason="Sheet", confirm=True)
    assert Match.objects.get(pk=r14.match_id).winner == other
    assert pairing(tournament, "R1-4").winner == other
    assert chloe_plays_nowhere_next(tournament)
    assert audit_records().differences == []


def chloe_plays_nowhere_next(tournament: Tournament) -> bool:
    later = TournamentMatch.objects.filter(tournament=tournament, round__gt=1)
    return (
        not later.filter(player_one__handle="chloe").exists() and not later.filter(player_two__handle="chloe").exists()
    )


def test_a_void_game_given_a_winner_counts_and_the_standings_follow(organiser):
    """Round robin, best of 3: one, void, one (2-0); the void game was really two's, and so was game 3: two 2-1."""
    ann, bob, cy = make_player("ann"), make_player("bob"), make_player("cy")
    tournament = make_tournament(
        organiser, [ann, bob, cy], format="round_robin", best_of=3, tie_breaks=["match_wins", "game_wins"]
    )
    first = next(p for p in TournamentMatch.objects.filter(tournament=tournament) if p.match_id is not None)
    one, two = first.player_one.handle, first.player_two.handle
    for winner in (one, None, one):
        game = Game.objects.filter(match_id=first.match_id, status=Game.Status.OPEN).get()
        game_set_result(game_id=game.pk, user=organiser, winner=winner)
    games = [{"game": 2, "winner": two}, {"game": 3, "winner": two}]
    preview = pairing_correct(tournament_id=tournament.pk, key=first.key, games=games, user=organiser, dry_run=True)
    assert preview.games[0] == {
        "game": 2,
        "before": None,
        "after": two,
        "before_status": "void",
        "after_status": "decided",
    }
    assert preview.score == {"before": {one: 2, two: 0}, "after": {one: 1, two: 2}}
    assert pairing_correct(tournament_id=tournament.pk, key=first.key, games=games, user=organiser, reason="x").applied
    rows = {row.player.handle: row.values for row in tournament_standings(tournament=tournament).rows}
    assert (rows[two]["match_wins"], rows[two]["game_wins"], rows[one]["game_wins"]) == (1, 2, 1)
    assert audit_records().differences == []


def test_the_api_previews_and_refuses_a_void_game(client_for, organiser, cup):
    url = f"/api/tournaments/{cup['tournament'].pk}/matches/R1-2/correct/"
    orga = client_for(organiser)
    preview = orga.post(url, {"games": [{"game": 2, "void": True}], "dry_run": True}, format="json")
    assert preview.status_code == 200, preview.json()
    body = preview.json()
    assert body["games"] == [
        {"game": 2, "before": "emma", "after": None, "before_status": "decided", "after_status": "void"}
    ]
    assert body["score"]["after"] == {"dev": 2, "emma": 0} and body["applied"] is False
    refused = orga.post(url, {"games": [{"game": 3, "void": True}], "dry_run": True}, format="json")
    assert refused.status_code == 400
    assert "no one reaches the 2 games needed" in refused.json()["message"]
