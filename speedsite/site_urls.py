"""Placeholder home page until the site issue lands."""

from django.http import HttpRequest, HttpResponse
from django.urls import path


def home(request: HttpRequest) -> HttpResponse:
    return HttpResponse(
        "<!doctype html><title>Speed</title><h1>Speed</h1><p>Tournaments and verified replays.</p>"
    )


urlpatterns = [path("", home, name="home")]
