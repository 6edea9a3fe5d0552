"""The site's pages. Thin: each view reads through selectors or changes through one service, then renders."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods

from matches.models import Game, Match, ResultChange
from matches.selectors import (
    game_get,
    match_get,
    match_history,
    match_score,
    match_table,
    match_timed_totals,
    player_get,
    user_player,
)
from matches.services import game_confirm, game_dispute_claim, game_report_result
from replays.compact import CompactSteps
from replays.models import MatchLog
from replays.services import log_steps_build, log_submit, replay_compact
from speedsite.errors import ApplicationError, Invalid
from speedsite.middleware import policy_with
from speedsite.site_cache import SiteCache
from tournaments.models import Tournament, TournamentMatch
from tournaments.selectors import (
    rating_get,
    tournament_get,
)
from tournaments.services.registration import entrant_check_in, registration_create, registration_withdraw

from . import selectors, site_selectors
from .charts import line_chart
from .forms import LogSubmitForm, MatchScoreForm
from .mine import my_page
from .replay import build_replay, timed_by_log_seat
from .result_forms import GameResultForm
from .seats import PlaceLine, names_in_words, place_lines
from .site_selectors import names_of, registration_of
from .tournament_page import (
    page_number,
    pager,
    query_with,
    tournament_featured_context,
    tournament_page_context,
)
from .viewer import match_viewer


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of a match page with its logs: how its result came about, and what the viewer may do with it."""

    game: Game
    logs: list[MatchLog]
    may_confirm: bool = False
    may_dispute: bool = False
    handles: tuple[str, ...] = ()
    player_ids: tuple[int, ...] = ()
    report_form: GameResultForm | None = None
    teams: tuple[tuple[str, ...], ...] = ()  # Team Speed: a game is won by a team

    def _named(self, player_id: int | None) -> str:
        handle = next((h for h, pk in zip(self.handles, self.player_ids, strict=True) if pk == player_id), "")
        team = next((team for team in self.teams if handle in team), None)
        return names_in_words(team) if team else handle

    @property
    def winner_words(self) -> str:
        """Who won: a player, or a team of Team Speed ("ann and cy")."""
        return self._named(self.game.winner_id)

    @property
    def claimed_words(self) -> str:
        return self._named(self.game.claimed_winner_id)

    @property
    def verified_log(self) -> MatchLog | None:
        return next((log for log in self.logs if log.status == MatchLog.Status.VERIFIED), None)

    @property
    def rejected_logs(self) -> list[MatchLog]:
        return [log for log in self.logs if log.status in (MatchLog.Status.REJECTED, MatchLog.Status.FAILED)]

    @property
    def pending_logs(self) -> list[MatchLog]:
        return [log for log in self.logs if log.status == MatchLog.Status.PENDING]

    @property
    def places(self) -> list[PlaceLine]:
        """The decided places, best first, with each player's timed score in a timed match (a team just wins)."""
        return [] if self.teams else place_lines(self.game.places, self.handles, self.game.timed_scores)

    @property
    def claimed_places(self) -> list[PlaceLine]:
        if self.teams:
            return []
        return place_lines(self.game.claimed_places, self.handles, self.game.claimed_timed_scores)

    @property
    def confirmations(self) -> list[tuple[str, bool]]:
        """At a table, every player but the claimant with whether they have confirmed the claim yet."""
        reports = self.game.reports or {}
        return [
            (handle, str(pk) in reports)
            for handle, pk in zip(self.handles, self.player_ids, strict=True)
            if pk != self.game.claimed_by_id
        ]


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a two-sided scoreboard: a player, or a Team Speed team (its players in seat order)."""

    players: tuple[tuple[str, str], ...]  # (handle, display name)
    score: int
    winner: bool


def _sides(match: Match) -> list[Side]:
    """The scoreboard's two sides with their games won: two players, or the two teams of Team Speed."""
    players = match.players
    if match.is_team:
        teams = [tuple(players[seat] for seat in team) for team in match.teams]
    else:
        teams = [(player,) for player in players]
    score = match_score(match=match)
    return [
        Side(
            tuple((p.handle, p.display_name) for p in team),
            score[team[0].handle],
            match.winner_id is not None and match.winner_id in [p.pk for p in team],
        )
        for team in teams
    ]


def _team_handles(match: Match) -> list[tuple[str, ...]] | None:
    """Team Speed's teams by handle (None when everyone plays alone): a result names a team."""
    players = match.players
    return [tuple(players[seat].handle for seat in team) for team in match.teams] if match.is_team else None


def _series(match: Match) -> tuple[int, ...]:
    """Each seat's games won (two players) or points (a table), in seat order."""
    score = match_score(match=match)
    return tuple(score[player.handle] for player in match.players)


