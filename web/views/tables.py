"""Play at a table: the table page and opening a match game's table (thin views; the lobby is `lobby.py`).

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
from matches.selectors import game_get
from play.services import table_open_for_game
from web.selectors.tables import table_for_page


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
