"""The home page: the same for every visitor but a signed-in player's links, from the site lists' cache."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.site_cache import SiteCache
from web.presenters.results import game_result_words
from web.selectors import home as home_reads
from web.selectors.tournament_page import (
    tournament_featured_context,
)

#: The home page's parts whose HTML is cached with the site lists (`{% cached_part %}`): what is the same
#: for every visitor (not a signed-in player's link), and not the latest replays, which say how long ago.
HOME_PARTS = {
    "tournaments": "html:home-tournaments",
    "running": "html:home-running",
    "results": "html:home-results",
}


def home(request: HttpRequest) -> HttpResponse:
    """Bounded whatever the tournaments' sizes: a summary of two featured tournaments and links on."""
    site = SiteCache()
    site.prefetch(["home", *HOME_PARTS.values()])  # the lists and their parts' HTML in one round trip
    lists = home_reads.home_lists(reader=site)  # cached: the same for every visitor
    bracket, table = lists.featured_bracket, lists.featured_table
    context = {
        "featured_bracket": tournament_featured_context(bracket) if bracket else None,
        "featured_table": tournament_featured_context(table) if table else None,
        "tournaments_running": lists.tournaments_running,
        "tournaments_recent": lists.tournaments_recent,
        "running_matches": lists.running_matches,
        "finished_matches": lists.finished_matches,
        "latest_logs": lists.latest_logs,
        # Each replay with its game's result as the game's state says it, not as the log alone would.
        "latest_replays": [(log, game_result_words(log.game, log=log)) for log in lists.latest_logs],
        "site_cache": site,
        "home_parts": HOME_PARTS,
    }
    return render(request, "web/home.html", context)
