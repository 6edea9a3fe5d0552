"""The site's addresses plus a bare view, for `bench_pages`.

The bare view answers a few bytes without touching the database or a template:
what a request costs on this server before any page does any work.
"""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("speedsite.urls")),
]
