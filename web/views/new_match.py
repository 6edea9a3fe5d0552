"""The new-match page: organisers create any match, a signed-in player a match they play in.

`matches.services.match_create` checks who may create what; this view shows
its errors by the field they name and goes to the match page once made.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from matches.selectors import user_is_organiser, user_player
from matches.services import match_create
from web.forms.match import MatchForm
from web.presenters.seats import players_title
from web.selectors.players import player_handles


@login_required
@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    me = user_player(user=request.user)
    organiser = user_is_organiser(user=request.user)
    if me is None and not organiser:
        return render(request, "web/match_new.html", {"form": None})
    initial = {"players": [me.handle]} if me is not None and not organiser else {}
    form = MatchForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            match = match_create(created_by=request.user, **form.service_kwargs())
        except ApplicationError as exc:
            form.add_service_error(exc.extra.get("field"), exc.message)
        else:
            messages.success(request, f"{players_title([p.handle for p in match.players])}: game 1 is open.")
            return redirect("web:match_detail", match_id=match.pk)
    context = {"form": form, "handles": player_handles(), "organiser": organiser}
    return render(request, "web/match_new.html", context)
