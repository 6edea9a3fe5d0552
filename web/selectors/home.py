"""What the home page lists, from the site lists' cache."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Subquery

from core.site_cache import SiteCache
from matches.models import Match
from matches.selectors import MATCH_PLAYERS
from replays.models import MatchLog
from tournaments.models import Tournament
from web.selectors.logs import logs_latest_verified
from web.selectors.tournaments import tournament_featured, tournaments_with_counts


def matches_recent(*, limit: int = 8, status: str | None = None) -> list[Match]:
    """The latest matches (of one status when given; never annulled ones, which are no result)."""
    latest = Match.objects.exclude(status=Match.Status.ANNULLED)
    if status:
        latest = latest.filter(status=status)
    # The latest ids first, in a subquery of the same statement: PostgreSQL then joins the players
    # to `limit` rows, not to every match of that status before cutting (thousands in a big event).
    ids = latest.order_by("-created_at", "-id").values("id")[:limit]
    matches = (
        Match.objects.filter(pk__in=Subquery(ids)).select_related(*MATCH_PLAYERS, "winner").prefetch_related("games")
    )
    return list(matches.order_by("-created_at", "-id"))


@dataclass(frozen=True)
class HomeLists:
    """What the home page lists, the same for every visitor: the featured tournaments and the latest of each kind."""

    featured_bracket: Tournament | None
    featured_table: Tournament | None
    tournaments_running: list[Tournament]
    tournaments_recent: list[Tournament]
    running_matches: list[Match]
    finished_matches: list[Match]
    latest_logs: list[MatchLog]


def _home_lists() -> HomeLists:
    return HomeLists(
        featured_bracket=tournament_featured(elimination=True),
        featured_table=tournament_featured(elimination=False),
        tournaments_running=tournaments_with_counts(status=Tournament.Status.RUNNING, limit=6),
        tournaments_recent=tournaments_with_counts(status=Tournament.Status.FINISHED, limit=3),
        running_matches=matches_recent(status=Match.Status.IN_PROGRESS, limit=6),
        finished_matches=matches_recent(status=Match.Status.FINISHED, limit=6),
        latest_logs=logs_latest_verified(limit=8),
    )


def home_lists(*, reader: SiteCache | None = None) -> HomeLists:
    """The home page's lists from the site lists' cache (`core.site_cache`: the services invalidate it).

    `reader` is the page's reader of that cache, when it has one (it may have fetched the lists already).
    """
    return (reader or SiteCache()).get("home", _home_lists)
