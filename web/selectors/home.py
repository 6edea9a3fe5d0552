"""Reads the pages need that the apps' selectors do not offer (yet): read-only, query-counted.

Each function loads what its page shows in a fixed number of queries
(select_related / prefetch_related), never one per row.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import orjson
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from matches.models import Game, Match, Player
from matches.selectors import MATCH_PLAYERS, player_list, user_is_organiser, user_player
from replays.models import MatchLog
from speedrules import LogError, ruleset_from_json
from speedsite.site_cache import SiteCache
from tournaments.formats import FORMATS
from tournaments.models import Entrant, RatingChange, Tournament, TournamentMatch
from tournaments.selectors import RATING_ORDER_OF_CHANGE, tournament_list

_LOG_SUMMARY_DEFER = ("data",)
#: A log's (or a game's) match with every seat's player, for select_related.
_GAME_MATCH_PLAYERS = tuple(f"game__match__{seat}" for seat in MATCH_PLAYERS)


def in_any_seat(player: Player, *, via: str = "") -> Q:
    """Rows whose match seats `player` in any of its two to four seats (`via`: the path to the match, "match__")."""
    query = Q()
    for seat in MATCH_PLAYERS:
        query |= Q(**{f"{via}{seat}": player})
    return query


def logs_latest_verified(*, limit: int = 8) -> list[MatchLog]:
    """The most recently verified logs with their game, match and players (one query)."""
    return list(
        MatchLog.objects.defer(*_LOG_SUMMARY_DEFER)
        .filter(status=MatchLog.Status.VERIFIED)
        .select_related("winner", *_GAME_MATCH_PLAYERS)
        .order_by("-verified_at", "-id")[:limit]
    )


def logs_by_game(*, games: Iterable[Game]) -> dict[int, list[MatchLog]]:
    """Every log of these games, newest first, keyed by game id (one query)."""
    ids = [game.pk for game in games]
    found: dict[int, list[MatchLog]] = defaultdict(list)
    if not ids:
        return found
    for log in (
        MatchLog.objects.defer(*_LOG_SUMMARY_DEFER)
        .filter(game_id__in=ids)
        .select_related("winner")
        .order_by("-submitted_at", "-id")
    ):
        found[log.game_id].append(log)
    return found


def log_get_for_page(*, log_id: int, with_data: bool = False) -> MatchLog | None:
    """One log with its game, match and players; the document bytes only when asked for."""
    logs = MatchLog.objects.all() if with_data else MatchLog.objects.defer(*_LOG_SUMMARY_DEFER)
    return logs.select_related("winner", *_GAME_MATCH_PLAYERS, "game__winner").filter(pk=log_id).first()


def log_seat_names(*, log: MatchLog) -> list[str]:
    """The log's own `players` list (its seat order), else the match's handles in seat order.

    The replay's event descriptions name seats by these strings, so the viewer
    must label seats the same way; the match's player order may differ.
    """
    try:
        names = orjson.loads(bytes(log.data)).get("players")
    except (orjson.JSONDecodeError, AttributeError, TypeError):
        names = None
    if isinstance(names, list) and names and all(isinstance(name, str) for name in names):
        return names
    return [player.handle for player in log.game.match.players]


def ruleset_pack_size(*, ruleset: object) -> int | None:
    """The pack of a match's ruleset (52 per deck plus jokers), None when it is not a valid ruleset."""
    try:
        return ruleset_from_json(ruleset).pack_size
    except LogError:
        return None


def games_open_for_submission(*, user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Game]:
    """Games a log can be submitted for by this user: open or disputed, in matches they play (all, for organisers)."""
    games = (
        Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.DISPUTED])
        .select_related(*(f"match__{seat}" for seat in MATCH_PLAYERS))
        .order_by("-match__created_at", "match_id", "number")
    )
    if user_is_organiser(user=user):
        return games
    me = user_player(user=user)
    if me is None:
        return games.none()
    return games.filter(in_any_seat(me, via="match__"))


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    matches_won: int
    matches_lost: int
    games_won: int
    games_lost: int

    @property
    def matches_played(self) -> int:
        return self.matches_won + self.matches_lost


def player_matches(*, player: Player) -> QuerySet[Match]:
    """A player's matches (in any seat) with every player, the winner and the games prefetched."""
    return (
        Match.objects.filter(in_any_seat(player))
        .select_related(*MATCH_PLAYERS, "winner")
        .prefetch_related("games")
        .order_by("-created_at", "-id")
    )


