"""Speed Solitaire pages: the leaderboard, a player's personal bests, and a run's replay (thin views)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from core.errors import ApplicationError
from matches.selectors import player_get, user_player
from replays import selectors
from replays.services import document_compact_steps
from speedrules import PRESETS
from web.presenters.paging import page_number
from web.presenters.replay import build_replay

#: Rows of the leaderboard and of a player's runs per page.
PER_PAGE = 50


def solitaire_board(request: HttpRequest) -> HttpResponse:
    """The leaderboard (each player's best), and the personal bests of `?player=` or of the viewer."""
    board = Paginator(selectors.solitaire_leaderboard(), PER_PAGE).get_page(page_number(request.GET, "page"))
    handle = request.GET.get("player", "")
    player = player_get(handle=handle) if handle else user_player(user=request.user)
    bests = (
        list(selectors.solitaire_runs(player=player).order_by(*selectors.SOLITAIRE_BEST_ORDER)[:10]) if player else []
    )
    context = {"board": board, "rank_from": board.start_index(), "player": player, "bests": bests}
    return render(request, "web/solitaire.html", context)


def solitaire_replay(request: HttpRequest, run_id: int) -> HttpResponse:
    run = selectors.solitaire_run_get(run_id=run_id)
    if run is None:
        raise Http404("No such solitaire run")
    error = ""
    steps = None
    try:
        steps = document_compact_steps(bytes(run.data), name=f"solitaire run {run.pk}")
    except ApplicationError as exc:
        error = exc.message
    replay = build_replay(
        steps=steps if steps is not None else [],
        players=[run.player.handle],
        pack=PRESETS["solitaire"].pack_size,
        status=run.status,
        code=run.code,
        event=run.event,
        message=run.message,
        winner_seat=0 if run.cleared else None,
    )
    context = {
        "run": run,
        "replay": replay,
        "error": error,
        "steps_url": reverse("api:solitaire-steps-compact", kwargs={"run_id": run.pk}),
    }
    return render(request, "web/solitaire_replay.html", context)
