"""What a live page polls to learn that it changed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag

from web.selectors import live as live_reads


def live_version(request: HttpRequest) -> HttpResponseBase:
    """What a live page polls: `?tournament=ID`, `?match=ID`, or nothing (the whole site).

    A tiny JSON answer with an ETag: an unchanged version costs the poller a 304 and no body.
    """
    tournament, match = request.GET.get("tournament", ""), request.GET.get("match", "")
    if tournament.isdigit():
        version = live_reads.live_version_tournament(tournament_id=int(tournament))
    elif match.isdigit():
        version = live_reads.live_version_match(match_id=int(match))
    else:
        version = live_reads.live_version_site()
    response = JsonResponse({"version": version}, headers={"ETag": quote_etag(version), "Cache-Control": "no-cache"})
    return get_conditional_response(request, etag=response["ETag"], response=response) or response
