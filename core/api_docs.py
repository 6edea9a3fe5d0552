"""The schema and its reading views: the schema as a browser shows it; Redoc, our own page with Redoc from
the sidecar's static files, no CDN."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_replace
from django.http import HttpRequest
from django.utils.decorators import method_decorator
from drf_spectacular.renderers import OpenApiYamlRenderer
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response


class PlainYamlRenderer(OpenApiYamlRenderer):
    """The schema's YAML as plain text: what a browser shows instead of downloading."""

    media_type = "text/plain"
    format = "txt"


class SchemaView(SpectacularAPIView):
    """`/api/schema/`: YAML or JSON by the Accept header (or `?format=`), as drf-spectacular serves it;
    but a browser, which asks for HTML first and takes anything after it, gets the YAML as text to read
    (drf-spectacular's `application/vnd.oai.openapi` is a type no browser shows, so it downloads)."""

    renderer_classes = [*SpectacularAPIView.renderer_classes, PlainYamlRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[BaseRenderer, str]:
        asks_html = request.META.get("HTTP_ACCEPT", "").split(",", 1)[0].strip().startswith("text/html")
        if asks_html and not request.query_params.get("format"):
            renderer = PlainYamlRenderer()
            return renderer, renderer.media_type
        return super().perform_content_negotiation(request, force)  # type: ignore[no-any-return]


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
