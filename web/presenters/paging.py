"""Pages of a long list: the page asked for in the query string, and Django's page of it."""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.http import QueryDict

from core.numbers import NumberError, whole_number

#: Beyond any list here; a page past the end shows the last one.
PAGE_MAX = 10**6 - 1


def page_number(params: QueryDict, name: str) -> int:
    """The page `params` asks for under `name`; it names cached parts too.

    1 when none or nonsense (`?page=²`, `?page=0`, too large), as Django's `Paginator.get_page` treats a page
    link it cannot read: a page number is a link's, not a person's input, and a stale link still shows a page."""
    try:
        return whole_number(params.get(name, ""), low=1, high=PAGE_MAX)
    except NumberError:
        return 1


def page_of(total: int, per_page: int, number: int) -> Page[int]:
    """Page `number` (the last one when past the end) of a list of `total` rows: Django's Paginator over the count
    alone, since the rows are read elsewhere, a page at a time (and often from the cache)."""
    return Paginator(range(total), per_page).get_page(number)
