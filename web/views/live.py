"""What a live page polls to learn that it changed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag

from core.numbers import NumberError, whole_number
from play.services import seek_touch
from web.selectors import live as live_reads

#: A row id as the database holds one (a 64-bit integer).
ID_MAX = 2**63 - 1


def _id(request: HttpRequest, name: str) -> int | None:
    """The id a poll names, or None when it names none (the poll then follows the whole site)."""
    try:
        return whole_number(request.GET.get(name, ""), low=1, high=ID_MAX)
    except NumberError:
        return None


def live_version(request: HttpRequest) -> HttpResponseBase:
    """What a live page polls: `?tournament=ID`, `?match=ID`, `?lobby` or nothing (the whole site).

    A tiny JSON answer with an ETag: an unchanged version costs the poller a 304 and no body. The
    lobby's poll is also its player's presence: it keeps their open seek listed.
    """
    tournament, match = _id(request, "tournament"), _id(request, "match")
    if "lobby" in request.GET:
        seek_touch(user=request.user)
        version = live_reads.live_version_lobby()
    elif tournament is not None:
        version = live_reads.live_version_tournament(tournament_id=tournament)
    elif match is not None:
        version = live_reads.live_version_match(match_id=match)
    else:
        version = live_reads.live_version_site()
    response = JsonResponse({"version": version}, headers={"ETag": quote_etag(version), "Cache-Control": "no-cache"})
    return get_conditional_response(request, etag=response["ETag"], response=response) or response
