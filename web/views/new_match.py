"""The new-match page: organisers create any match; a player challenges another there instead.

`matches.services.match_create` and `challenge_create` check who may do what;
this view shows their errors by the field they name. A match made goes to its
page; a challenge sent goes to "My matches", where it waits for its answer.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from matches.models import Player
from matches.selectors import user_is_organiser, user_player
from matches.services import challenge_create, match_create
from web.forms.match import ChallengeForm, MatchForm
from web.presenters.seats import players_title
from web.selectors.players import player_handles


@login_required
@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    me = user_player(user=request.user)
    if user_is_organiser(user=request.user):
        return _organiser_match(request)
    if me is None:
        return render(request, "web/match_new.html", {"form": None})
    return _challenge(request, me)


def _organiser_match(request: HttpRequest) -> HttpResponse:
    form = MatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            match = match_create(created_by=request.user, **form.service_kwargs())
        except ApplicationError as exc:
            form.add_service_error(exc.extra.get("field"), exc.message)
        else:
            messages.success(request, f"{players_title([p.handle for p in match.players])}: game 1 is open.")
            return redirect("web:match_detail", match_id=match.pk)
    return render(request, "web/match_new.html", {"form": form, "handles": player_handles()})


def _challenge(request: HttpRequest, me: Player) -> HttpResponse:
    form = ChallengeForm(request.POST or None, initial={"challenged": request.GET.get("challenged", "")})
    if request.method == "POST" and form.is_valid():
        try:
            challenge = challenge_create(user=request.user, **form.service_kwargs())
        except ApplicationError as exc:
            form.add_service_error(exc.extra.get("field"), exc.message)
        else:
            messages.success(
                request, f"Challenge sent to {challenge.challenged.handle}: the match is made when they accept."
            )
            return redirect("web:my_matches")
    handles = [handle for handle in player_handles() if handle != me.handle]
    return render(request, "web/challenge_new.html", {"form": form, "handles": handles})
