"""The organiser's queue (the desk): what waits across the tournaments, or in one, and the navigation's count.

Four kinds: disputed games (an organiser settles them; a casual match's too),
claims waiting for the other side's confirmation, registrations waiting for
approval, and matches underway. Each list is a page of Django's `Paginator`
(a count and a slice: two queries), so the desk is nine queries (with the
pairings' names) whatever its length; the navigation's count is one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, IntegerField, QuerySet, Subquery
from django.db.models.functions import Coalesce

from matches.models import Game, Match
from matches.selectors import MATCH_PLAYERS, AnyUser, user_is_organiser
from tournaments.models import Registration, Tournament, TournamentMatch
from web.selectors.tournaments import names_of

#: Rows of each of the desk's lists on a page.
PER_PAGE = 20

_GAME_RELATED = (*(f"match__{seat}" for seat in MATCH_PLAYERS), "claimed_by", "claimed_winner")
_PAIRING_RELATED = ("tournament", "player_one", "player_two", "player_three", "player_four")


def _disputes(tournament_id: int | None) -> QuerySet[Game]:
    games = Game.objects.filter(status=Game.Status.DISPUTED, match__status=Match.Status.IN_PROGRESS)
    if tournament_id is not None:
        games = games.filter(match__tournament_match__tournament_id=tournament_id)
    return games


def _claims(tournament_id: int | None) -> QuerySet[Game]:
    """Claims in tournament matches (a casual match's players sort their own out unless they dispute)."""
    games = Game.objects.filter(
        status=Game.Status.AWAITING_CONFIRMATION,
        match__status=Match.Status.IN_PROGRESS,
        match__tournament_match__isnull=False,
    )
    if tournament_id is not None:
        games = games.filter(match__tournament_match__tournament_id=tournament_id)
    return games


def _registrations(tournament_id: int | None) -> QuerySet[Registration]:
    registrations = Registration.objects.filter(
        status=Registration.Status.PENDING, tournament__status=Tournament.Status.SETUP
    )
    if tournament_id is not None:
        registrations = registrations.filter(tournament_id=tournament_id)
    return registrations


def _underway(tournament_id: int | None) -> QuerySet[TournamentMatch]:
    pairings = TournamentMatch.objects.filter(
        status=TournamentMatch.Status.READY,
        underway_at__isnull=False,
        tournament__status=Tournament.Status.RUNNING,
    )
    if tournament_id is not None:
        pairings = pairings.filter(tournament_id=tournament_id)
    return pairings


@dataclass(frozen=True)
class Desk:
    """One page of each of the desk's lists; each page's `paginator.count` is the list's whole count."""

    disputes: Page[Game]
    claims: Page[Game]
    registrations: Page[Registration]
    underway: Page[TournamentMatch]
    #: The names in words ("Final", "Round 1, match 2") of the pairings on these pages, by pairing id.
    names: dict[int, str]

    @property
    def needs_you(self) -> int:
        """What only an organiser can move on: disputes and registrations to decide."""
        return int(self.disputes.paginator.count) + int(self.registrations.paginator.count)

    @property
    def empty(self) -> bool:
        return not any(page.paginator.count for page in (self.disputes, self.claims, self.registrations, self.underway))


def _page(rows: QuerySet, number: int) -> Page:  # type: ignore[type-arg]
    return Paginator(rows, PER_PAGE).get_page(number)


def desk(*, tournament_id: int | None = None, pages: dict[str, int] | None = None) -> Desk:
    """The desk across every tournament, or one tournament's (`tournament_id`); `pages`: each list's page number.

    Nine queries (each list's count and page, the shapes that name the
    pairings in words), with the match, its players and its tournament loaded
    for every game.
    """
    pages = pages or {}
    games_related = (*_GAME_RELATED, "match__tournament_match__tournament")
    lists = dict(
        disputes=_page(
            _disputes(tournament_id).select_related(*games_related).order_by("match_id", "number"),
            pages.get("disputes", 1),
        ),
        claims=_page(
            _claims(tournament_id).select_related(*games_related).order_by("confirm_by", "id"),
            pages.get("claims", 1),
        ),
        registrations=_page(
            _registrations(tournament_id).select_related("player", "tournament").order_by("created_at", "id"),
            pages.get("registrations", 1),
        ),
        underway=_page(
            _underway(tournament_id).select_related(*_PAIRING_RELATED).order_by("underway_at", "id"),
            pages.get("underway", 1),
        ),
    )
    # A casual match has no pairing: the reverse one-to-one raises an AttributeError, so getattr's default.
    pairings = [
        pairing
        for game in (*lists["disputes"], *lists["claims"])
        if (pairing := getattr(game.match, "tournament_match", None)) is not None
    ]
    return Desk(**lists, names=names_of([*pairings, *lists["underway"]]))


def desk_count(*, user: AnyUser) -> int:
    """The navigation's count for an organiser: disputes and registrations waiting (one query; 0 for others)."""
    if not user_is_organiser(user=user):
        return 0
    # Every disputed game has the same status: grouping by it makes the count one row, or none.
    disputes = _disputes(None).order_by().values("status").annotate(n=Count("id")).values("n")
    total = _registrations(None).aggregate(
        total=Count("id") + Coalesce(Subquery(disputes), 0, output_field=IntegerField())
    )["total"]
    return int(total or 0)


@dataclass(frozen=True)
class DeskCounts:
    disputes: int = 0
    claims: int = 0
    registrations: int = 0
    underway: int = 0

    @property
    def needs_you(self) -> int:
        return self.disputes + self.registrations


def desk_counts_by_tournament(*, tournament_ids: list[int]) -> dict[int, DeskCounts]:
    """Each tournament's desk counts (four grouped queries), for the organiser's list of tournaments."""
    if not tournament_ids:
        return {}
    ids = set(tournament_ids)
    per: dict[int, dict[str, int]] = {tid: {} for tid in ids}
    games = "match__tournament_match__tournament_id"
    for name, rows, column in (
        ("disputes", _disputes(None).filter(**{f"{games}__in": ids}), games),
        ("claims", _claims(None).filter(**{f"{games}__in": ids}), games),
        ("registrations", _registrations(None).filter(tournament_id__in=ids), "tournament_id"),
        ("underway", _underway(None).filter(tournament_id__in=ids), "tournament_id"),
    ):
        for tid, n in rows.order_by().values_list(column).annotate(n=Count("id")):
            per[tid][name] = n
    return {tid: DeskCounts(**values) for tid, values in per.items()}
