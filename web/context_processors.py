"""What every page's template is handed besides its view's context."""

from __future__ import annotations

from django.http import HttpRequest

from web.selectors.navigation import Navigation


def navigation(request: HttpRequest) -> dict[str, Navigation]:
    """`nav`: the navigation's links and counts for the request's user, read only if the page shows them."""
    return {"nav": Navigation(getattr(request, "user", None))}
