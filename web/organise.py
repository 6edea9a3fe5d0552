"""Organiser pages: create a tournament, enter and seed players, start it, correct a result.

Each view checks the form, calls one `tournaments.services` function (which
checks permissions again) and redirects; expected failures come back as the
service's own message.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from matches.selectors import player_list, user_is_organiser
from speedsite.errors import ApplicationError
from tournaments.models import Tournament, TournamentMatch
from tournaments.selectors import correction_list, entrant_list, pairing_get, pairing_list, tournament_get
from tournaments.services import entrant_add, entrant_remove, pairing_correct, tournament_create, tournament_start

from . import selectors
from .forms import CorrectionForm, EntrantForm, TournamentForm

View = Callable[..., HttpResponse]


def organiser_required(view: View) -> View:
    """Anonymous visitors log in first; signed-in non-organisers get a 403."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not user_is_organiser(user=request.user):
            raise PermissionDenied("Only organisers run tournaments.")
        return view(request, *args, **kwargs)

    return wrapped


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


@organiser_required
def organise(request: HttpRequest) -> HttpResponse:
    return render(request, "web/organise/index.html", {"tournaments": selectors.tournaments_with_counts()})


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(user=request.user, **form.service_kwargs())
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"{tournament.name} is taking entrants.")
            return redirect("web:organise_tournament", tournament_id=tournament.pk)
    return render(request, "web/organise/tournament_new.html", {"form": form})


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_manage(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    form = EntrantForm(request.POST if request.POST.get("action") == "add" else None)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "add" and form.is_valid():
                entrant = entrant_add(
                    tournament_id=tournament.pk,
                    handle=form.cleaned_data["handle"],
                    seed=form.cleaned_data["seed"],
                    user=request.user,
                )
                messages.success(request, f"{form.cleaned_data['handle']} entered as seed {entrant.seed}.")
                return redirect("web:organise_tournament", tournament_id=tournament.pk)
            if action == "remove":
                entrant_remove(tournament_id=tournament.pk, handle=request.POST.get("handle", ""), user=request.user)
                messages.success(request, f"{request.POST.get('handle')} withdrawn.")
                return redirect("web:organise_tournament", tournament_id=tournament.pk)
            if action == "start":
                tournament_start(tournament_id=tournament.pk, user=request.user)
                messages.success(request, f"{tournament.name} has started: the first matches are open.")
                return redirect("web:tournament_detail", tournament_id=tournament.pk)
        except ApplicationError as exc:
            if action == "add" and tournament.status == Tournament.Status.SETUP:
                form.add_error(None, exc.message)  # shown beside the form, with what was typed
            else:
                messages.error(request, exc.message)
                return redirect("web:organise_tournament", tournament_id=tournament.pk)
    pairings = list(pairing_list(tournament=tournament))
    context = {
        "tournament": tournament,
        "entrants": entrant_list(tournament=tournament),
        "form": form,
        "players": player_list(),
        "decided": [pairing for pairing in pairings if pairing.status == TournamentMatch.Status.DECIDED],
        "corrections": list(correction_list(tournament=tournament)[:20]),
    }
    return render(request, "web/organise/tournament_manage.html", context)


@organiser_required
@require_http_methods(["GET", "POST"])
def pairing_correct_view(request: HttpRequest, tournament_id: int, key: str) -> HttpResponse:
    """Choose the real winner, see what the correction changes downstream, then confirm it."""
    tournament = _tournament_or_404(tournament_id)
    pairing = pairing_get(tournament=tournament, key=key)
    if pairing is None or pairing.player_one is None or pairing.player_two is None:
        raise Http404("No such match in this tournament")
    handles = [pairing.player_one.handle, pairing.player_two.handle]
    data = request.POST if request.method == "POST" else (request.GET if "winner" in request.GET else None)
    form = CorrectionForm(data, players=handles)
    preview = None
    if form.is_valid():
        winner = form.cleaned_data["winner"]
        apply = request.method == "POST"
        try:
            preview = pairing_correct(
                tournament_id=tournament.pk,
                key=key,
                winner=winner,
                user=request.user,
                dry_run=not apply,
                confirm=apply and request.POST.get("confirm") == "yes",
            )
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            if preview.applied:
                messages.success(
                    request, f"Match {key} corrected: {winner} won. {len(preview.changes)} later match(es) updated."
                )
                return redirect("web:tournament_detail", tournament_id=tournament.pk)
            if apply:
                messages.info(request, f"{winner} already won match {key}; nothing to change.")
                return redirect("web:organise_tournament", tournament_id=tournament.pk)
    context = {"tournament": tournament, "pairing": pairing, "form": form, "preview": preview}
    return render(request, "web/organise/correct.html", context)
