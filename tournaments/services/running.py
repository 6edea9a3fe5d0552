"""Running the event from the floor: call a match to a station, enter a match's score.

A pairing is "underway" from the moment an organiser calls it (with an
optional station or table name) until it is decided; the pages list it under
"Underway" then, and the ready pairings not yet called under "Up next".
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from core.errors import Conflict, Invalid, NotAllowed, NotFound
from matches.listeners import game_playable_notify
from matches.models import Game, Match
from matches.selectors import match_score, user_is_organiser
from matches.services import AnyUser, game_set_result
from matches.services.notifications import Kind, notify

from ..models import RoundSchedule, Tournament, TournamentMatch
from .common import require_organiser, tournament_lock

#: Tournaments one sweep calls held rounds in, at most: the rest are called at the next.
_CALLS_PER_SWEEP = 20
#: Games an organiser's result can still be entered for.
_UNSETTLED = (Game.Status.OPEN, Game.Status.AWAITING_CONFIRMATION, Game.Status.DISPUTED)


@transaction.atomic
def pairing_call(
    *, tournament_id: int, key: str, user: AnyUser, station: str = "", underway: bool = True
) -> TournamentMatch:
    """Mark a ready pairing underway (at `station`, if given), or take it back to "up next"."""
    require_organiser(user)
    # The match's row before the tournament's, the order a result takes them (its listener locks the
    # tournament under the match's lock): a call that opens the match's table and a result arriving at
    # once wait for each other rather than deadlock.
    match_id = (
        TournamentMatch.objects.filter(tournament_id=tournament_id, key=key).values_list("match_id", flat=True).first()
    )
    if match_id is not None:
        list(Match.objects.select_for_update(of=("self",)).filter(pk=match_id).values_list("pk", flat=True))
    tournament = tournament_lock(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(f"{tournament.name!r} is not running.")
    pairing = (
        TournamentMatch.objects.filter(tournament=tournament, key=key)
        .select_related("player_one", "player_two", "player_three", "player_four")
        .first()
    )
    if pairing is None:
        raise NotFound(f"{tournament.name!r} has no match {key!r}.")
    if pairing.status != TournamentMatch.Status.READY or pairing.match_id is None:
        raise Invalid(f"Match {key} is {pairing.get_status_display().lower()}; only a match ready to play is called.")
    station = station.strip()
    if len(station) > 40:
        raise Invalid("A station name has at most 40 characters.", extra={"field": "station"})
    pairing.underway_at = timezone.now() if underway else None
    pairing.station = station if underway else ""
    pairing.save(update_fields=["underway_at", "station"])
    if underway:
        pairing_called(tournament, pairing)
    return pairing


def pairing_called(tournament: Tournament, pairing: TournamentMatch) -> None:
    """A pairing was just called (its `underway_at` saved): at the tables, its open game's table opens (the
    app that plays them tells the players); elsewhere its players are told to go and play."""
    if not tournament.played_at_tables or pairing.match_id is None:
        _notify_called(tournament, pairing)
        return
    game_id = (
        Game.objects.filter(match_id=pairing.match_id, status=Game.Status.OPEN)
        .order_by("number")
        .values_list("pk", flat=True)
        .first()
    )
    if game_id is not None:
        game_playable_notify(game_id=game_id)


def pairings_call_ready(
    tournament: Tournament, pairings: Iterable[TournamentMatch], *, now: datetime | None = None
) -> None:
    """With `advance_automatically`, call every ready pairing not yet called, as the pairing manager saves it:
    a round is called as soon as it is paired, so nobody need be at the desk (the tournament row locked).

    A round whose "not before" time is still to come is held: `rounds_call_due` calls it then.
    """
    if not tournament.advance_automatically or tournament.status != Tournament.Status.RUNNING:
        return
    now = now or timezone.now()
    ready = [
        pairing
        for pairing in pairings
        if pairing.status == TournamentMatch.Status.READY
        and pairing.match_id is not None
        and pairing.underway_at is None
    ]
    if not ready:
        return
    held = set(RoundSchedule.objects.filter(tournament=tournament, not_before__gt=now).values_list("round", flat=True))
    due = [pairing for pairing in ready if pairing.round not in held]
    if not due:
        return
    TournamentMatch.objects.filter(pk__in=[pairing.pk for pairing in due]).update(underway_at=now)
    for pairing in due:
        pairing.underway_at = now
        pairing_called(tournament, pairing)


def rounds_call_due(*, now: datetime | None = None) -> list[int]:
    """Call the held rounds whose "not before" time has come, in the tournaments that run themselves.

    The beat's sweep calls this (with `tournaments_start_due`): a round's time is the service's, kept
    whether or not anyone has a page open. Each tournament is called under its row's lock, in its own
    transaction, at most `_CALLS_PER_SWEEP` a sweep. Returns the ids of the tournaments it called in.
    """
    now = now or timezone.now()
    come = RoundSchedule.objects.filter(tournament=OuterRef("tournament"), round=OuterRef("round"), not_before__lte=now)
    waiting = TournamentMatch.objects.filter(
        tournament__advance_automatically=True,
        tournament__status=Tournament.Status.RUNNING,
        status=TournamentMatch.Status.READY,
        match__isnull=False,
        underway_at__isnull=True,
    ).filter(Exists(come))
    tournament_ids = list(waiting.values_list("tournament_id", flat=True).distinct().order_by()[:_CALLS_PER_SWEEP])
    for tournament_id in tournament_ids:
        with transaction.atomic():
            tournament = tournament_lock(tournament_id)
            pairings_call_ready(tournament, TournamentMatch.objects.filter(tournament=tournament), now=now)
    return tournament_ids


def _notify_called(tournament: Tournament, pairing: TournamentMatch) -> None:
    """Tell the pairing's players their match is called (sent after the commit; each may turn it off)."""
    seats = [player for player in pairing.seats if player is not None]
    where = f" at {pairing.station}" if pairing.station else ""
    notify(
        kind=Kind.MATCH_CALLED,
        user_ids=[player.user_id for player in seats],
        subject=f"your match in {tournament.name} is called{where}",
        lines=[
            f"{' v '.join(player.handle for player in seats)} in {tournament.name} is called{where}: "
            "go to your table and play.",
            "Report each game's result on the match page (or submit its log).",
        ],
        path=reverse("web:match_detail", args=[pairing.match_id]),
    )


