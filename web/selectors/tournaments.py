"""Reads of the tournament pages besides the page itself (`tournament_page`): lists, names, registrations."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from core.site_cache import SiteCache
from matches.models import Match
from tournaments.formats import FORMATS
from tournaments.models import Entrant, Registration, Tournament, TournamentMatch
from tournaments.selectors import tournament_has_results, tournament_list
from web.presenters.names import SectionShape, pairing_name


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


def tournament_of_match(*, match: Match) -> TournamentMatch | None:
    """The tournament pairing a match was played for, if any."""
    return TournamentMatch.objects.select_related("tournament").filter(match=match).first()


def section_shapes_for(*, tournament_ids: Iterable[int]) -> dict[tuple[int, str], SectionShape]:
    """The shape of every section of these tournaments (one query, a row per round)."""
    ids = set(tournament_ids)
    if not ids:
        return {}
    rows = (
        TournamentMatch.objects.filter(tournament_id__in=ids)
        .values("tournament_id", "bracket", "round")
        .annotate(size=Count("id", filter=~Q(status=TournamentMatch.Status.BYE)))
        .order_by()
    )
    sizes: dict[tuple[int, str], dict[int, int]] = defaultdict(dict)
    for row in rows:
        sizes[(row["tournament_id"], row["bracket"])][row["round"]] = row["size"]
    return {key: SectionShape(max(rounds), rounds) for key, rounds in sizes.items()}


def names_of(pairings: Iterable[TournamentMatch]) -> dict[int, str]:
    """Names in words of pairings from any tournaments, by pairing id (one query for the shapes)."""
    rows = list(pairings)
    shapes = section_shapes_for(tournament_ids={pairing.tournament_id for pairing in rows})
    return {pairing.pk: pairing_name(pairing, shapes.get((pairing.tournament_id, pairing.bracket))) for pairing in rows}


def name_of(pairing: TournamentMatch | None) -> str:
    """One pairing's name (one query), or "" for none."""
    if pairing is None:
        return ""
    return names_of([pairing])[pairing.pk]


def registrations_pending(*, tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament, status=Registration.Status.PENDING)
        .select_related("player")
        .order_by("created_at", "id")[:200]
    )


def registrations_waiting(*, tournament: Tournament) -> list[Registration]:
    """The waiting list, first to move up first."""
    return list(
        Registration.objects.filter(tournament=tournament, status=Registration.Status.WAITING)
        .select_related("player")
        .order_by("waiting_since", "id")
    )


def start_waiting_list(
    *, tournament: Tournament, entrants: int, absent: int
) -> tuple[list[Registration], list[Registration]]:
    """What the start does to the waiting list: who moves up into the no-shows' places, and who is left out.

    As `tournaments.services.entry.no_shows_drop` does it: the first on the list, while the cap has room.
    """
    waiting = registrations_waiting(tournament=tournament)
    cap = tournament.max_entrants
    room = len(waiting) if cap is None else max(0, cap - (entrants - absent))
    moving = waiting[: min(absent, room)]
    return moving, waiting[len(moving) :]


def registration_of(*, tournament: Tournament, player_id: int | None) -> Registration | None:
    if player_id is None:
        return None
    return Registration.objects.filter(tournament=tournament, player_id=player_id).first()


def entrant_of(*, tournament: Tournament, player_id: int | None) -> Entrant | None:
    if player_id is None:
        return None
    return Entrant.objects.filter(tournament=tournament, player_id=player_id).first()


def tournament_played(*, tournament: Tournament) -> bool:
    """Whether anything of it was played (no undo of the start, no deletion then)."""
    return tournament_has_results(tournament=tournament)
