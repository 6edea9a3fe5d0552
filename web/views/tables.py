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
from play.models import Table
from play.services import table_open_for_game
from replays.services import document_compact_steps
from speedrules import ruleset_from_json
from web.presenters.replay import build_replay
from web.presenters.results import practice_result_words
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
        # A practice table keeps its log on the table itself (no MatchLog): its replay page is here.
        "practice": game is None,
    }
    return render(request, "web/table.html", context)


def _practice_over(table_id: int) -> Table:
    table = table_for_page(table_id=table_id)
    if table is None or table.game_id is not None or table.practice_log is None:
        raise Http404("No practice log at this table (yet)")
    return table


def practice_replay(request: HttpRequest, table_id: int) -> HttpResponse:
    """A practice game's replay, drawn by the same viewer as a match's logs; a match table's is its log's."""
    played = table_for_page(table_id=table_id)
    if played is not None and played.game_id is not None and played.log_id is not None:
        return redirect("web:replay", log_id=played.log_id)
    table = _practice_over(table_id)
    error = ""
    steps = None
    try:
        steps = document_compact_steps(bytes(table.practice_log), name=f"practice table {table.pk}")
    except ApplicationError as exc:
        error = exc.message
    result = table.result or {}
    # A game ended early (a resign) has a winner but no Speed call: the banner says how it ended instead.
    ended_early = practice_result_words(result=table.result, players=list(table.players), ended=table.ended)
    replay = build_replay(
        steps=steps if steps is not None else [],
        players=list(table.players),
        pack=ruleset_from_json(table.ruleset).pack_size,
        status="verified" if table.practice_log_code == "ok" else "rejected",
        code="" if table.practice_log_code == "ok" else table.practice_log_code,
        winner_seat=None if ended_early is not None else result.get("winner"),
    )
    context = {
        "table": table,
        "replay": replay,
        "result": ended_early,
        "error": error,
        "steps_url": reverse("api:table-steps-compact", kwargs={"table_id": table.pk}),
    }
    return render(request, "web/practice_replay.html", context)


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
