"""Organiser pages: create a tournament, enter, register, check in and seed players, start it, call matches,
enter results, correct a result.

Each view checks the form, calls one `tournaments.services` function (which
checks permissions again) and redirects; expected failures come back as the
service's own message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from core.numbers import NumberError, whole_number
from matches.models import Game, Match, Player
from matches.selectors import match_get, player_get, player_list, user_is_organiser
from matches.services import game_set_result
from tournaments.correction_plans import CorrectionPreview
from tournaments.models import Registration, Tournament, TournamentMatch
from tournaments.selectors import correction_list, entrant_list, pairing_get, pairing_list, tournament_get
from tournaments.services import entrant_remove, pairing_correct
from tournaments.services.registration import (
    bulk_lines_parse,
    entrant_check_in,
    entrant_enter_new,
    entrants_add_bulk,
    entrants_reseed,
    registration_decide,
    registrations_approve_all,
    tournament_checkin_set,
    tournament_create_described,
    tournament_registration_set,
)
from tournaments.services.running import match_score_enter, pairing_call
from web.forms.organise import (
    BulkEntrantsForm,
    CallForm,
    CorrectionForm,
    EntrantForm,
    MatchScoreForm,
    PairCorrectionForm,
    ReseedForm,
    TableCorrectionForm,
)
from web.forms.result import GameResultForm
from web.forms.tournament import NewTournamentForm
from web.presenters.names import pairing_names
from web.presenters.paging import page_number
from web.selectors import tournaments as selectors
from web.selectors.desk import Desk, desk, desk_counts_by_tournament
from web.selectors.players import players_without_login
from web.selectors.tournaments import registrations_pending
from web.views.accounts import claim_url
from web.views.matches import match_page
from web.views.organise_entry import ACTIONS as ENTRY_ACTIONS
from web.views.organise_entry import entry_action, entry_context

View = Callable[..., HttpResponse]


def organiser_required(view: View) -> View:
    """Anonymous visitors log in first; signed-in non-organisers get a 403."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not user_is_organiser(user=request.user):
            raise PermissionDenied("Only organisers run tournaments.")
        return view(request, *args, **kwargs)

    return wrapped


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


#: The desk's lists and the query parameter each one's page is in.
DESK_PAGES = {name: f"{name}_page" for name in ("disputes", "claims", "registrations", "underway")}


def _desk(request: HttpRequest, tournament_id: int | None = None) -> Desk:
    pages = {name: page_number(request.GET, param) for name, param in DESK_PAGES.items()}
    return desk(tournament_id=tournament_id, pages=pages)


@organiser_required
def organise(request: HttpRequest) -> HttpResponse:
    """The organiser's desk: what waits across the tournaments, each one click from its action; then the tournaments."""
    tournaments = selectors.tournaments_with_counts()
    context = {
        "tournaments": tournaments,
        "desk": _desk(request),
        "desk_pages": DESK_PAGES,
        "counts": desk_counts_by_tournament(tournament_ids=[t.pk for t in tournaments]),
    }
    return render(request, "web/organise/index.html", context)


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create_described(user=request.user, **form.service_kwargs())
        except ApplicationError as exc:
            form.add_service_error(exc.extra.get("field"), exc.message)
        else:
            messages.success(request, f"{tournament.name} is created: enter players or open registration.")
            return redirect("web:organise_tournament", tournament_id=tournament.pk)
    return render(request, "web/organise/tournament_new.html", {"form": form})


