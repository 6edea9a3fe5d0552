"""Reads for the schedule: a tournament's round times, and what a player's calendar feed lists."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from matches.models import Player
from tournaments.models import CalendarToken, Entrant, RoundSchedule, Tournament, TournamentMatch

#: The most tournaments and matches one player's feed lists (the latest first): a feed stays small.
FEED_LIMIT = 200


def round_times(*, tournament: Tournament) -> dict[int, datetime]:
    """Each scheduled round's "not before" time, by round number."""
    return dict(RoundSchedule.objects.filter(tournament=tournament).values_list("round", "not_before"))


def round_times_for(*, tournament_ids: list[int]) -> dict[tuple[int, int], datetime]:
    """(tournament id, round) -> "not before", for several tournaments in one query."""
    return {
        (tid, number): when
        for tid, number, when in RoundSchedule.objects.filter(tournament_id__in=tournament_ids).values_list(
            "tournament_id", "round", "not_before"
        )
    }


def calendar_token_of(*, player: Player | None) -> CalendarToken | None:
    if player is None:
        return None
    return CalendarToken.objects.filter(player=player).first()


def player_by_calendar_token(*, token: str) -> Player | None:
    found = CalendarToken.objects.filter(token=token).select_related("player").first() if token else None
    return found.player if found is not None else None


@dataclass(frozen=True)
class PlayerFeed:
    """A player's tournaments still to come or running, and their matches in them not yet decided."""

    tournaments: list[Tournament]
    pairings: list[TournamentMatch]
    round_times: dict[tuple[int, int], datetime]


def player_feed(*, player: Player) -> PlayerFeed:
    """What a player's calendar lists: four queries, at most `FEED_LIMIT` of each."""
    tournament_ids = list(
        Entrant.objects.filter(player=player)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .order_by("-tournament_id")
        .values_list("tournament_id", flat=True)[:FEED_LIMIT]
    )
    tournaments = list(Tournament.objects.filter(pk__in=tournament_ids).order_by("pk"))
    seated = Q(player_one=player) | Q(player_two=player) | Q(player_three=player) | Q(player_four=player)
    pairings = list(
        TournamentMatch.objects.filter(seated, tournament_id__in=tournament_ids)
        .filter(status__in=[TournamentMatch.Status.READY, TournamentMatch.Status.WAITING])
        .select_related("player_one", "player_two", "player_three", "player_four", "tournament")
        .order_by("tournament_id", "round", "position")[:FEED_LIMIT]
    )
    return PlayerFeed(tournaments, pairings, round_times_for(tournament_ids=tournament_ids))
