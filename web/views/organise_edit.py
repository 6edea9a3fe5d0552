"""Organiser pages around the start: edit a tournament's settings, delete it, confirm its start, undo the start.

Each view checks the form, calls one `tournaments.services` function (which
checks permissions and the tournament's state again) and redirects; a
refusal comes back as the service's own message.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from tournaments.models import Tournament
from tournaments.selectors import entrant_list
from tournaments.services import tournament_delete, tournament_start_undo
from tournaments.services.registration import tournament_start_checked, tournament_update_described
from web.forms.tournament import TournamentForm
from web.selectors.tournaments import start_waiting_list, tournament_played
from web.views.organise import _tournament_or_404, organiser_required


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament form, filled with its settings; saved through the same checks as a new one."""
    tournament = _tournament_or_404(tournament_id)
    if tournament.status != Tournament.Status.SETUP:
        messages.error(request, f"{tournament.name} has started: its settings change only before the start.")
        return redirect("web:organise_tournament", tournament_id=tournament.pk)
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_from(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            tournament_update_described(tournament_id=tournament.pk, user=request.user, **form.service_kwargs())
        except ApplicationError as exc:
            form.add_service_error(exc.extra.get("field"), exc.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("web:organise_tournament", tournament_id=tournament.pk)
    return render(request, "web/organise/tournament_new.html", {"form": form, "tournament": tournament})


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_delete_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Ask first (GET), then delete (POST); a tournament with results is refused and kept."""
    tournament = _tournament_or_404(tournament_id)
    if request.method == "POST":
        try:
            name = tournament_delete(tournament_id=tournament.pk, user=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
            return redirect("web:organise_tournament", tournament_id=tournament.pk)
        messages.success(request, f"{name} deleted.")
        return redirect("web:organise")
    context = {
        "tournament": tournament,
        "entrant_count": len(entrant_list(tournament=tournament)),
        "has_results": tournament_played(tournament=tournament),
    }
    return render(request, "web/organise/tournament_delete.html", context)


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_start_view(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """What starting does, said before it happens (who plays, who is dropped); the POST starts."""
    tournament = _tournament_or_404(tournament_id)
    if request.method == "POST":
        try:
            start = tournament_start_checked(tournament_id=tournament.pk, user=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
            return redirect("web:organise_tournament", tournament_id=tournament.pk)
        if start.dropped:
            messages.warning(request, f"Not checked in, so dropped: {', '.join(start.dropped)}.")
        if start.moved_up:
            messages.info(request, f"Moved up from the waiting list into their places: {', '.join(start.moved_up)}.")
        messages.success(
            request,
            f"{tournament.name} has started: the first matches are open. "
            "Until a game has a result, the start can be undone from the manage page.",
        )
        return redirect("web:tournament_detail", tournament_id=tournament.pk)
    if tournament.status != Tournament.Status.SETUP:
        return redirect("web:organise_tournament", tournament_id=tournament.pk)
    entrants = entrant_list(tournament=tournament)
    absent = [e for e in entrants if e.checked_in_at is None] if tournament.checkin_open else []
    moving_up, left_out = start_waiting_list(tournament=tournament, entrants=len(entrants), absent=len(absent))
    playing = [e for e in entrants if e not in absent]
    context = {
        "tournament": tournament,
        "playing": playing,
        "playing_count": len(playing) + len(moving_up),
        "absent": absent,
        "moving_up": moving_up,
        "left_out": left_out,
    }
    return render(request, "web/organise/tournament_start.html", context)


@organiser_required
@require_http_methods(["POST"])
def tournament_undo_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Back to before the start, while no game has a result."""
    tournament = _tournament_or_404(tournament_id)
    try:
        tournament_start_undo(tournament_id=tournament.pk, user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            f"The start of {tournament.name} is undone: its matches are gone; change what you need and start again.",
        )
    return redirect("web:organise_tournament", tournament_id=tournament.pk)