#: The home page's parts whose HTML is cached with the site lists (`{% cached_part %}`): what is the same
#: for every visitor (not a signed-in player's link), and not the latest replays, which say how long ago.
HOME_PARTS = {
    "tournaments": "html:home-tournaments",
    "running": "html:home-running",
    "results": "html:home-results",
}
#: /tournaments/' HTML, under the site lists' generation.
TOURNAMENT_LIST_PART = "html:tournaments"


def home(request: HttpRequest) -> HttpResponse:
    """Bounded whatever the tournaments' sizes: a summary of two featured tournaments and links on."""
    site = SiteCache()
    site.prefetch(["home", *HOME_PARTS.values()])  # the lists and their parts' HTML in one round trip
    lists = selectors.home_lists(reader=site)  # cached: the same for every visitor
    bracket, table = lists.featured_bracket, lists.featured_table
    context = {
        "featured_bracket": tournament_featured_context(bracket) if bracket else None,
        "featured_table": tournament_featured_context(table) if table else None,
        "tournaments_running": lists.tournaments_running,
        "tournaments_recent": lists.tournaments_recent,
        "running_matches": lists.running_matches,
        "finished_matches": lists.finished_matches,
        "latest_logs": lists.latest_logs,
        "site_cache": site,
        "home_parts": HOME_PARTS,
    }
    return render(request, "web/home.html", context)


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Every tournament with its counts, from the site lists' cache (the counts read every pairing)."""
    site = SiteCache()
    site.prefetch([selectors.TOURNAMENT_LIST, TOURNAMENT_LIST_PART])  # the list and its HTML in one round trip
    context = {
        "tournaments": selectors.tournament_list_cached(reader=site),
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
        context["my_entry"] = site_selectors.entrant_of(tournament=tournament, player_id=me.pk)
        context["my_registration"] = registration_of(tournament=tournament, player_id=me.pk)
    context["signed_in_player"] = me
    return render(request, "web/tournament_detail.html", context)


@xframe_options_exempt  # made to be shown in a frame on other sites
def tournament_embed(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The bracket (or the standings) alone, for an <iframe> on another site."""
    tournament = _tournament_or_404(tournament_id)
    response = render(request, "web/embed.html", tournament_page_context(tournament, request.GET, with_lists=False))
    # The site's policy says frame-ancestors 'none'; this page alone may be framed anywhere (it changes nothing).
    response["Content-Security-Policy"] = policy_with(
        getattr(settings, "SPEED_CONTENT_SECURITY_POLICY", ""), "frame-ancestors *"
    )
    return response


@login_required
@require_http_methods(["POST"])
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A player registers, takes a registration back, or checks in, from the tournament's page."""
    tournament = _tournament_or_404(tournament_id)
    action = request.POST.get("action")
    try:
        if action == "register":
            registration_create(tournament_id=tournament.pk, user=request.user)
            messages.success(request, "Registered: an organiser will approve your entry.")
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


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    """A player's own page: what waits on them, their next tournament match, recent results, rating."""
    me = user_player(user=request.user)
    if me is None:
        return render(request, "web/my_matches.html", {"page": None})
    page = my_page(player=me)
    next_names = names_of(page.next_matches)
    context = {
        "page": page,
        "next_matches": [(pairing, next_names[pairing.pk]) for pairing in page.next_matches],
    }
    return render(request, "web/my_matches.html", context)


def _etag_json(version: str, request: HttpRequest) -> HttpResponse:
    """A tiny JSON answer with an ETag: an unchanged version costs the poller a 304 and no body."""
    etag = f'"{version}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"version": version})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def live_version(request: HttpRequest) -> HttpResponse:
    """What a live page polls: `?tournament=ID`, `?match=ID`, or nothing (the whole site)."""
    tournament, match = request.GET.get("tournament", ""), request.GET.get("match", "")
    if tournament.isdigit():
        version = site_selectors.live_version_tournament(tournament_id=int(tournament))
    elif match.isdigit():
        version = site_selectors.live_version_match(match_id=int(match))
    else:
        version = site_selectors.live_version_site()
    return _etag_json(version, request)


#: Players listed on one page of /players/.
PLAYERS_PER_PAGE = 50


def player_list_view(request: HttpRequest) -> HttpResponse:
    """Players a page at a time, sorted by handle, rating or newest; two queries whatever their number.

    Without a search, the count and each page's rows (their HTML) come from the site lists' cache: no query.
    """
    search = request.GET.get("q", "").strip()
    sort = request.GET.get("sort", "name")
    sort = sort if sort in selectors.PLAYER_SORTS else "name"
    players = selectors.players_sorted(search=search or None, sort=sort)
    site = SiteCache()
    asked = page_number(request.GET, "page")
    if not search:
        site.prefetch([selectors.PLAYER_COUNT, _players_part(sort, asked)])
    total = players.count() if search else selectors.player_count_cached(reader=site)
    page = pager(request.GET, "page", asked, PLAYERS_PER_PAGE, total)
    context = {
        # Not read here: the template reads the page only when its rows' HTML is not cached.
        "players": players[page.first - 1 if page.total else 0 : page.last],
        "pager": page,
        "search": search,
        "sort": sort,
        "sorts": [
            (key, label, query_with(request.GET, sort=key, page=1)) for key, label in selectors.PLAYER_SORTS.items()
        ],
        "show_ratings": True,
        "site_cache": site,
        "rows_part": "" if search else _players_part(sort, page.number),
    }
    return render(request, "web/player_list.html", context)


def _players_part(sort: str, number: int) -> str:
    """The cache name of a page of /players/' rows (a search's are not cached: visitors choose them)."""
    return f"html:players:{sort}:{number}"


def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    player = player_get(handle=handle)
    if player is None:
        raise Http404("No such player")
    matches = list(selectors.player_matches(player=player))
    history = selectors.player_rating_history(player=player)
    chart = None
    if history:
        values = [history[0].rating_before, *(change.rating_after for change in history)]
        chart = line_chart([(player.handle, values)], width=640, height=200, area=True)
    context = {
        "player": player,
        "matches": matches,
        "record": selectors.player_record(player=player, matches=matches),
        "rating": rating_get(player=player),
        "rating_chart": chart,
        "entries": selectors.player_entries(player=player),
    }
    return render(request, "web/player_detail.html", context)


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404("No such match")
    games = list(match.games.all())
    logs = selectors.logs_by_game(games=games)
    viewer = match_viewer(user=request.user, match=match)
    history = list(match_history(match=match)[:HISTORY_ON_PAGE])
    pairing = selectors.tournament_of_match(match=match)
    unsettled = [g for g in games if g.status in (*_TAKES_EVIDENCE,)]
    handles = tuple(player.handle for player in match.players)
    live = match.status == Match.Status.IN_PROGRESS
    totals = match_timed_totals(match=match)

    def report_form(game: Game) -> GameResultForm | None:
        if not (live and viewer.may_report(game)):
            return None
        return GameResultForm(
            players=list(handles),
            table=match.is_table,
            teams=_team_handles(match),
            organiser=False,
            auto_id=f"id_r{game.pk}_%s",
        )

    context = {
        "match": match,
        "tournament_match": pairing,
        "pairing_name": site_selectors.name_of(pairing),
        "may_call": viewer.organiser and pairing is not None and pairing.status == TournamentMatch.Status.READY,
        "result_forms": (
            [
                (
                    g,
                    GameResultForm(
                        players=list(handles),
                        table=match.is_table,
                        teams=_team_handles(match),
                        auto_id=f"id_g{g.pk}_%s",
                    ),
                )
                for g in unsettled
            ]
            if viewer.organiser and live
            else []
        ),
        # The whole score at once fits two players' games won; a table's or a team's games are set one by one.
        "score_form": MatchScoreForm() if viewer.organiser and live and len(match.player_ids) == 2 else None,
        "organiser_panel": viewer.organiser and live,
        "score": _series(match),
        "table": match_table(match=match) if match.is_table else None,
        "sides": None if match.is_table else _sides(match),
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
                tuple(_team_handles(match) or ()),
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
    return render(request, "web/match_detail.html", context)


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
        teams=_team_handles(match),
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


def replay_detail(request: HttpRequest, log_id: int) -> HttpResponse:
    log = selectors.log_get_for_page(log_id=log_id, with_data=True)
    if log is None:
        raise Http404("No such log")
    error = ""
    steps: CompactSteps | list[dict[str, object]] = []
    try:
        steps = replay_compact(log_steps_build(log_id=log.pk))
    except ApplicationError as exc:
        error = exc.message
    match = log.game.match
    names = selectors.log_seat_names(log=log)
    replay = build_replay(
        steps=steps,
        players=names,
        pack=selectors.ruleset_pack_size(ruleset=match.ruleset),
        status=log.status,
        code=log.code,
        event=log.event,
        message=log.message,
        winner_seat=log.winner_seat,
        time_limit_ms=match.time_limit_ms,
        timed_played=timed_by_log_seat(names, [player.handle for player in match.players], log.timed_scores),
    )
    context = {
        "log": log,
        "game": log.game,
        "match": match,
        "replay": replay,
        "error": error,
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
