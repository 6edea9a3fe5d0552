"""The players' pages: the list, a player's page, and a signed-in player's own ("My matches")."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from core.site_cache import SiteCache
from matches.selectors import (
    player_get,
    user_is_organiser,
    user_player,
)
from tournaments.selectors import rating_get
from web.drawing.charts import line_chart
from web.presenters.paging import page_number, page_of
from web.selectors import players as player_reads
from web.selectors import tournaments as tournament_reads
from web.selectors.calendars import calendar_token_of, player_feed
from web.selectors.challenges import my_challenges
from web.selectors.mine import my_page, ways_in


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    """A player's own page: what waits on them, their next tournament match, recent results, rating."""
    me = user_player(user=request.user)
    if me is None:
        return render(request, "web/my_matches.html", {"page": None})
    page = my_page(player=me)
    next_names = tournament_reads.names_of(page.next_matches)
    feed = player_feed(player=me)
    token = calendar_token_of(player=me)
    context = {
        "page": page,
        "challenges": my_challenges(player=me),
        "next_matches": [
            (pairing, next_names[pairing.pk], feed.round_times.get((pairing.tournament_id, pairing.round)))
            for pairing in page.next_matches
        ],
        "coming_up": [t for t in feed.tournaments if t.starts_at is not None],
        "calendar_url": request.build_absolute_uri(reverse("web:player_ics", args=[token.token])) if token else "",
    }
    return render(request, "web/my_matches.html", context)


#: Players listed on one page of /players/.
PLAYERS_PER_PAGE = 50


def player_list_view(request: HttpRequest) -> HttpResponse:
    """Players a page at a time, sorted by handle, rating or newest; two queries whatever their number.

    Without a search, the count and each page's rows (their HTML) come from the site lists' cache: no query.
    """
    search = request.GET.get("q", "").strip()
    sort = request.GET.get("sort", "name")
    sort = sort if sort in player_reads.PLAYER_SORTS else "name"
    players = player_reads.players_sorted(search=search or None, sort=sort)
    site = SiteCache()
    asked = page_number(request.GET, "page")
    if not search:
        site.prefetch([player_reads.PLAYER_COUNT, _players_part(sort, asked)])
    total = players.count() if search else player_reads.player_count_cached(reader=site)
    page = page_of(total, PLAYERS_PER_PAGE, asked)
    context = {
        # Not read here: the template reads the page only when its rows' HTML is not cached.
        "players": players[max(page.start_index() - 1, 0) : page.end_index()],
        "pager": page,
        "search": search,
        "sort": sort,
        "sorts": player_reads.PLAYER_SORTS.items(),
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
    matches = list(player_reads.player_matches(player=player))
    history = player_reads.player_rating_history(player=player)
    chart = None
    if history:
        values = [history[0].rating_before, *(change.rating_after for change in history)]
        chart = line_chart([(player.handle, values)], width=640, height=200, area=True)
    context = {
        "player": player,
        "matches": matches,
        "record": player_reads.player_record(player=player, matches=matches),
        "rating": rating_get(player=player),
        "rating_chart": chart,
        "entries": player_reads.player_entries(player=player),
    }
    viewer = user_player(user=request.user)
    # Another player may challenge this one (who needs an account to answer); organisers make matches instead.
    context["can_challenge"] = (
        viewer is not None
        and viewer.pk != player.pk
        and player.user_id is not None
        and not user_is_organiser(user=request.user)
    )
    if player.user_id is not None and player.user_id == request.user.pk:
        # One's own page points to the tournaments one may register for, and one's registrations waiting.
        context["ways"] = ways_in(player=player)
        context["new"] = not matches
    return render(request, "web/player_detail.html", context)
