"""Reads for a tournament's exports: its standings and results (CSV), and its logs (one archive)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.db.models import Q

from matches.models import Game
from replays.models import MatchLog
from tournaments.models import Tournament, TournamentMatch
from tournaments.selectors import (
    AnnulledMatch,
    StandingsView,
    pairing_list,
    tournament_annulled_matches,
    tournament_standings,
)
from web.presenters.exports import GameSource, LogEntry

#: Logs read from the database at a time while an archive streams: the memory a request holds is bounded by it.
LOG_CHUNK = 50


def export_standings(*, tournament: Tournament) -> StandingsView:
    return tournament_standings(tournament=tournament)


def export_results(*, tournament: Tournament) -> list[TournamentMatch]:
    """Every pairing (their names need them all), by round, then section and position."""
    return sorted(pairing_list(tournament=tournament), key=lambda p: (p.round, p.bracket, p.position, p.pk))


def export_annulled(*, tournament: Tournament) -> list[AnnulledMatch]:
    """The matches its corrections set aside: the exports keep them, marked, as the pages do."""
    return tournament_annulled_matches(tournament=tournament)


def export_game_sources(*, match_ids: Iterable[int]) -> dict[int, list[GameSource]]:
    """Each match's decided games in order: who won and what decided it (the result's true source)."""
    sources: dict[int, list[GameSource]] = {}
    rows = (
        Game.objects.filter(match_id__in=list(match_ids), status=Game.Status.DECIDED)
        .order_by("match_id", "number")
        .values_list("match_id", "number", "winner_id", "decided_by")
    )
    for match_id, number, winner_id, decided_by in rows:
        sources.setdefault(match_id, []).append(GameSource(number, winner_id, decided_by))
    return sources


def export_logs(*, tournament: Tournament, annulled: Iterable[AnnulledMatch] = ()) -> Iterator[LogEntry]:
    """Every log of the tournament's matches and of those its corrections annulled, the stored bytes as they are,
    read `LOG_CHUNK` at a time."""
    keys = {item.match.pk: item.key for item in annulled}
    rows = (
        MatchLog.objects.filter(Q(game__match__tournament_match__tournament=tournament) | Q(game__match_id__in=keys))
        .order_by("game__match_id", "game__number", "id")
        .values_list("pk", "game__match_id", "game__match__tournament_match__key", "game__number", "status", "data")
    )
    for pk, match_id, key, game, status, data in rows.iterator(chunk_size=LOG_CHUNK):
        annulled_match = match_id in keys
        yield LogEntry(
            pk=pk,
            match_id=match_id,
            key=keys[match_id] if annulled_match else key,
            game=game,
            status=status,
            data=bytes(data),
            annulled=annulled_match,
        )
