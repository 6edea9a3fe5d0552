"""Redoc, the reading view of the API docs: our own page, Redoc from the sidecar's static files, no CDN."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_replace
from django.http import HttpRequest
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView
from rest_framework.response import Response


class RedocView(SpectacularRedocView):
    """The schema in Redoc, under the site's Content-Security-Policy plus the one thing Redoc needs.

    Redoc searches in a web worker that it starts from a `blob:` URL (the worker's
    code is a string inside the bundle). With no `worker-src` the browser checks
    workers against `script-src 'self'` and refuses the blob: the page reports a
    violation and its search finds nothing. `worker-src blob:` allows that worker,
    on this page only: a blob is made by a script already running here (the policy
    still admits only our own), and a worker reaches neither the page nor its DOM.
    """

    template_name = "api/redoc.html"

    @extend_schema(exclude=True)  # as the view it extends: the docs page is not an endpoint of the API
    @method_decorator(csp_replace({"worker-src": "blob:"}))
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
