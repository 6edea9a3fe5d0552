"""What a tournament's page shows, a bounded part at a time, whatever the tournament's size.

A big bracket is drawn a section at a time (`web.drawing.bracket.bracket_sections`), the
standings and the entrants a page at a time, the rounds a page of pairings at a
time, and the lists of matches underway or up next only their first few. What
is the same for every visitor (the summary counts, each bracket section's
drawing, the standings table, the lists) is cached under the tournament's
generation (`tournaments.cache`), which every change to the tournament replaces.
Each part costs a fixed number of queries, so a page does too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page
from django.db.models import Case, Count, F, Min, Q, Value, When, Window
from django.db.models.functions import RowNumber
from django.http import QueryDict
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from matches.services import ruleset_resolve
from play.selectors import LiveTables, live_tables
from tournaments.cache import TournamentCache
from tournaments.formats import format_for
from tournaments.formats.base import TournamentFormat
from tournaments.formats.elimination import BracketFormat
from tournaments.formats.options import TableSeatOptions
from tournaments.generators import Bracket
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.selectors import (
    STANDINGS_SORTS,
    GroupView,
    RoundPairings,
    StandingsSlice,
    entrant_list,
    pairing_list,
    pairing_rounds,
    standings_page_name,
    tournament_groups,
    tournament_standings_slice,
)
from tournaments.standings import metric_for
from web.drawing.bracket import BracketDrawing, BracketSection, bracket_sections
from web.presenters.brackets import (  # SectionLink: an index cached before it moved names it here
    BracketIndex,
    SectionLink,  # noqa: F401
    bracket_index_of,
    featured_section,
    section_drawing,
)
from web.presenters.names import SectionShape, pairing_name, pairing_names
from web.presenters.paging import page_number, page_of
from web.selectors.tournament_cache_names import (
    ENTRANTS_PER_PAGE,
    PAIRINGS_PER_PAGE,
    STANDINGS_PER_PAGE,
    asked_names,
    rounds_name,
    rounds_number,
    settled_names,
    settled_parts,
    sliced_offset,
    standings_sort,
)

#: Rounds with at most this many pairings in all are listed whole, on one page.
ROUNDS_WHOLE = 128
#: Matches listed as underway, and as up next; the page says how many more there are.
LIST_LIMIT = 12
#: Live tables listed "At the tables now" (the newest); the page says how many more there are.
TABLES_SHOWN = 20


# --- What a page loads once ---------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """A tournament's pairings counted by section and round (one grouped query)."""

    rounds: dict[tuple[str, int], dict[str, Any]]  # (section, round) -> counts, and a ready pairing's key

    def _sum(self, name: str) -> int:
        return sum(row[name] for row in self.rounds.values())

    @property
    def total(self) -> int:
        return self._sum("total")

    @property
    def decided(self) -> int:
        return self._sum("decided")

    @property
    def ready(self) -> int:
        return self._sum("ready")

    @property
    def underway(self) -> int:
        return self._sum("underway")

    def shapes(self) -> dict[tuple[int, str], SectionShape]:
        """What pairing names need: each section's last round and its rounds' sizes (byes left out)."""
        sizes: dict[str, dict[int, int]] = {}
        for (section, number), row in self.rounds.items():
            sizes.setdefault(section, {})[number] = row["matches"]
        return {(0, section): SectionShape(max(rounds), rounds) for section, rounds in sizes.items()}


