"""A tournament's exports: standings and results as CSV, every log as one zip archive of speed-log/1 documents.

Public, as the tournament's page is: they say what the page shows, in files.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.text import slugify

from tournaments.models import Tournament
from tournaments.selectors import tournament_get
from web.presenters.exports import csv_text, logs_zip, player_records, results_rows, standings_rows
from web.presenters.names import pairing_names
from web.selectors.exports import (
    export_annulled,
    export_game_sources,
    export_logs,
    export_results,
    export_standings,
)


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


def _filename(tournament: Tournament, what: str, ext: str) -> str:
    return f"{slugify(tournament.name) or 'tournament'}-{tournament.pk}-{what}.{ext}"


def _csv(tournament: Tournament, what: str, text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, what, "csv")}"'
    return response


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    records = player_records(export_results(tournament=tournament))
    rows = standings_rows(export_standings(tournament=tournament), records)
    return _csv(tournament, "standings", csv_text(rows))


def results_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    pairings = export_results(tournament=tournament)
    annulled = export_annulled(tournament=tournament)
    match_ids = [pairing.match_id for pairing in pairings if pairing.match_id] + [item.match.pk for item in annulled]
    sources = export_game_sources(match_ids=match_ids)
    rows = results_rows(pairings, pairing_names(pairings), annulled=annulled, sources=sources)
    return _csv(tournament, "results", csv_text(rows))


def logs_archive(request: HttpRequest, tournament_id: int) -> StreamingHttpResponse:
    """Streamed as it is written: a large tournament's logs never sit in memory together."""
    tournament = _tournament_or_404(tournament_id)
    logs = export_logs(tournament=tournament, annulled=export_annulled(tournament=tournament))
    response = StreamingHttpResponse(logs_zip(logs), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, "logs", "zip")}"'
    return response