def _manage_action(request: HttpRequest, tournament: Tournament, action: str) -> str | None:
    """Carry out one of the manage page's buttons; returns the message to show, or None for an unknown action."""
    post, user, tid = request.POST, request.user, tournament.pk
    if action == "remove":
        moved = entrant_remove(tournament_id=tid, handle=post.get("handle", ""), user=user)
        return f"{post.get('handle')} withdrawn." + (
            f" {', '.join(moved)} moved up from the waiting list." if moved else ""
        )
    if action in ENTRY_ACTIONS:
        return entry_action(request, tournament, action)
    if action in ("registration_open", "registration_close"):
        tournament_registration_set(tournament_id=tid, user=user, open=action == "registration_open")
        return (
            "Registration is open: players can register from the tournament's page."
            if action == "registration_open"
            else "Registration is closed."
        )
    if action in ("checkin_open", "checkin_close"):
        tournament_checkin_set(tournament_id=tid, user=user, open=action == "checkin_open")
        return (
            "Check-in is open: entrants not checked in are dropped at the start."
            if action == "checkin_open"
            else "Check-in is closed."
        )
    if action == "approve_all":
        decided = registrations_approve_all(tournament_id=tid, user=user)
        waiting = sum(registration.status == Registration.Status.WAITING for registration in decided)
        entered = len(decided) - waiting
        return f"{entered} entered" + (f", {waiting} on the waiting list (the event is full)." if waiting else ".")
    if action in ("approve", "decline"):
        registration = registration_decide(
            registration_id=_int(post.get("registration")), user=user, approve=action == "approve"
        )
        if registration.status == Registration.Status.WAITING:
            return f"{tournament.name} is full: {registration.player.handle} is on the waiting list."
        return f"{registration.player.handle} {'entered' if action == 'approve' else 'declined'}."
    if action in ("check_in", "check_out"):
        entrant = entrant_check_in(
            tournament_id=tid, user=user, handle=post.get("handle", ""), present=action == "check_in"
        )
        return f"{entrant.player.handle} {'checked in' if action == 'check_in' else 'no longer checked in'}."
    if action == "call":
        pairing = pairing_call(tournament_id=tid, key=post.get("key", ""), user=user, station=post.get("station", ""))
        return f"{pairing.player_one.handle} v {pairing.player_two.handle} is underway{f' at {pairing.station}' if pairing.station else ''}."
    if action == "uncall":
        pairing_call(tournament_id=tid, key=post.get("key", ""), user=user, underway=False)
        return "Back to up next."
    return None


