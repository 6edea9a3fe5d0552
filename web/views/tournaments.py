"""A tournament's pages for visitors and players: the list, the page, its embed, joining."""

from __future__ import annotations

from csp.decorators import csp_replace
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from core.site_cache import SiteCache
from matches.selectors import (
    user_player,
)
from tournaments.models import Registration, Tournament
from tournaments.selectors import tournament_get
from tournaments.services.registration import entrant_check_in, registration_create, registration_withdraw
from web.presenters.table_settings import table_settings_words
from web.selectors import tournaments as tournament_reads
from web.selectors.entry import entry_page_context
from web.selectors.tournament_page import (
    tournament_page_context,
)

#: /tournaments/' HTML, under the site lists' generation.
TOURNAMENT_LIST_PART = "html:tournaments"

#: What a player is told on registering, by what became of the registration (approved: automatically).
REGISTERED_WORDS = {
    Registration.Status.PENDING: "Registered: an organiser will approve your entry.",
    Registration.Status.APPROVED: "Registered and approved: you are entered.",
    Registration.Status.WAITING: "Registered and approved, but the event is full: you are on its waiting list.",
}


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Every tournament with its counts, from the site lists' cache (the counts read every pairing)."""
    site = SiteCache()
    site.prefetch([tournament_reads.TOURNAMENT_LIST, TOURNAMENT_LIST_PART])  # the list and its HTML in one round trip
    context = {
        "tournaments": tournament_reads.tournament_list_cached(reader=site),
        "site_cache": site,
        "list_part": TOURNAMENT_LIST_PART,
    }
    return render(request, "web/tournament_list.html", context)


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    context = tournament_page_context(tournament, request.GET)
    me = user_player(user=request.user)
    if tournament.status == Tournament.Status.SETUP and me is not None:
        context["my_entry"] = tournament_reads.entrant_of(tournament=tournament, player_id=me.pk)
        context["my_registration"] = tournament_reads.registration_of(tournament=tournament, player_id=me.pk)
    context["signed_in_player"] = me
    context["table_settings_words"] = table_settings_words(
        tournament.table_settings, site=settings.SPEED_TABLE_SETTINGS
    )
    context |= entry_page_context(
        tournament=tournament, registration=context.get("my_registration"), page_cache=context["page_cache"]
    )
    return render(request, "web/tournament_detail.html", context)


@xframe_options_exempt  # made to be shown in a frame on other sites
# The site's policy says frame-ancestors 'none'; this page alone may be framed anywhere (it changes nothing).
@csp_replace({"frame-ancestors": "*"})
def tournament_embed(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The bracket (or the standings) alone, for an <iframe> on another site."""
    tournament = _tournament_or_404(tournament_id)
    return render(request, "web/embed.html", tournament_page_context(tournament, request.GET, with_lists=False))


@login_required
@require_http_methods(["POST"])
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A player registers, takes a registration back, or checks in, from the tournament's page."""
    tournament = _tournament_or_404(tournament_id)
    action = request.POST.get("action")
    try:
        if action == "register":
            registration = registration_create(tournament_id=tournament.pk, user=request.user)
            messages.success(request, REGISTERED_WORDS.get(registration.status, REGISTERED_WORDS["pending"]))
        elif action == "unregister":
            registration_withdraw(tournament_id=tournament.pk, user=request.user)
            messages.info(request, "Your registration is withdrawn.")
        elif action == "check_in":
            entrant_check_in(tournament_id=tournament.pk, user=request.user)
            messages.success(request, f"Checked in for {tournament.name}.")
    except ApplicationError as exc:
        messages.error(request, exc.message)
    if request.POST.get("next") == reverse("web:my_matches"):
        return redirect("web:my_matches")
    return redirect("web:tournament_detail", tournament_id=tournament.pk)