class PageLoader:
    """Loads what several parts of a tournament's page need at most once per request, and only on a cache miss."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        #: This request's reader of the tournament's cache (one generation, entries fetched together).
        self.cache = TournamentCache(tournament.pk)
        self._entrants: list[Entrant] | None = None
        self._pairings: list[TournamentMatch] | None = None

    def entrants(self) -> list[Entrant]:
        """The entrants with their players, by seed (one query, the first time)."""
        if self._entrants is None:
            self._entrants = entrant_list(tournament=self.tournament)
        return self._entrants

    def pairings(self) -> list[TournamentMatch]:
        """Every pairing with its players (one query, the first time): only a format played in groups needs them."""
        if self._pairings is None:
            self._pairings = list(pairing_list(tournament=self.tournament))
        return self._pairings

    def summary(self) -> Summary:
        """The counts (cached; one query on a miss)."""
        return self.cache.get("summary", self._summary)

    def _summary(self) -> Summary:
        status = TournamentMatch.Status
        rows = (
            TournamentMatch.objects.filter(tournament=self.tournament)
            .values("bracket", "round")
            .annotate(
                total=Count("id"),
                matches=Count("id", filter=~Q(status=status.BYE)),
                decided=Count("id", filter=Q(status=status.DECIDED)),
                ready=Count("id", filter=Q(status=status.READY)),
                underway=Count("id", filter=Q(status=status.READY, underway_at__isnull=False)),
                ready_key=Min("key", filter=Q(status=status.READY)),
            )
            .order_by()
        )
        rounds = {(row.pop("bracket"), row.pop("round")): row for row in rows}
        return Summary(rounds)


def _lists(tournament: Tournament, summary: Summary) -> dict[str, Any]:
    ready = pairing_list(tournament=tournament).filter(status=TournamentMatch.Status.READY)
    # The first few underway (longest first) and the first few waiting, in one query.
    rows = list(
        ready.annotate(
            waiting=Case(When(underway_at__isnull=True, then=Value(1)), default=Value(0)),
            nth=Window(RowNumber(), partition_by=[F("waiting")], order_by=[F("underway_at").asc(), F("id").asc()]),
        )
        .filter(nth__lte=LIST_LIMIT)
        .order_by("waiting", "underway_at", "id")
    )
    shapes = summary.shapes()
    names = {p.key: pairing_name(p, shapes.get((0, p.bracket))) for p in rows}
    return {
        "underway": [p for p in rows if p.underway_at is not None],
        "up_next": [p for p in rows if p.underway_at is None],
        "names": names,
    }


def tournament_lists(loader: PageLoader) -> dict[str, Any]:
    """The first matches underway and up next, with their names (one query, cached)."""
    return loader.cache.get("lists", lambda: _lists(loader.tournament, loader.summary()))


# --- Bracket ------------------------------------------------------------------------


def _bracket_and_sections(loader: PageLoader) -> tuple[Bracket, list[BracketSection]] | None:
    tournament = loader.tournament
    fmt = format_for(tournament.format)
    if type(fmt).page_bracket is TournamentFormat.page_bracket:
        return None  # the format draws no bracket: nothing to load
    # A bracket format's bracket comes from the seeds alone; a playoff after groups, from the group results.
    pairings = [] if isinstance(fmt, BracketFormat) else loader.pairings()
    bracket = fmt.page_bracket(tournament, loader.entrants(), pairings)
    if bracket is None:
        return None
    return bracket, bracket_sections(bracket)


def _bracket_index(loader: PageLoader) -> BracketIndex | None:
    found = _bracket_and_sections(loader)
    if found is None:
        return None
    bracket, sections = found
    if len(sections) == 1:  # no need of the counts
        return bracket_index_of(bracket, sections, set())
    ready = {row["ready_key"] for row in loader.summary().rounds.values() if row["ready_key"]}
    return bracket_index_of(bracket, sections, ready)


def bracket_index(loader: PageLoader) -> BracketIndex | None:
    """How the tournament's bracket is split into sections, and which to show first (cached)."""
    return loader.cache.get("bracket-index", lambda: _bracket_index(loader))


def _match_url(match_id: int) -> str:
    return reverse("web:match_detail", args=[match_id])


def _section_drawing(loader: PageLoader, section_id: str) -> BracketDrawing | None:
    found = _bracket_and_sections(loader)
    if found is None:
        return None
    bracket, sections = found
    section = next((item for item in sections if item.id == section_id), None)
    if section is None:
        return None
    entrants = loader.entrants()
    pairings = list(pairing_list(tournament=loader.tournament).filter(key__in=section.keys))
    return section_drawing(bracket, section, entrants=entrants, pairings=pairings, url_for_match=_match_url)


