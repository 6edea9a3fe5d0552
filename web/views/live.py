"""What a live page polls to learn that it changed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from web.selectors import live as live_reads


def _etag_json(version: str, request: HttpRequest) -> HttpResponse:
    """A tiny JSON answer with an ETag: an unchanged version costs the poller a 304 and no body."""
    etag = f'"{version}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"version": version})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def live_version(request: HttpRequest) -> HttpResponse:
    """What a live page polls: `?tournament=ID`, `?match=ID`, or nothing (the whole site)."""
    tournament, match = request.GET.get("tournament", ""), request.GET.get("match", "")
    if tournament.isdigit():
        version = live_reads.live_version_tournament(tournament_id=int(tournament))
    elif match.isdigit():
        version = live_reads.live_version_match(match_id=int(match))
    else:
        version = live_reads.live_version_site()
    return _etag_json(version, request)
