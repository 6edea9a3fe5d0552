"""Pages of a long list: the page asked for in the query string, and Django's page of it."""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.http import QueryDict


def page_number(params: QueryDict, name: str) -> int:
    """The page `params` asks for under `name` (1 when none or nonsense); it names cached parts too."""
    raw = params.get(name, "")
    return int(raw) if raw.isdigit() and 0 < int(raw) < 10**6 else 1


def page_of(total: int, per_page: int, number: int) -> Page[int]:
    """Page `number` (the last one when past the end) of a list of `total` rows: Django's Paginator over the count
    alone, since the rows are read elsewhere, a page at a time (and often from the cache)."""
    return Paginator(range(total), per_page).get_page(number)