def bracket_section(loader: PageLoader, section_id: str) -> BracketDrawing | None:
    """One section of the bracket drawn (cached per section; on a miss, the pairings of that section alone)."""
    return loader.cache.get(f"bracket:{section_id}", lambda: _section_drawing(loader, section_id))


# --- Rounds -------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundsPage:
    rounds: list[RoundPairings]
    names: dict[str, str]
    pager: Page[int]
    jumps: list[tuple[int, int]]  # each round and the page it starts on
    continued: bool  # the page starts inside a round begun on the page before


def _rounds_page(loader: PageLoader, number: int | None) -> RoundsPage | None:
    tournament = loader.tournament
    fmt = format_for(tournament.format)
    if not fmt.section or not fmt.round_pairings([TournamentMatch(bracket=fmt.section)]):
        return None  # no round pairings, or the format lists none (groups list theirs under each group)
    sizes = sorted(
        (number, row["total"]) for (section, number), row in loader.summary().rounds.items() if section == fmt.section
    )
    total = sum(size for _, size in sizes)
    if not total:
        return None
    per_page = total if total <= ROUNDS_WHOLE else PAIRINGS_PER_PAGE
    starts: list[tuple[int, int]] = []  # each round and the page it starts on
    seen = 0
    for round_number, size in sizes:
        starts.append((round_number, seen // per_page + 1))
        seen += size
    if number is None:  # the latest round
        number = starts[-1][1]
    page = page_of(total, per_page, number)
    offset = page.start_index() - 1
    rows = fmt.round_pairings(
        pairing_list(tournament=tournament, bracket=fmt.section).order_by("round", "position", "id")[
            offset : offset + per_page
        ]
    )
    if not rows:
        return None
    jumps = starts
    before = sum(size for round_number, size in sizes if round_number < rows[0].round)
    return RoundsPage(pairing_rounds(rows), pairing_names(rows), page, jumps, offset > before)


def rounds_page(loader: PageLoader, params: QueryDict, *, pairings: int) -> RoundsPage | None:
    """A page of the format's rounds (all of them when few); by default the page where the latest round starts.

    `pairings` (the tournament's count) bounds the page number, and so what a visitor can make the cache hold.
    """
    number = rounds_number(params, pairings)
    return loader.cache.get(rounds_name(number), lambda: _rounds_page(loader, number))


# --- The whole page -----------------------------------------------------------------


def tournament_page_context(tournament: Tournament, params: QueryDict, *, with_lists: bool = True) -> dict[str, Any]:
    """Everything a tournament's page (or its embed) shows, for these query parameters; a fixed number of queries.

    On a warm cache: no query (the page of entrants is read only when its HTML is
    not cached), and three round trips to the cache: the generation, the entries
    the query parameters name (data and parts' HTML, together), and the default
    bracket section once the bracket's index says which it is. On a cold one, a
    few more queries, whatever the size.
    """
    fmt = format_for(tournament.format)
    loader = PageLoader(tournament)
    loader.cache.prefetch(asked_names(tournament, params, with_lists=with_lists, final_table=bool(fmt.final_key)))
    summary = loader.summary()
    sliced = _standings_slice(loader, params)
    standings_pager = page_of(sliced.total, STANDINGS_PER_PAGE, page_number(params, "page"))
    entrants_pager = page_of(sliced.total, ENTRANTS_PER_PAGE, page_number(params, "entrants"))
    index = bracket_index(loader)
    section_id = ""
    if index is not None:
        wanted = params.get("section", "")
        section_id = wanted if any(link.id == wanted for link in index.sections) else index.default
    parts = settled_parts(
        tournament,
        params,
        section=section_id,
        sort=sliced.sort,
        standings_page=standings_pager.number,
        entrants_page=entrants_pager.number,
        pairings=summary.total,
    )
    # Only what the first round trip did not ask for: usually the default section.
    loader.cache.prefetch(settled_names(parts, section=section_id, with_lists=with_lists))
    context: dict[str, Any] = {
        "tournament": tournament,
        # The templates cache their heaviest parts' HTML ({% cached_part %}) under these names, as the data is.
        "page_cache": loader.cache,
        "parts": parts,
        **_counts_context(tournament, fmt, summary, sliced.total),
        "sorts": list(STANDINGS_SORTS),
        "standings_pager": standings_pager,
        "sort": sliced.sort,
        **_standings_context(sliced),
        **_bracket_context(loader, index, section_id),
    }
    if with_lists:
        context |= _lists_context(loader, params, summary, entrants_pager)
        context["live_tables"] = tables_now(tournament)
    return context


def tables_now(tournament: Tournament) -> LiveTables:
    """The tournament's live tables, with their players and cards left: read afresh on every visit, since a
    table's play changes no tournament generation (one bounded query while it runs, none otherwise)."""
    if tournament.status != Tournament.Status.RUNNING:
        return LiveTables([], 0)
    return live_tables(limit=TABLES_SHOWN, tournament_id=tournament.pk)


def _standings_slice(loader: PageLoader, params: QueryDict) -> StandingsSlice:
    """The page of standings asked for, in the order asked for; past the end, the last page."""
    first = sliced_offset(params, "page", STANDINGS_PER_PAGE)
    sort = standings_sort(params)

    def page_from(offset: int) -> StandingsSlice:
        return tournament_standings_slice(
            tournament=loader.tournament,
            offset=offset,
            limit=STANDINGS_PER_PAGE,
            sort=sort,
            entrants=loader.entrants,
            page_cache=loader.cache,
        )

    sliced = page_from(first)
    if sliced.total and first >= sliced.total:
        sliced = page_from((sliced.total - 1) // STANDINGS_PER_PAGE * STANDINGS_PER_PAGE)
    return sliced


def _counts_context(tournament: Tournament, fmt: TournamentFormat, summary: Summary, entrants: int) -> dict[str, Any]:
    return {
        "summary": summary,
        "entrant_count": entrants,
        "decided": summary.decided,
        # Before any game is decided the table's numbers mean nothing yet: the page shows an en dash.
        "played": summary.decided > 0,
        "round_noun": fmt.round_noun,
        "rounds_title": fmt.rounds_title,
        # A tables event draws each table's seats; a timed one shows cards in time too.
        "tables": bool(fmt.table_sizes(tournament)),
        "timed": tournament.time_limit_ms is not None,
        "table_rulesets": table_rulesets(tournament, fmt.table_sizes(tournament)),
    }


def _standings_context(sliced: StandingsSlice) -> dict[str, Any]:
    return {
        "standings": sliced.standings,
        "seeds": sliced.seeds,
        "columns": [(key, metric_for(key).label) for key in sliced.standings.tie_breaks],
    }


def _bracket_context(loader: PageLoader, index: BracketIndex | None, section_id: str) -> dict[str, Any]:
    """The bracket, a section at a time."""
    return {
        "drawing": bracket_section(loader, section_id) if index is not None else None,
        "bracket_index": index,
        "section": section_id,
        "section_title": next((link.title for link in index.sections if link.id == section_id), "") if index else "",
        # Where the section's winner plays on (the template links it, and each section, with `{% querystring %}`).
        "section_onward": index.onward.get(section_id) if index else None,
    }


def _lists_context(
    loader: PageLoader, params: QueryDict, summary: Summary, entrants_pager: Page[Any]
) -> dict[str, Any]:
    """The groups, the final table, the lists of matches, the page of rounds and the page of entrants."""
    tournament = loader.tournament
    # The groups of a format played in groups (every group's table; cached whole).
    groups = loader.cache.get("groups", lambda: _groups(loader))
    # The lists of matches and the page of rounds are drawn inside parts whose HTML is cached
    # ({% cached_part %}): loaded (and unpickled: model instances) only when their part is not.
    rounds: Any = SimpleLazyObject(lambda: rounds_page(loader, params, pairings=summary.total))
    lists: Any = SimpleLazyObject(lambda: tournament_lists(loader))
    start = max(entrants_pager.start_index() - 1, 0)
    return {
        "groups": groups,
        "final_table": final_table(loader) if format_for(tournament.format).final_key else None,
        "rounds": SimpleLazyObject(lambda: rounds.rounds if rounds else []),
        "rounds_page": rounds,
        "names": SimpleLazyObject(lambda: (rounds.names if rounds else {}) | lists["names"]),
        "underway": SimpleLazyObject(lambda: lists["underway"]),
        "up_next": SimpleLazyObject(lambda: lists["up_next"]),
        "underway_more": SimpleLazyObject(lambda: summary.underway - len(lists["underway"])),
        "up_next_more": SimpleLazyObject(lambda: summary.ready - summary.underway - len(lists["up_next"])),
        # Not read here: the template reads the page of entrants only when its HTML is not cached.
        "entrants": Entrant.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("seed")[start : start + ENTRANTS_PER_PAGE],
        "entrants_pager": entrants_pager,
    }


def final_table(loader: PageLoader) -> TournamentMatch | None:
    """The format's featured pairing (a tables event's final table) with its seats, once drawn (cached)."""
    key = format_for(loader.tournament.format).final_key

    def load() -> TournamentMatch | None:
        return pairing_list(tournament=loader.tournament).filter(key=key).first()

    return loader.cache.get("final-table", load)


def table_rulesets(tournament: Tournament, sizes: tuple[int, ...] = (3, 4)) -> str:
    """What an event plays at its tables of three and four, in words ("three-way at 3, four-way at 4")."""
    names = []
    seating = TableSeatOptions.of(tournament)
    for ruleset, seats in ((seating.ruleset_three, 3), (seating.ruleset_four, 4)):
        if seats not in sizes:
            continue
        name = ruleset_resolve(ruleset, seats=seats)[1] if ruleset else ""
        names.append(f"{name or 'custom'} at {seats}")
    return ", ".join(names)


def _groups(loader: PageLoader) -> list[GroupView]:
    tournament = loader.tournament
    if type(format_for(tournament.format)).groups is TournamentFormat.groups:
        return []  # the format is not played in groups: nothing to load
    return tournament_groups(tournament=tournament, entrants=loader.entrants(), pairings=loader.pairings())


#: Standings rows the home page shows of a featured tournament.
FEATURED_ROWS = 8
#: The cache name of their HTML.
FEATURED_STANDINGS_PART = "html:featured-standings"
#: And of its bracket's section.
FEATURED_BRACKET_PART = "html:featured-bracket"


def tournament_featured_context(tournament: Tournament) -> dict[str, Any]:
    """A featured tournament on the home page: its counts, the top of its table, and the bracket's last section.

    Bounded whatever the tournament's size: a bracket small enough is drawn
    whole, a larger one only its final section (the page links on to the rest).
    """
    loader = PageLoader(tournament)
    reader = loader.cache
    standings_name = standings_page_name(sort="rank", offset=0, limit=FEATURED_ROWS)
    names = ("summary", "featured-section", standings_name, FEATURED_STANDINGS_PART, FEATURED_BRACKET_PART)
    reader.prefetch(name for name in names if name)
    summary = loader.summary()
    sliced = tournament_standings_slice(
        tournament=tournament, limit=FEATURED_ROWS, entrants=loader.entrants, page_cache=reader
    )
    # Which section to draw, cached on its own: the bracket's index lists hundreds of sections in a big one.
    featured = reader.get("featured-section", lambda: featured_section(bracket_index(loader)))
    top, whole = featured or ("", True)
    # Drawn (and its drawing read) only when the part's HTML is not cached.
    drawing: Any = SimpleLazyObject(lambda: bracket_section(loader, top)) if featured else None
    return {
        "tournament": tournament,
        "page_cache": reader,
        "bracket_part": FEATURED_BRACKET_PART if featured else "",
        "standings_part": FEATURED_STANDINGS_PART,
        "summary": summary,
        "entrant_count": sliced.total,
        "decided": summary.decided,
        "played": summary.decided > 0,
        "standings": sliced.standings,
        "standings_more": max(0, sliced.total - FEATURED_ROWS),
        "seeds": sliced.seeds,
        "columns": [(key, metric_for(key).label) for key in sliced.standings.tie_breaks],
        "drawing": drawing,
        "drawing_part": None if featured is None or whole else top,
    }
