"""Deciding games: from verified logs (called by replays), players' reports, or an organiser.

Every change to a match, its games or their logs holds the match row's lock
(`game_lock`), so changes to one match run one after the other.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from speedsite.errors import Invalid, NotAllowed

from ..models import Game, Match, Player
from ..selectors import AnyUser, user_is_organiser, user_player
from .matches import match_progress


def game_lock(*, game_id: int) -> Game:
    """Take the game's match row lock, then load the game with its match and players.

    The match row is the one lock every change to a match, its games or their
    logs takes, so those changes run one after the other per match and never
    deadlock. The game is read after the lock is held, in a statement of its
    own, so it shows what the lock's previous holder committed. Call inside a
    transaction; raises Game.DoesNotExist.
    """
    locked = Match.objects.select_for_update(of=("self",)).filter(games__id=game_id).values_list("id", flat=True)
    if not locked:
        raise Game.DoesNotExist(f"no game {game_id}")
    return Game.objects.select_related("match__player_one", "match__player_two").get(pk=game_id)


@transaction.atomic
def game_decide(*, game: Game, winner: Player | None, decided_by: str) -> Game:
    """Record a game's result (winner None: a void game) and move the match on.

    The caller holds the match row's lock: `game` came from `game_lock` in this transaction.
    """
    match = game.match
    if winner is not None and winner.pk not in (match.player_one_id, match.player_two_id):
        raise Invalid(f"{winner.handle!r} does not play in this match.")
    game.winner = winner
    game.status = Game.Status.DECIDED if winner is not None else Game.Status.VOID
    game.decided_by = decided_by
    game.decided_at = timezone.now()
    game.save(update_fields=["winner", "status", "decided_by", "decided_at"])
    match_progress(match=match)
    return game


@transaction.atomic
def game_dispute(*, game: Game) -> Game:
    """Results disagree: the game waits for an organiser; nothing already recorded is overwritten.

    The caller holds the match row's lock (`game_lock`).
    """
    if game.status != Game.Status.DISPUTED:
        game.status = Game.Status.DISPUTED
        game.save(update_fields=["status"])
    return game


def _winner_from_handle(match: Match, handle: str | None) -> Player | None:
    if handle is None:
        return None
    for player in match.players:
        if player.handle.lower() == handle.lower():
            return player
    raise Invalid(
        f"{handle!r} does not play in this match; the winner is {match.player_one.handle!r} "
        f"or {match.player_two.handle!r}.",
        extra={"field": "winner"},
    )


@transaction.atomic
def game_report_result(*, game: Game, user: AnyUser, winner: str) -> Game:
    """A player reports who won; when both players report the same winner, that decides the game."""
    game = game_lock(game_id=game.pk)
    match = game.match
    me = user_player(user=user)
    if me is None or me.pk not in (match.player_one_id, match.player_two_id):
        raise NotAllowed("Only the two players of this match can report its results.")
    if game.status != Game.Status.OPEN:
        raise Invalid(
            f"Game {game.number} is {game.get_status_display().lower()}, not open; "
            "an organiser can settle it if it is wrong."
        )
    reported = _winner_from_handle(match, winner)
    assert reported is not None
    field = "reported_by_one" if me.pk == match.player_one_id else "reported_by_two"
    setattr(game, field, reported)
    game.save(update_fields=[field])
    if game.reported_by_one_id is not None and game.reported_by_two_id is not None:
        if game.reported_by_one_id == game.reported_by_two_id:
            return game_decide(game=game, winner=reported, decided_by=Game.DecidedBy.PLAYERS)
        return game_dispute(game=game)
    return game


@transaction.atomic
def game_set_result(*, game: Game, user: AnyUser, winner: str | None) -> Game:
    """An organiser sets (or settles) a game's result; `winner` None voids the game."""
    if not user_is_organiser(user=user):
        raise NotAllowed("Only organisers can set a game's result.")
    game = game_lock(game_id=game.pk)
    match = game.match
    if game.status not in (Game.Status.OPEN, Game.Status.DISPUTED):
        raise Invalid(
            f"Game {game.number} is already {game.get_status_display().lower()}; "
            "only open or disputed games can be set."
        )
    return game_decide(game=game, winner=_winner_from_handle(match, winner), decided_by=Game.DecidedBy.ORGANISER)
