"""What a tournament's page asks its cache for: the names of its entries and of its parts' HTML.

A page reads its tournament's cache in as few round trips as it can
(`core.cache_reader`): first everything its query parameters name, then only
what turned out otherwise (usually the bracket's default section). These
functions name those entries from the query parameters; they read nothing.
"""

from __future__ import annotations

from django.http import QueryDict

from tournaments.models import Tournament
from tournaments.selectors import STANDINGS_SORTS, standings_page_name
from web.presenters.paging import page_number

#: Standings rows, entrants, and pairings of the rounds shown on one page.
STANDINGS_PER_PAGE = 50
ENTRANTS_PER_PAGE = 50
PAIRINGS_PER_PAGE = 64


def standings_sort(params: QueryDict) -> str:
    sort = params.get("sort", "rank")
    return sort if sort in STANDINGS_SORTS else "rank"


def sliced_offset(params: QueryDict, name: str, per_page: int) -> int:
    """The offset of the page asked for (a page past the end shows no rows; its pager leads back)."""
    return (page_number(params, name) - 1) * per_page


def rounds_number(params: QueryDict, pairings: int | None) -> int | None:
    """The page of rounds asked for, bounded by the count of pairings when known; None: the latest."""
    if not params.get("rounds", ""):
        return None
    number = page_number(params, "rounds")
    return number if pairings is None else min(number, pairings // PAIRINGS_PER_PAGE + 1)


def rounds_name(number: int | None) -> str:
    """The cache name of a page of rounds (`rounds_number`)."""
    return f"rounds:{number or 'latest'}"


def part_names(
    *, section: str, sort: str, standings_page: int, rounds: str, entrants_page: int, checkin_open: bool
) -> dict[str, str]:
    """The cache names of the HTML of the page's heaviest parts (`{% cached_part %}`).

    Each says everything its part shows besides the generation: the section, the
    sort and page of the standings, the page of rounds (its own cache name), the
    page of entrants (and whether check-in marks show).
    """
    return {
        "bracket": f"html:bracket:{section}",
        "standings": f"html:standings:{sort}:{standings_page}",
        "rounds": f"html:{rounds}",
        "entrants": f"html:entrants:{entrants_page}:{int(checkin_open)}",
        "now": "html:now",
    }


def asked_names(tournament: Tournament, params: QueryDict, *, with_lists: bool, final_table: bool) -> list[str]:
    """What the query parameters name, read in the page's first round trip.

    A guess that proves wrong (a page past the end, the default section) costs one
    more read of what it should have been (`settled_names`).
    """
    sort = standings_sort(params)
    wanted = params.get("section", "")
    guess = part_names(
        section=wanted,
        sort=sort,
        standings_page=page_number(params, "page"),
        rounds=rounds_name(rounds_number(params, None)),
        entrants_page=page_number(params, "entrants"),
        checkin_open=tournament.checkin_open,
    )
    first = sliced_offset(params, "page", STANDINGS_PER_PAGE)
    names = ["summary", "bracket-index", standings_page_name(sort=sort, offset=first, limit=STANDINGS_PER_PAGE)]
    names += ["entry"] if with_lists else []  # the entry rules and round times (web.selectors.entry)
    names += [f"bracket:{wanted}", guess["bracket"], f"html:nav:{wanted}"] if wanted else []
    names.append(guess["standings"])
    if with_lists:
        names += ["groups", guess["now"], guess["rounds"], guess["entrants"]]
        names += ["final-table"] if final_table else []
    return [name for name in names if name]


def settled_names(parts: dict[str, str], *, section: str, with_lists: bool) -> list[str]:
    """What the page reads once it knows its section and pages (the reader skips what it already asked for)."""
    names = [f"bracket:{section}", parts["bracket"], parts["nav"]] if section else []
    names += [parts["standings"], *([parts["now"], parts["rounds"], parts["entrants"]] if with_lists else [])]
    return [name for name in names if name]


def settled_parts(
    tournament: Tournament,
    params: QueryDict,
    *,
    section: str,
    sort: str,
    standings_page: int,
    entrants_page: int,
    pairings: int,
) -> dict[str, str]:
    """The parts' names for what the page shows (`part_names`), and its sections' navigation's."""
    parts = part_names(
        section=section,
        sort=sort,
        standings_page=standings_page,
        rounds=rounds_name(rounds_number(params, pairings)),
        entrants_page=entrants_page,
        checkin_open=tournament.checkin_open,
    )
    # The sections' navigation links keep the other query parameters: its HTML is shared when there are none.
    parts["nav"] = f"html:nav:{section}" if section and set(params) <= {"section"} else ""
    return parts
