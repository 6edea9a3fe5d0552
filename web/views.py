"""The site's pages. Thin: each view reads through selectors or changes through one service, then renders."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from matches.models import Game, Match
from matches.selectors import match_get, match_score, player_get, player_list
from replays.models import MatchLog
from replays.services import log_steps_build, log_submit
from speedsite.api_errors import ApplicationError

from . import selectors
from .forms import LogSubmitForm
from .replay import build_replay


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of a match page with its logs: how its result came about."""

    game: Game
    logs: list[MatchLog]

    @property
    def verified_log(self) -> MatchLog | None:
        return next((log for log in self.logs if log.status == MatchLog.Status.VERIFIED), None)

    @property
    def rejected_logs(self) -> list[MatchLog]:
        return [log for log in self.logs if log.status in (MatchLog.Status.REJECTED, MatchLog.Status.FAILED)]

    @property
    def pending_logs(self) -> list[MatchLog]:
        return [log for log in self.logs if log.status == MatchLog.Status.PENDING]


def _series(match: Match) -> tuple[int, int]:
    score = match_score(match=match)
    return score[match.player_one.handle], score[match.player_two.handle]


def home(request: HttpRequest) -> HttpResponse:
    context = {
        "running_matches": selectors.matches_recent(status=Match.Status.IN_PROGRESS, limit=6),
        "finished_matches": selectors.matches_recent(status=Match.Status.FINISHED, limit=6),
        "latest_logs": selectors.logs_latest_verified(limit=8),
    }
    return render(request, "web/home.html", context)


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/tournament_list.html", {"tournaments": []})


def player_list_view(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()
    players = list(player_list(search=search or None))
    return render(request, "web/player_list.html", {"players": players, "search": search})


def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    player = player_get(handle=handle)
    if player is None:
        raise Http404("No such player")
    matches = list(selectors.player_matches(player=player))
    context = {
        "player": player,
        "matches": matches,
        "record": selectors.player_record(player=player, matches=matches),
    }
    return render(request, "web/player_detail.html", context)


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404("No such match")
    games = list(match.games.all())
    logs = selectors.logs_by_game(games=games)
    context = {
        "match": match,
        "score": _series(match),
        "rows": [GameRow(game, logs.get(game.pk, [])) for game in games],
        "ruleset": selectors.ruleset_label(match=match),
        "open_game": next((g for g in games if g.status in (Game.Status.OPEN, Game.Status.DISPUTED)), None),
    }
    return render(request, "web/match_detail.html", context)


def replay_detail(request: HttpRequest, log_id: int) -> HttpResponse:
    log = selectors.log_get_for_page(log_id=log_id, with_data=True)
    if log is None:
        raise Http404("No such log")
    error = ""
    steps: list[dict[str, object]] = []
    try:
        steps = list(log_steps_build(log=log).steps)
    except ApplicationError as exc:
        error = exc.message
    match = log.game.match
    replay = build_replay(
        steps=steps,
        players=selectors.log_seat_names(log=log),
        pack=selectors.ruleset_pack_size(ruleset=match.ruleset),
        status=log.status,
        code=log.code,
        event=log.event,
        message=log.message,
        winner_seat=log.winner_seat,
    )
    context = {
        "log": log,
        "game": log.game,
        "match": match,
        "replay": replay,
        "error": error,
        "ruleset": selectors.ruleset_label(match=match),
    }
    return render(request, "web/replay.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def log_submit_view(request: HttpRequest) -> HttpResponse:
    games = selectors.games_open_for_submission(user=request.user)
    initial = {"game": request.GET.get("game")} if request.GET.get("game", "").isdigit() else {}
    form = LogSubmitForm(request.POST or None, request.FILES or None, games=games, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            log, created = log_submit(
                game_id=form.cleaned_data["game"].pk, data=form.cleaned_data["data"], user=request.user
            )
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            if not created:
                messages.info(request, "This exact log was already submitted for that game; here is its verdict.")
            return redirect("web:log_status", log_id=log.pk)
    return render(request, "web/log_submit.html", {"form": form, "has_games": games.exists()})


def log_status(request: HttpRequest, log_id: int) -> HttpResponse:
    log = selectors.log_get_for_page(log_id=log_id)
    if log is None:
        raise Http404("No such log")
    return render(request, "web/log_status.html", {"log": log, "game": log.game, "match": log.game.match})
