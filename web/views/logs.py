"""A game's logs: submitting one, its verdict, and its replay."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from core.numbers import is_ascii_whole
from replays.compact import CompactSteps
from replays.services import log_steps_build, log_submit, replay_compact
from web.forms.logs import LogSubmitForm
from web.presenters.problems import log_problem
from web.presenters.replay import build_replay, timed_by_log_seat
from web.presenters.results import game_result_words, practice_result_words
from web.selectors import logs as log_reads
from web.selectors.tables import practice_table_of_log


def replay_detail(request: HttpRequest, log_id: int) -> HttpResponse:
    """A log's replay: a match game's, or a practice game's (the same page, headed by its practice table)."""
    log = log_reads.log_get_for_page(log_id=log_id, with_data=True)
    if log is None:
        raise Http404("No such log")
    error = ""
    steps: CompactSteps | list[dict[str, object]] = []
    try:
        steps = replay_compact(log_steps_build(log_id=log.pk))
    except ApplicationError as exc:
        error = exc.message
    names = log_reads.log_seat_names(log=log)
    context: dict[str, object] = {"log": log, "error": error}
    winner_seat, time_limit_ms, timed_played = log.winner_seat, None, None
    if log.game is None:
        table = practice_table_of_log(log_id=log.pk)
        ruleset = None if table is None else table.ruleset
        # A game its table ended early (a resign) has a winner but no Speed call: the banner says how it ended.
        result = None if table is None else practice_result_words(result=table.result, players=names, ended=table.ended)
        winner_seat = None if result is not None else winner_seat
        context |= {"table": table, "result": result}
    else:
        match = log.game.match
        ruleset, time_limit_ms = match.ruleset, match.time_limit_ms
        timed_played = timed_by_log_seat(names, [player.handle for player in match.players], log.timed_scores)
        context |= {"game": log.game, "match": match, "result": game_result_words(log.game, log=log)}
    context["replay"] = build_replay(
        steps=steps,
        players=names,
        pack=log_reads.ruleset_pack_size(ruleset=ruleset),
        status=log.status,
        code=log.code,
        event=log.event,
        message=log.message,
        winner_seat=winner_seat,
        time_limit_ms=time_limit_ms,
        timed_played=timed_played,
    )
    return render(request, "web/replay.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def log_submit_view(request: HttpRequest) -> HttpResponse:
    games = log_reads.games_open_for_submission(user=request.user)
    initial = {"game": request.GET.get("game")} if is_ascii_whole(request.GET.get("game", "")) else {}
    form = LogSubmitForm(request.POST or None, request.FILES or None, games=games, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            log, created = log_submit(
                game_id=form.cleaned_data["game"].pk, data=form.cleaned_data["data"], user=request.user
            )
        except ApplicationError as exc:
            form.add_error(None, log_problem(exc.message, exc.extra or {}))
        else:
            if not created:
                messages.info(request, "This exact log was already submitted for that game; here is its verdict.")
            return redirect("web:log_status", log_id=log.pk)
    return render(request, "web/log_submit.html", {"form": form, "has_games": games.exists()})


def log_status(request: HttpRequest, log_id: int) -> HttpResponse:
    log = log_reads.log_get_for_page(log_id=log_id)
    if log is None:
        raise Http404("No such log")
    if log.game is None:  # a practice log decides nothing: its replay page says its verdict
        return redirect("web:replay", log_id=log.pk)
    context = {"log": log, "game": log.game, "match": log.game.match, "result": game_result_words(log.game, log=log)}
    return render(request, "web/log_status.html", context)