def _int(value: str | None) -> int:
    """A row's id from a button's form (0, which no row has, when it is not one: the service says not found)."""
    try:
        return whole_number(value or "", low=1, high=2**63 - 1)
    except NumberError:
        return 0


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_manage(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    action = request.POST.get("action", "")
    form = EntrantForm(request.POST if action == "add" else None)
    bulk = BulkEntrantsForm(request.POST if action == "bulk" else None)
    reseed = ReseedForm(request.POST if action == "reseed" else None)
    back = (
        redirect("web:organise")  # a registration approved from the desk goes back to the desk
        if request.POST.get("next") == reverse("web:organise")
        else redirect("web:organise_tournament", tournament_id=tournament.pk)
    )
    if request.method == "POST":
        try:
            if action == "add" and form.is_valid():
                data = form.cleaned_data
                entrant = entrant_enter_new(
                    tournament_id=tournament.pk,
                    handle=data["handle"],
                    display_name=data["display_name"],
                    seed=data["seed"],
                    user=request.user,
                )
                messages.success(request, f"{data['handle']} entered as seed {entrant.seed}.")
                return back
            if action == "bulk" and bulk.is_valid():
                entered = entrants_add_bulk(
                    tournament_id=tournament.pk, lines=bulk_lines_parse(bulk.cleaned_data["players"]), user=request.user
                )
                messages.success(request, f"{len(entered)} player{'s' if len(entered) != 1 else ''} entered.")
                return back
            if action == "reseed" and reseed.is_valid():
                entrants_reseed(
                    tournament_id=tournament.pk, handles=reseed.cleaned_data["order"].splitlines(), user=request.user
                )
                messages.success(request, "Seeds updated.")
                return back
            if action == "start":  # the start is confirmed on its own page first
                return redirect("web:organise_start", tournament_id=tournament.pk)
            done = _manage_action(request, tournament, action)
            if done is not None:
                messages.success(request, done)
                return back
        except ApplicationError as exc:
            target = {"add": form, "bulk": bulk, "reseed": reseed}.get(action)
            if target is not None and tournament.status == Tournament.Status.SETUP:
                target.add_error(None, exc.message)  # shown beside the form, with what was typed
            else:
                messages.error(request, exc.message)
                return back
    entrants = entrant_list(tournament=tournament)
    if not reseed.is_bound:
        reseed = ReseedForm(initial={"order": "\n".join(e.player.handle for e in entrants)})
    pairings = list(pairing_list(tournament=tournament))
    names = pairing_names(pairings)
    ready = [p for p in pairings if p.status == TournamentMatch.Status.READY]
    context = {
        "tournament": tournament,
        "entrants": entrants,
        "claimable": players_without_login(player_ids=[e.player_id for e in entrants]),
        "absent": [e for e in entrants if e.checked_in_at is None] if tournament.checkin_open else [],
        "checked_in_count": sum(1 for e in entrants if e.checked_in_at is not None),
        "form": form,
        "bulk": bulk,
        "reseed": reseed,
        "players": player_list()[:500],
        "registrations": registrations_pending(tournament=tournament),
        "names": names,
        "underway": [p for p in ready if p.underway_at is not None],
        "up_next": [p for p in ready if p.underway_at is None],
        "decided": [pairing for pairing in pairings if pairing.status == TournamentMatch.Status.DECIDED],
        "corrections": list(correction_list(tournament=tournament)[:20]),
        "desk": _desk(request, tournament.pk),
        "desk_pages": DESK_PAGES,
        # The start can be taken back until anything is played.
        "may_undo": tournament.status == Tournament.Status.RUNNING
        and not selectors.tournament_played(tournament=tournament),
        **entry_context(tournament),
    }
    return render(request, "web/organise/tournament_manage.html", context)


@organiser_required
def invite_link(request: HttpRequest, tournament_id: int, handle: str) -> HttpResponse:
    """The link a player created without a login opens to choose a password (shown to the organiser to pass on)."""
    tournament = _tournament_or_404(tournament_id)
    player = player_get(handle=handle)
    if player is None or player.user is None:
        raise Http404("No such player")
    context = {"tournament": tournament, "player": player, "link": request.build_absolute_uri(claim_url(player.user))}
    return render(request, "web/organise/invite.html", context)


@organiser_required
@require_http_methods(["POST"])
def match_result(request: HttpRequest, match_id: int) -> HttpResponse:
    """Enter a match's score (two players), or one game's result (a winner, a table's places, or void).

    A reason is asked for only when settling a disputed game. A form that fails shows the match page
    again with what was typed and the error beside it.
    """
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404("No such match")
    if request.POST.get("action") == "score":
        score = MatchScoreForm(request.POST)
        if not score.is_valid():
            return match_page(request, match, score_form=score, status=400)
        try:
            match_score_enter(
                match_id=match.pk,
                user=request.user,
                games_one=score.cleaned_data["games_one"],
                games_two=score.cleaned_data["games_two"],
                reason=score.cleaned_data["reason"],
            )
        except ApplicationError as exc:
            score.add_error(None, exc.message)
            return match_page(request, match, score_form=score, status=400)
        messages.success(request, "Score entered.")
        return redirect("web:match_detail", match_id=match.pk)
    game = next((g for g in match.games.all() if str(g.pk) == request.POST.get("game")), None)
    if game is None:
        raise Http404("No such game in this match")
    players = match.players
    teams = [tuple(players[seat].handle for seat in team) for team in match.teams] if match.is_team else None
    result = GameResultForm(
        request.POST,
        players=[player.handle for player in players],
        table=match.is_table,
        teams=teams,
        reason_required=game.status == Game.Status.DISPUTED,
        auto_id=f"id_g{game.pk}_%s",
    )
    if result.is_valid():
        try:
            game_set_result(game_id=game.pk, user=request.user, reason=result.cleaned_data["reason"], **result.result())
        except ApplicationError as exc:
            result.add_error(None, exc.message)
        else:
            messages.success(request, f"Game {game.number}: {result.describe()}.")
            return redirect("web:match_detail", match_id=match.pk)
    return match_page(request, match, result_form=(game.pk, result), status=400)


@organiser_required
@require_http_methods(["POST"])
def match_call(request: HttpRequest, match_id: int) -> HttpResponse:
    """Mark a tournament match underway at a station (or take it back), from the match page."""
    match = match_get(match_id=match_id)
    pairing = selectors.tournament_of_match(match=match) if match is not None else None
    if match is None or pairing is None:
        raise Http404("No such tournament match")
    form = CallForm(request.POST)
    station = form.cleaned_data["station"] if form.is_valid() else ""
    try:
        pairing_call(
            tournament_id=pairing.tournament_id,
            key=pairing.key,
            user=request.user,
            station=station,
            underway=request.POST.get("action") != "uncall",
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("web:match_detail", match_id=match.pk)


@organiser_required
@require_http_methods(["GET", "POST"])
def pairing_correct_view(request: HttpRequest, tournament_id: int, key: str) -> HttpResponse:
    """Give the real result (two players: each game's winner, void or added, or the other player won it all; a
    table: each game's places), see what the correction changes downstream, then apply it."""
    tournament = _tournament_or_404(tournament_id)
    pairing = pairing_get(tournament=tournament, key=key)
    if pairing is None or pairing.player_one is None or pairing.player_two is None:
        raise Http404("No such match in this tournament")
    match = match_get(match_id=pairing.match_id) if pairing.match_id is not None else None
    table = len(pairing.seat_ids) > 2
    if table and match is None:
        raise Http404("This table has no match")
    forms = _correction_forms(request, pairing, match, table=table)
    names = pairing_names(pairing_list(tournament=tournament))
    name = names.get(key, key)
    preview = None
    checked = forms.checked
    if checked is not None and checked.is_valid() and not _reason_missing(request, checked):
        apply = request.method == "POST"
        result = {"winner": checked.cleaned_data["winner"]} if checked is forms.winner else {"games": checked.games()}
        try:
            preview = pairing_correct(
                tournament_id=tournament.pk,
                key=key,
                user=request.user,
                reason=request.POST.get("reason", ""),
                dry_run=not apply,
                confirm=apply and request.POST.get("confirm") == "yes",
                **result,
            )
        except ApplicationError as exc:
            checked.add_error(None, exc.message)
        else:
            if preview.applied:
                messages.success(
                    request,
                    f"{name} corrected: {_corrected_words(preview, table=table)}. "
                    f"{len(preview.changes)} later match(es) updated.",
                )
                return redirect("web:tournament_detail", tournament_id=tournament.pk)
            if apply:
                unchanged = "These are the places recorded" if table else "That is the result recorded"
                messages.info(request, f"{unchanged} for the {name.lower()}; nothing to change.")
                return redirect("web:organise_tournament", tournament_id=tournament.pk)
    handles = [player.handle for player in pairing.seats]
    totals = (preview.standing or preview.score) if preview is not None else {}
    context = {
        "tournament": tournament,
        "pairing": pairing,
        "table": table,
        "form": forms.winner,
        "score_form": forms.games,
        "checked": checked,
        "marker": forms.marker,
        "preview": preview,
        "total_rows": [(handle, totals["before"][handle], totals["after"][handle]) for handle in handles]
        if totals
        else [],
        "name": name,
        "names": names,
    }
    return render(request, "web/organise/correct.html", context)


@dataclass(frozen=True)
class _CorrectionForms:
    """The correction page's forms: the games' results (a table's places, or two players' winners game by game),
    the winner of every game (two players), the one this request gave, and the field that names it."""

    games: TableCorrectionForm | PairCorrectionForm
    winner: CorrectionForm | None
    checked: Any
    marker: str


def _correction_forms(
    request: HttpRequest, pairing: TournamentMatch, match: Match | None, *, table: bool
) -> _CorrectionForms:
    """The page's forms, bound to what this request gave: a preview is a GET naming its form, applying a POST."""
    source = request.POST if request.method == "POST" else request.GET
    posted = request.method == "POST"
    handles = [player.handle for player in pairing.seats]
    settled = [game for game in (match.games.all() if match is not None else ()) if game.is_settled]
    if table:
        places = [(game.number, None if game.places is None else list(game.places)) for game in settled]
        form = TableCorrectionForm(
            source if posted or "preview" in source else None,
            players=handles,
            games=places,
            added=_games_to_add(match, [], table=True),
        )
        return _CorrectionForms(form, None, form if form.is_bound else None, "preview")
    winners = [
        (game.number, PairCorrectionForm.VOID if game.status == Game.Status.VOID else _handle(game.winner))
        for game in settled
    ]
    by_games = "score" in source
    score = PairCorrectionForm(
        source if by_games else None, players=handles, games=winners, added=_games_to_add(match, winners)
    )
    winner = CorrectionForm(source if not by_games and (posted or "winner" in source) else None, players=handles)
    checked = score if by_games else (winner if winner.is_bound else None)
    return _CorrectionForms(score, winner, checked, "score")


def _handle(player: Player | None) -> str | None:
    return None if player is None else player.handle


def _games_to_add(match: Match | None, winners: list[tuple[int, str | None]], *, table: bool = False) -> list[int]:
    """The games a match never recorded that a correction could add: two players', as many as the series can still
    count (a best of 3 recorded 2-0 may have had a game 3); a table's, the one after its last (a table's series
    has no most games: equal players play on)."""
    if match is None:
        return []
    last = max((game.number for game in match.games.all()), default=0)
    if table:
        return [last + 1]
    won = sum(1 for _, winner in winners if winner not in (None, PairCorrectionForm.VOID))
    return list(range(last + 1, last + 1 + max(0, 2 * match.wins_needed - 1 - won)))


def _reason_missing(request: HttpRequest, form: Any) -> bool:
    """A correction changes a decided result: applying one says why (kept in the history). A preview needs none."""
    if request.method == "POST" and not request.POST.get("reason", "").strip():
        form.add_error(None, "Say why the result is corrected: the reason is kept in the history.")
        return True
    return False


def _corrected_words(preview: CorrectionPreview, *, table: bool) -> str:
    """ "p02 won 1-2" (two players' games), "p02 won" (every game turned round), "1 game; p06 won" (a table)."""
    if table:
        changed = len(preview.games)
        return f"{changed} game{'s' if changed != 1 else ''}; {preview.new_winner} won"
    shown = " " + "\N{EN DASH}".join(str(wins) for wins in preview.score["after"].values()) if preview.score else ""
    return f"{preview.new_winner} won{shown}"
