"""Corrections from above: a match's result turned round, or the match set aside (annulled).

An app above matches (tournaments, when an organiser corrects a pairing)
decides that a finished match went the other way, or that a match should
never have been played. These services change the match itself, so every
page that reads the match agrees with the correction, and keep each change
in the match's history with the correction's id (a plain value: matches
never imports the app that made it). No listener runs: the caller brings
its own records (pairings, ratings) up to date in the same transaction.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from speedsite.errors import Conflict, Invalid, NotFound
from speedsite.site_cache import site_lists_changed

from ..models import Game, Match, ResultChange
from ..selectors import AnyUser
from ..series import series_step
from .games import game_record_change, game_state


def _user(user: AnyUser) -> Any:
    return user if user is not None and user.is_authenticated else None


def _match_lock(match_id: int) -> Match:
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("player_one", "player_two", "winner")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise NotFound(f"There is no match {match_id}.")
    return match


def _match_state(match: Match) -> dict[str, Any]:
    return {"status": match.status, "winner": match.winner.handle if match.winner is not None else None}


@transaction.atomic
def match_correct(
    *, match_id: int, winner_id: int, correction_id: int, made_by: AnyUser = None, reason: str = ""
) -> Match:
    """A finished match really went to `winner_id`: turn each decided game's result round.

    The series then reads the same the other way (the last game is still the
    one that ended it), every changed game says `correction` and keeps a
    history row naming the correction, and the match's winner follows from its
    games. A match already won by `winner_id` is left as it is.
    """
    match = _match_lock(match_id)
    players = (match.player_one_id, match.player_two_id)
    if winner_id not in players:
        raise Invalid(f"Player {winner_id} does not play in match {match.pk}.", extra={"field": "winner"})
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            f"Match {match.pk} is {match.get_status_display().lower()}; only a finished result is corrected."
        )
    if match.winner_id == winner_id:
        return match
    other = {players[0]: players[1], players[1]: players[0]}
    now = timezone.now()
    source = {"correction": correction_id}
    games = list(Game.objects.filter(match=match, status=Game.Status.DECIDED).order_by("number"))
    for game in games:
        game.match = match  # history names players by handle: the locked match has them
        before = game_state(game)
        assert game.winner_id is not None
        game.winner_id = other[game.winner_id]
        game.decided_by = Game.DecidedBy.CORRECTION
        game.decided_at = now
        game.decided_by_user = _user(made_by)
        game.reason = reason
        game.save(update_fields=["winner", "decided_by", "decided_at", "decided_by_user", "reason"])
        game_record_change(
            game=game, kind=ResultChange.Kind.CORRECTION, before=before, made_by=made_by, reason=reason, source=source
        )
    step = series_step(
        games=Game.objects.filter(match=match).values_list("number", "status", "winner_id"),
        player_ids=players,
        wins_needed=match.wins_needed,
    )
    # Turning every decided game round turns the series round: the new winner has the wins the old one had.
    assert step.winner_id == winner_id, "a finished match's games, turned round, give the other player the series"
    match.winner = match.player_one if winner_id == match.player_one_id else match.player_two
    # finished_at stays: the match was decided then; the correction says how (ratings keep its place in time).
    Match.objects.filter(pk=match.pk).update(winner=match.winner)
    return match


@transaction.atomic
def match_annul(*, match_id: int, correction_id: int, made_by: AnyUser = None, reason: str = "") -> Match:
    """Set a match aside: it stays visible, labelled, with its games, and counts nowhere.

    Used when a correction above means the match should never have been
    played (its players were not the ones who should have met). Its winner,
    if it had one, stays as its games say; a claim still awaiting
    confirmation no longer lapses. Annulling twice changes nothing.
    """
    match = _match_lock(match_id)
    if match.status == Match.Status.ANNULLED:
        return match
    before = _match_state(match)
    match.status = Match.Status.ANNULLED
    Match.objects.filter(pk=match.pk).update(status=match.status)
    Game.objects.filter(match=match, status=Game.Status.AWAITING_CONFIRMATION).update(confirm_by=None)
    ResultChange.objects.create(
        match=match,
        game=None,
        kind=ResultChange.Kind.ANNULMENT,
        made_by=_user(made_by),
        reason=reason,
        before=before,
        after=_match_state(match),
        source={"correction": correction_id},
    )
    site_lists_changed()
    return match
