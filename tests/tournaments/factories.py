"""Tournament test data, made through the services the way the API makes it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from matches.models import Game, Match, Player
from matches.services import game_set_result
from tests.matches.factories import make_player
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import entrant_add, tournament_create, tournament_start


def make_tournament(
    organiser: AbstractBaseUser, players: list[Player], *, format: str, start: bool = True, **options: object
) -> Tournament:
    options.setdefault("best_of", 1)
    tournament = tournament_create(name=f"{format} cup", format=format, user=organiser, **options)  # type: ignore[arg-type]
    for seed, player in enumerate(players, start=1):
        entrant_add(tournament_id=tournament.pk, handle=player.handle, seed=seed, user=organiser)
    if start:
        tournament = tournament_start(tournament_id=tournament.pk, user=organiser)
    return tournament


def make_players(count: int, prefix: str = "p") -> list[Player]:
    return [make_player(f"{prefix}{index:02d}") for index in range(1, count + 1)]


def play(organiser: AbstractBaseUser, pairing: TournamentMatch, winner: Player) -> None:
    """Decide a pairing's match by having an organiser set each game's result to `winner`."""
    assert pairing.match_id is not None, f"{pairing.key} has no match yet"
    while True:
        match = Match.objects.get(pk=pairing.match_id)
        if match.status == Match.Status.FINISHED:
            return
        game = Game.objects.filter(match=match, status=Game.Status.OPEN).order_by("number").first()
        assert game is not None
        game_set_result(game=game, user=organiser, winner=winner.handle)


def ready(tournament: Tournament) -> list[TournamentMatch]:
    return list(
        TournamentMatch.objects.filter(tournament=tournament, status=TournamentMatch.Status.READY)
        .select_related("player_one", "player_two")
        .order_by("id")
    )
