"""The API's edit, delete and undo of a tournament's start, and a score corrected game by game."""

from __future__ import annotations

import pytest

from matches.models import Game
from matches.services import game_set_result
from tests.factories import make_players, make_tournament, ready
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


def test_settings_are_replaced_before_the_start_and_refused_after(client_for, anon, organiser, alice):
    tournament = make_tournament(organiser, make_players(4), format="single_elimination", start=False)
    url = f"/api/tournaments/{tournament.pk}/"
    body = {"name": "Renamed", "format": "swiss", "best_of": 3, "options": {"swiss_rounds": 2}}
    assert anon.put(url, body, format="json").status_code == 401
    assert client_for(alice.user).put(url, body, format="json").status_code == 403
    done = client_for(organiser).put(url, body, format="json")
    assert done.status_code == 200, done.json()
    assert (done.json()["name"], done.json()["format"]) == ("Renamed", "swiss")
    refused = client_for(organiser).put(url, body | {"best_of": 2}, format="json")
    assert refused.status_code == 400
    client_for(organiser).post(f"{url}start/")
    refused = client_for(organiser).put(url, body, format="json")
    assert refused.status_code == 409 and "has started" in refused.json()["message"]


def test_the_start_is_undone_and_the_tournament_deleted(client_for, organiser):
    tournament = make_tournament(organiser, make_players(4), format="round_robin")
    url = f"/api/tournaments/{tournament.pk}/"
    undone = client_for(organiser).post(f"{url}start/undo/")
    assert undone.status_code == 200 and undone.json()["status"] == "setup"
    assert not TournamentMatch.objects.filter(tournament=tournament).exists()
    again = client_for(organiser).post(f"{url}start/undo/")
    assert again.status_code == 409
    assert client_for(organiser).delete(url).status_code == 204
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_played_tournament_is_not_deleted(client_for, organiser):
    tournament = make_tournament(organiser, make_players(2), format="round_robin")
    (only,) = ready(tournament)
    game_set_result(game_id=Game.objects.get(match_id=only.match_id).pk, user=organiser, winner=only.player_one.handle)
    refused = client_for(organiser).delete(f"/api/tournaments/{tournament.pk}/")
    assert refused.status_code == 409
    assert client_for(organiser).post(f"/api/tournaments/{tournament.pk}/start/undo/").status_code == 409


def test_a_score_is_corrected_game_by_game(client_for, organiser):
    tournament = make_tournament(organiser, make_players(2), format="single_elimination", best_of=3)
    (final,) = ready(tournament)
    one, two = final.player_one.handle, final.player_two.handle
    for winner in (one, two, one):
        game = Game.objects.get(match_id=final.match_id, status=Game.Status.OPEN)
        game_set_result(game_id=game.pk, user=organiser, winner=winner)
    url = f"/api/tournaments/{tournament.pk}/matches/{final.key}/correct/"
    games = [{"game": 1, "winner": one}, {"game": 2, "winner": two}, {"game": 3, "winner": two}]
    preview = client_for(organiser).post(url, {"games": games, "dry_run": True}, format="json")
    assert preview.status_code == 200, preview.json()
    data = preview.json()
    assert data["score"] == {"before": {one: 2, two: 1}, "after": {one: 1, two: 2}}
    assert data["games"] == [
        {"game": 3, "before": one, "after": two, "before_status": "decided", "after_status": "decided"}
    ]
    assert not data["applied"]
    refused = client_for(organiser).post(url, {"games": [{"game": 1}]}, format="json")
    assert refused.status_code == 400 and "winner" in refused.json()["message"]
    applied = client_for(organiser).post(url, {"games": games, "reason": "sheet"}, format="json")
    assert applied.json()["applied"] and applied.json()["new_winner"] == two
