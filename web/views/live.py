"""What a live page polls to learn that it changed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag

from core.numbers import NumberError, whole_number
from play.selectors import tables_waiting_for
from play.services import seek_touch, site_seen_touch, table_wait_notices_shown
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
    """What a live page polls: `?tournament=ID`, `?match=ID`, `?lobby`, `?waiting` or nothing (the whole site).

    A tiny JSON answer with an ETag: an unchanged version costs the poller a 304 and no body. The
    lobby's poll is also its player's presence: it keeps their open seek listed. Every poll of a
    signed-in user is their presence on the site too, and its version follows the tables where
    someone waits for them (the banner every page shows); `?waiting` (a page that follows nothing
    else) follows only those.
    """
    tournament, match = _id(request, "tournament"), _id(request, "match")
    user_id = request.user.pk if request.user.is_authenticated else None
    waiting = tables_waiting_for(user_id=user_id)
    if user_id is not None:
        site_seen_touch(user=request.user)
        # The version changes with the banner, so the page shows it now: they are told on a page.
        table_wait_notices_shown(user_id=user_id, table_ids=[row.table_id for row in waiting])
    if "waiting" in request.GET:
        version = live_reads.live_version_waiting(waiting)
    elif "lobby" in request.GET:
        seek_touch(user=request.user)
        version = live_reads.live_version_lobby()
    elif tournament is not None:
        version = live_reads.live_version_tournament(tournament_id=tournament)
    elif match is not None:
        version = live_reads.live_version_match(match_id=match)
    else:
        version = live_reads.live_version_site()
    if waiting:
        version += live_reads.live_version_waiting(waiting)
    response = JsonResponse({"version": version}, headers={"ETag": quote_etag(version), "Cache-Control": "no-cache"})
    return get_conditional_response(request, etag=response["ETag"], response=response) or response