@transaction.atomic
def match_score_enter(*, match_id: int, user: AnyUser, games_one: int, games_two: int, reason: str = "") -> Match:
    """An organiser enters a match's final score: the games still open are set (organiser results) to reach it.

    The loser's games are set first so the match cannot end early; games already
    decided stay as they are, so the score can only add to them. Every game set
    keeps the reason in the match's history.
    """
    if not user_is_organiser(user=user):
        raise NotAllowed("Only organisers enter a match's result.")
    match = Match.objects.select_related("player_one", "player_two").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"There is no match {match_id}.")
    if match.status != Match.Status.IN_PROGRESS:
        raise Conflict(f"Match {match.pk} is {match.get_status_display().lower()}; correct a decided result instead.")
    needed = match.wins_needed
    targets = (games_one, games_two)
    if max(targets) != needed or min(targets) >= needed or min(targets) < 0:
        raise Invalid(
            f"One player must have won {needed} game{'s' if needed != 1 else ''} and the other fewer.",
            extra={"field": "score"},
        )
    score = match_score(match=match)
    current = (score[match.player_one.handle], score[match.player_two.handle])
    if current[0] > games_one or current[1] > games_two:
        raise Invalid(
            f"The games already decided stand at {current[0]}-{current[1]}; the score cannot go below that.",
            extra={"field": "score"},
        )
    winner_side = 0 if games_one == needed else 1
    loser_side = 1 - winner_side
    handles = (match.player_one.handle, match.player_two.handle)
    sequence = [handles[loser_side]] * (targets[loser_side] - current[loser_side]) + [handles[winner_side]] * (
        targets[winner_side] - current[winner_side]
    )
    for handle in sequence:
        game = Game.objects.filter(match=match, status__in=_UNSETTLED).order_by("number").first()
        if game is None:  # unreachable: an unfinished match always has a game to play
            raise Conflict(f"Match {match.pk} has no game left to set.")
        game_set_result(game_id=game.pk, user=user, winner=handle, reason=reason)
    match.refresh_from_db()
    return match
