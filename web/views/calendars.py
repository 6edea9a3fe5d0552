"""iCalendar feeds: a tournament's schedule, and a player's matches through a secret URL; the player's link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from matches.selectors import user_player
from tournaments.selectors import tournament_get
from tournaments.services.schedule import calendar_token_issue, calendar_token_revoke
from web.presenters.calendar import player_calendar, tournament_calendar
from web.selectors.calendars import player_by_calendar_token, player_feed, round_times

CALENDAR = "text/calendar; charset=utf-8"


def _ics(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=CALENDAR)
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    return response


def tournament_ics(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise Http404("No such tournament")
    url = request.build_absolute_uri(reverse("web:tournament_detail", args=[tournament.pk]))
    body = tournament_calendar(
        tournament, round_times(tournament=tournament), host=request.get_host(), url=url, stamp=timezone.now()
    )
    return _ics(body, f"tournament-{tournament.pk}")


def player_ics(request: HttpRequest, token: str) -> HttpResponse:
    """No session: the token in the URL is the key (a calendar app subscribes with it)."""
    player = player_by_calendar_token(token=token)
    if player is None:
        raise Http404("No such calendar (its link may have been replaced)")
    feed = player_feed(player=player)
    body = player_calendar(
        handle=player.handle,
        tournaments=feed.tournaments,
        pairings=feed.pairings,
        round_times=feed.round_times,
        host=request.get_host(),
        url_of={
            t.pk: request.build_absolute_uri(reverse("web:tournament_detail", args=[t.pk])) for t in feed.tournaments
        },
        match_url_of={
            p.pk: request.build_absolute_uri(reverse("web:match_detail", args=[p.match_id]))
            for p in feed.pairings
            if p.match_id is not None
        },
        stamp=timezone.now(),
    )
    return _ics(body, f"speed-{player.handle}")


@login_required
@require_http_methods(["POST"])
def calendar_link(request: HttpRequest) -> HttpResponse:
    """Make a new calendar link (the old one stops working), or end the feed."""
    try:
        if request.POST.get("action") == "revoke":
            calendar_token_revoke(user=request.user)
            messages.info(request, "Your calendar link no longer works.")
        else:
            calendar_token_issue(user=request.user)
            messages.success(request, "A new calendar link is ready; an earlier link no longer works.")
    except ApplicationError as exc:
        messages.error(request, exc.message)
    if user_player(user=request.user) is None:
        return redirect("web:home")
    return redirect(reverse("web:my_matches") + "#calendar")
