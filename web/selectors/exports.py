"""Reads for a tournament's exports: its standings and results (CSV), and its logs (one archive)."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import QuerySet

from replays.models import MatchLog
from tournaments.models import Tournament, TournamentMatch
from tournaments.selectors import StandingsView, pairing_list, tournament_standings
from web.presenters.exports import LogEntry

#: Logs read from the database at a time while an archive streams: the memory a request holds is bounded by it.
LOG_CHUNK = 50


def export_standings(*, tournament: Tournament) -> StandingsView:
    return tournament_standings(tournament=tournament)


def export_results(*, tournament: Tournament) -> list[TournamentMatch]:
    """Every pairing (their names need them all), by round, then section and position."""
    return sorted(pairing_list(tournament=tournament), key=lambda p: (p.round, p.bracket, p.position, p.pk))


def _tournament_logs(tournament: Tournament) -> QuerySet[MatchLog]:
    return MatchLog.objects.filter(game__match__tournament_match__tournament=tournament)


def export_log_count(*, tournament: Tournament) -> int:
    return _tournament_logs(tournament).count()


def export_logs(*, tournament: Tournament) -> Iterator[LogEntry]:
    """Every log of the tournament's matches, the stored bytes as they are, read `LOG_CHUNK` at a time."""
    rows = (
        _tournament_logs(tournament)
        .order_by("game__match_id", "game__number", "id")
        .values_list("pk", "game__match_id", "game__match__tournament_match__key", "game__number", "status", "data")
    )
    for pk, match_id, key, game, status, data in rows.iterator(chunk_size=LOG_CHUNK):
        yield LogEntry(pk=pk, match_id=match_id, key=key, game=game, status=status, data=bytes(data))
