"""The lobby (`/play/`): games posted to join, live tables to watch, and practice against bots (thin views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from core.throttles import PracticeTablesThrottle
from play.services import seek_accept, seek_cancel, seek_create, seek_touch, table_practice_create
from web.forms.tables import PracticeForm, SeekForm
from web.selectors.live import live_version_lobby
from web.selectors.lobby import lobby_for
from web.views.rate_limits import in_words, over_limit, retry_after


def _lobby(
    request: HttpRequest, *, practice: PracticeForm | None = None, seek: SeekForm | None = None
) -> dict[str, object]:
    seek_touch(user=request.user)  # the page itself is its player's presence too, as its poll is
    version = live_version_lobby()
    return {
        "form": practice or PracticeForm(),
        "seek_form": seek or SeekForm(),
        "lobby": lobby_for(user=request.user),
        # Read before the lists: a change while they are read shows at the page's first poll.
        "live_version": version,
    }


@login_required
@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """The lobby; a POST is the practice form: a ruleset and the bots' level make a practice table."""
    form = PracticeForm(request.POST or None)
    if request.method == "POST":
        # The API's budget, shared: the page is no way around POST /api/tables/'s limit.
        limit = PracticeTablesThrottle()
        if not limit.allow_request(request, None):
            form.is_valid()  # the choices stay as sent, with the limit's message above them
            wait = in_words(retry_after(limit))
            form.add_error(None, f"You have started many practice tables just now: try again in {wait}.")
            return over_limit(render(request, "web/play.html", _lobby(request, practice=form)), limit)
    if request.method == "POST" and form.is_valid():
        try:
            table = table_practice_create(user=request.user, ruleset=form.cleaned_data["ruleset"], bots=form.bots())
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            return redirect("web:table", table_id=table.pk)
    return render(request, "web/play.html", _lobby(request, practice=form if request.method == "POST" else None))


@login_required
@require_http_methods(["POST"])
def seek_post(request: HttpRequest) -> HttpResponse:
    """Post a game to the lobby; the lobby page then keeps it listed while it stays open."""
    form = SeekForm(request.POST)
    if not form.is_valid():
        return render(request, "web/play.html", _lobby(request, seek=form), status=400)
    try:
        seek_create(user=request.user, ruleset=form.cleaned_data["ruleset"], rated=form.rated())
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("web:play")


@login_required
@require_http_methods(["POST"])
def seek_accept_view(request: HttpRequest, seek_id: int) -> HttpResponse:
    """Accept a game of the lobby and go to its table (the seeker's lobby page follows)."""
    try:
        seek = seek_accept(seek_id=seek_id, user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("web:play")
    return redirect("web:table", table_id=seek.table_id)


@login_required
@require_http_methods(["POST"])
def seek_cancel_view(request: HttpRequest, seek_id: int) -> HttpResponse:
    try:
        seek_cancel(seek_id=seek_id, user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("web:play")
