"""Play at a table: the table page, opening a match game's table, and practice against bots (thin views).

The page itself is static: everything live comes over the table's socket
(speed-table/1), drawn by static/js/table.js.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from core.throttles import PracticeTablesThrottle
from matches.selectors import game_get
from play.services import table_open_for_game, table_practice_create
from web.forms.tables import PracticeForm
from web.selectors.tables import table_for_page
from web.views.rate_limits import in_words, over_limit, retry_after


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = table_for_page(table_id=table_id)
    if table is None:
        raise Http404("No such table")
    game = table.game
    context = {
        "table_id": table.pk,
        "socket": f"/ws/tables/{table.pk}/",
        "heading": f"Match {game.match_id}, game {game.number}" if game else "Practice against bots",
        "match_url": reverse("web:match_detail", kwargs={"match_id": game.match_id}) if game else "",
    }
    return render(request, "web/table.html", context)


def table_replay(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's replay address: its stored log's replay (a practice game's, or a match game's)."""
    played = table_for_page(table_id=table_id)
    if played is None or played.log_id is None:
        raise Http404("No log at this table (yet)")
    return redirect("web:replay", log_id=played.log_id)


@login_required
@require_http_methods(["POST"])
def game_table(request: HttpRequest, game_id: int) -> HttpResponse:
    """A player of the match (or an organiser) opens the game's table, or joins the one open, and goes there."""
    game = game_get(game_id=game_id)
    if game is None:
        raise Http404("No such game")
    try:
        table, _created = table_open_for_game(game_id=game.pk, user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        if request.POST.get("next") == reverse("web:my_matches"):
            return redirect("web:my_matches")
        return redirect("web:match_detail", match_id=game.match_id)
    return redirect("web:table", table_id=table.pk)


@login_required
@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """Practice against bots: a ruleset and the bots' level make a practice table, and the player goes there."""
    form = PracticeForm(request.POST or None)
    if request.method == "POST":
        # The API's budget, shared: the page is no way around POST /api/tables/'s limit.
        limit = PracticeTablesThrottle()
        if not limit.allow_request(request, None):
            form.is_valid()  # the choices stay as sent, with the limit's message above them
            wait = in_words(retry_after(limit))
            form.add_error(None, f"You have started many practice tables just now: try again in {wait}.")
            return over_limit(render(request, "web/play.html", {"form": form}), limit)
    if request.method == "POST" and form.is_valid():
        try:
            table = table_practice_create(user=request.user, ruleset=form.cleaned_data["ruleset"], bots=form.bots())
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            return redirect("web:table", table_id=table.pk)
    return render(request, "web/play.html", {"form": form})