def player_record(*, player: Player, matches: Iterable[Match]) -> PlayerRecord:
    """Won and lost matches and games, counted from already-loaded matches (no query).

    An annulled match (set aside by a tournament correction) is listed but counts
    nowhere: neither it nor its games.
    """
    mw = ml = gw = gl = 0
    for match in matches:
        if match.status == Match.Status.ANNULLED:
            continue
        if match.status == Match.Status.FINISHED and match.winner_id is not None:
            if match.winner_id == player.pk:
                mw += 1
            else:
                ml += 1
        for game in match.games.all():
            if game.status != Game.Status.DECIDED or game.winner_id is None:
                continue
            if game.winner_id == player.pk:
                gw += 1
            else:
                gl += 1
    return PlayerRecord(mw, ml, gw, gl)


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


def tournaments_with_counts(*, status: str | None = None, limit: int | None = None) -> list[Tournament]:
    """Tournaments with `entrant_count` and `decided_count` annotated (one query)."""
    # Two correlated counts, not joins: joining both entrants and pairings multiplies their rows
    # (4,096 entrants by 4,095 pairings is 16 million rows to count distinct).
    entrants = Entrant.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    decided = (
        TournamentMatch.objects.filter(tournament=OuterRef("pk"), status=TournamentMatch.Status.DECIDED)
        .order_by()
        .values("tournament")
    )
    tournaments = tournament_list(status=status).annotate(
        entrant_count=Coalesce(Subquery(entrants.annotate(n=Count("id")).values("n")), 0),
        decided_count=Coalesce(Subquery(decided.annotate(n=Count("id")).values("n")), 0),
    )
    return list(tournaments[:limit] if limit else tournaments)


#: The cache name of /tournaments/' list.
TOURNAMENT_LIST = "tournaments"


def tournament_list_cached(*, reader: SiteCache | None = None) -> list[Tournament]:
    """Every tournament with its counts (`tournaments_with_counts`) from the site lists' cache.

    The services invalidate it: `tournament_create` for a new tournament, `tournament_changed`
    for any change under the tournament's lock (its status, entrants, results).
    """
    return (reader or SiteCache()).get(TOURNAMENT_LIST, tournaments_with_counts)


def tournament_featured(*, elimination: bool) -> Tournament | None:
    """The tournament the home page shows: the latest running one, else the latest finished one.

    `elimination` picks a format that is one bracket from the start (its format says
    so: `all_bracket`), else any other (a table, or groups before a playoff).
    """
    brackets = [key for key, fmt in FORMATS.items() if fmt.all_bracket]
    for status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        found = tournament_list(status=status)
        found = found.filter(format__in=brackets) if elimination else found.exclude(format__in=brackets)
        first = found.first()
        if first is not None:
            return first
    return None


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
    """The home page's lists from the site lists' cache (`speedsite.site_cache`: the services invalidate it).

    `reader` is the page's reader of that cache, when it has one (it may have fetched the lists already).
    """
    return (reader or SiteCache()).get("home", _home_lists)


def tournament_of_match(*, match: Match) -> TournamentMatch | None:
    """The tournament pairing a match was played for, if any."""
    return TournamentMatch.objects.select_related("tournament").filter(match=match).first()


def player_entries(*, player: Player) -> list[Entrant]:
    """The tournaments a player entered, newest first, with each tournament (one query)."""
    return list(
        Entrant.objects.filter(player=player).select_related("tournament").order_by("-tournament__created_at", "-id")
    )


def player_rating_history(*, player: Player) -> list[RatingChange]:
    """The player's rating changes, oldest first (for the chart), in rating order: a replay rewrites the rows."""
    return list(RatingChange.objects.filter(player=player).order_by(*RATING_ORDER_OF_CHANGE))


#: The cache name of the number of players.
PLAYER_COUNT = "players-count"


def player_count_cached(*, reader: SiteCache | None = None) -> int:
    """How many players there are, from the site lists' cache (`player_create` invalidates it)."""
    return (reader or SiteCache()).get(PLAYER_COUNT, Player.objects.count)


#: The orders /players/ can list players in, with their labels.
PLAYER_SORTS = {"name": "Name", "rating": "Rating", "newest": "Newest"}


def players_sorted(*, search: str | None = None, sort: str = "name") -> QuerySet[Player]:
    """Players matching `search` with their rating, in one of PLAYER_SORTS' orders (slice it: one query a page).

    Each player has `rating_value` (None when unrated) and only the fields the list shows: reading an
    unrated player's `rating` in a template fails a lookup, which Django answers slowly (it lists the
    object's attributes to tell a failing property from a missing one), fifty times a page.
    """
    players = (
        player_list(search=search)
        .annotate(rating_value=F("rating__rating"))
        .only("handle", "display_name", "created_at")
    )
    if sort == "rating":
        # Unrated players last, then by handle so that pages do not overlap.
        return players.order_by(F("rating__rating").desc(nulls_last=True), "handle")
    if sort == "newest":
        return players.order_by("-created_at", "-id")
    return players.order_by("handle")
