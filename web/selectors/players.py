"""Reads of the players' pages: the list, a player's matches, record and rating history, handles to suggest."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, QuerySet

from core.site_cache import SiteCache
from matches.models import Game, Match, Player
from matches.selectors import MATCH_PLAYERS, player_list
from tournaments.models import Entrant, RatingChange
from tournaments.selectors import RATING_ORDER_OF_CHANGE
from web.selectors.matches import in_any_seat


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


#: Handles the new-match page suggests at most (typing any other handle still works).
HANDLE_SUGGESTIONS = 500


def player_handles(*, limit: int = HANDLE_SUGGESTIONS) -> list[str]:
    """Handles to suggest in the new-match page's seats, alphabetical (one query, bounded)."""
    return list(Player.objects.order_by("handle").values_list("handle", flat=True)[:limit])


def players_without_login(*, player_ids: Iterable[int]) -> set[int]:
    """Which of these players cannot log in yet (no password chosen): they claim their account by invite (one query)."""
    return set(
        Player.objects.filter(pk__in=list(player_ids), user__password__startswith=UNUSABLE_PASSWORD_PREFIX).values_list(
            "pk", flat=True
        )
    )


def user_get(*, user_id: int) -> AbstractBaseUser | None:
    """The user with this id, if any (an invite link names its user by id)."""
    return get_user_model().objects.filter(pk=user_id).first()
