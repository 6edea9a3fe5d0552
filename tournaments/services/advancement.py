"""Results to pairings: a decided match is recorded in its tournament, which advances.

`tournament_match_decided` is the listener `TournamentsConfig.ready()` registers
with `matches.listeners`: it runs in the transaction that decides the match.
The tournament row is locked first, so results arriving together for one
tournament (for one match, or for the two matches feeding the same next
match) are applied one after the other, each recomputing from every result
so far: nothing is advanced twice and nothing is lost.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from matches.models import Match
from tournaments.formats import format_for

from ..models import TournamentMatch
from ..snapshots import SNAPSHOT_FIELDS, pairing_snapshot
from .common import tournament_lock
from .pairings import pairings_advance
from .ratings import ratings_record_locked


# savepoint=False: this runs inside the transaction that decides the match; alone, it is atomic.
@transaction.atomic(savepoint=False)
def tournament_match_decided(*, match_id: int) -> None:
    """A match was just decided (called by `matches.services.match_finish`, in its transaction).

    Rates the players, then, if the match is a tournament pairing, records
    the result and advances the tournament: winners (and losers in double
    elimination) move on, the next round is paired, or the tournament finishes.
    The match's row is the deciding transaction's, locked by it.
    """
    match = Match.objects.get(pk=match_id)
    ratings_record_locked(match=match)
    linked = TournamentMatch.objects.filter(match_id=match.pk).values_list("tournament_id", flat=True).first()
    if linked is None:
        return
    tournament = tournament_lock(linked)
    # Re-read under the lock: a correction may have detached this match meanwhile.
    pairing = TournamentMatch.objects.filter(match_id=match.pk).first()
    if pairing is None or pairing.status != TournamentMatch.Status.READY or match.winner_id is None:
        return
    points = format_for(tournament.format).table_points(tournament, len(pairing.seat_ids))
    for name, value in pairing_snapshot(tournament, pairing, points).items():
        setattr(pairing, name, value)
    pairing.winner_id = match.winner_id
    pairing.status = TournamentMatch.Status.DECIDED
    pairing.result_source = TournamentMatch.Source.MATCH
    pairing.decided_at = timezone.now()
    pairing.save(update_fields=["winner", "status", "result_source", *SNAPSHOT_FIELDS, "decided_at"])
    pairings_advance(tournament)
