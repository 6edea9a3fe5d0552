"""A match's page and what its players do there: report, confirm and dispute a game's result."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError, Invalid
from matches.models import Game, Match, ResultChange
from matches.selectors import (
    game_get,
    match_get,
    match_history,
    match_score,
    match_table,
    match_timed_totals,
)
from matches.services import game_confirm, game_dispute_claim, game_report_result
from play.selectors import live_tables_of_match
from tournaments.models import TournamentMatch
from web.forms.organise import MatchScoreForm
from web.forms.result import GameResultForm
from web.presenters.match_page import GameRow, match_series, match_sides, team_handles
from web.selectors import logs as log_reads
from web.selectors import tournaments as tournament_reads
from web.selectors.viewer import match_viewer


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404("No such match")
    return match_page(request, match)


def match_page(
    request: HttpRequest,
    match: Match,
    *,
    score_form: MatchScoreForm | None = None,
    result_form: tuple[int, GameResultForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The match page; an organiser's form that failed comes back bound (`score_form`, or a game's
    `result_form` by the game's id), so what was typed stays with its error."""
    games = list(match.games.all())
    logs = log_reads.logs_by_game(games=games)
    viewer = match_viewer(user=request.user, match=match)
    history = list(match_history(match=match)[:HISTORY_ON_PAGE])
    pairing = tournament_reads.tournament_of_match(match=match)
    unsettled = [g for g in games if g.status in (*_TAKES_EVIDENCE,)]
    handles = tuple(player.handle for player in match.players)
    live = match.status == Match.Status.IN_PROGRESS
    totals = match_timed_totals(match=match)
    playing = live_tables_of_match(match_id=match.pk)
    score = match_score(match=match)

    def report_form(game: Game) -> GameResultForm | None:
        if not (live and viewer.may_report(game)):
            return None
        return GameResultForm(
            players=list(handles),
            table=match.is_table,
            teams=team_handles(match),
            organiser=False,
            auto_id=f"id_r{game.pk}_%s",
        )

    context = {
        "match": match,
        "tournament_match": pairing,
        "pairing_name": tournament_reads.name_of(pairing),
        "may_call": viewer.organiser and pairing is not None and pairing.status == TournamentMatch.Status.READY,
        "result_forms": (
            [
                (
                    g,
                    result_form[1]
                    if result_form is not None and result_form[0] == g.pk
                    else GameResultForm(
                        players=list(handles),
                        table=match.is_table,
                        teams=team_handles(match),
                        reason_required=g.status == Game.Status.DISPUTED,
                        auto_id=f"id_g{g.pk}_%s",
                    ),
                )
                for g in unsettled
            ]
            if viewer.organiser and live
            else []
        ),
        # The whole score at once fits two players' games won; a table's or a team's games are set one by one.
        "score_form": (score_form or MatchScoreForm())
        if viewer.organiser and live and len(match.player_ids) == 2
        else None,
        "organiser_panel": viewer.organiser and live,
        "score": match_series(match, score),
        "table": match_table(match=match) if match.is_table else None,
        "sides": None if match.is_table else match_sides(match, score),
        "timed_totals": None if totals is None else [(handle, totals[handle]) for handle in handles],
        "rows": [
            GameRow(
                game,
                logs.get(game.pk, []),
                viewer.may_confirm(game),
                viewer.may_dispute(game),
                handles,
                match.player_ids,
                report_form(game),
                tuple(team_handles(match) or ()),
                playing.get(game.pk),
            )
            for game in games
        ],
        "open_game": next((g for g in games if g.status in _TAKES_EVIDENCE), None) if viewer.may_submit else None,
        "viewer": viewer,
        "history": history,
        # An annulled match keeps its games but crowns nobody; the annulment says why.
        "counts": match.status != Match.Status.ANNULLED,
        "annulment": next((change for change in history if change.kind == ResultChange.Kind.ANNULMENT), None),
    }
    # A failed form whose game or match has since moved on is not drawn again: its errors are said as messages.
    drawn = [form for _game, form in context["result_forms"]] + [context["score_form"]]
    for failed in (score_form, result_form[1] if result_form is not None else None):
        if failed is not None and failed not in drawn:
            for error in failed.non_field_errors() or ["That result could not be recorded."]:
                messages.error(request, error)
    return render(request, "web/match_detail.html", context, status=status)


_TAKES_EVIDENCE = (Game.Status.OPEN, Game.Status.AWAITING_CONFIRMATION, Game.Status.DISPUTED)


#: The newest changes shown on the match page; the API pages through all of them.
HISTORY_ON_PAGE = 50


@login_required
@require_http_methods(["POST"])
def game_report_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """A player reports a game's result: the winner of two, every player's place at a table."""
    game = _game_or_404(game_id)
    match = game.match
    form = GameResultForm(
        request.POST,
        players=[player.handle for player in match.players],
        table=match.is_table,
        teams=team_handles(match),
        organiser=False,
    )
    if not form.is_valid():
        errors = form.non_field_errors()
        messages.error(request, errors[0] if errors else "Choose who won.")
        return _back(request, game)
    try:
        game_report_result(game_id=game.pk, user=request.user, **form.result())
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        others = "every other player confirms it" if match.is_table else "your opponent confirms it"
        messages.success(request, f"Game {game.number} reported ({form.describe()}); it counts once {others}.")
    return _back(request, game)


@login_required
@require_http_methods(["POST"])
def game_confirm_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    game_confirm(game_id=game.pk, user=request.user)
    messages.success(request, f"Game {game.number} confirmed.")
    return _back(request, game)


@login_required
@require_http_methods(["POST"])
def game_dispute_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    try:
        game_dispute_claim(game_id=game.pk, user=request.user, reason=request.POST.get("reason", ""))
    except Invalid as exc:
        messages.error(request, exc.message)
    else:
        messages.info(request, f"Game {game.number} disputed: an organiser will settle it.")
    return _back(request, game)


def _back(request: HttpRequest, game: Game) -> HttpResponse:
    """Back to "My matches" when the button was there, else to the match."""
    if request.POST.get("next") == reverse("web:my_matches"):
        return redirect("web:my_matches")
    return redirect("web:match_detail", match_id=game.match_id)


def _game_or_404(game_id: int) -> Game:
    game = game_get(game_id=game_id)
    if game is None:
        raise Http404("No such game")
    return game
