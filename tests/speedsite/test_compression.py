"""The API's JSON is gzipped for a client that asks; the site's pages (they carry CSRF tokens) never are."""

from __future__ import annotations

import gzip
import urllib.request
from typing import Any

import orjson
import pytest

from tests.factories import load, submit

pytestmark = pytest.mark.django_db(transaction=True)


def fetch(url: str, **headers: str) -> tuple[dict[str, str], bytes]:
    """A real HTTP request; urllib never decompresses, so the body is what the server sent."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
        return {name.lower(): value for name, value in response.headers.items()}, response.read()


@pytest.fixture
def steps_url(live_server: Any, organiser: Any) -> str:
    log = submit(load("valid-speed-1001.json"), user=organiser)
    assert log.status == "verified"
    return f"{live_server.url}/api/logs/{log.pk}/steps/"


def test_api_json_is_gzipped_when_asked_and_plain_otherwise(steps_url: str) -> None:
    zipped_headers, zipped = fetch(steps_url, **{"Accept-Encoding": "gzip"})
    plain_headers, plain = fetch(steps_url)
    assert zipped_headers["content-encoding"] == "gzip"
    assert int(zipped_headers["content-length"]) == len(zipped) < len(plain)
    assert orjson.loads(gzip.decompress(zipped)) == orjson.loads(plain)
    assert orjson.loads(plain)["steps"][0]["event"] is None
    assert "content-encoding" not in plain_headers
    for headers in (zipped_headers, plain_headers):
        assert "Accept-Encoding" in headers["vary"]
        assert headers["content-type"] == "application/json"


def test_html_pages_are_never_gzipped(live_server: Any, steps_url: str) -> None:
    home_headers, home = fetch(f"{live_server.url}/", **{"Accept-Encoding": "gzip"})
    assert "content-encoding" not in home_headers and b"<html" in home
    # DRF's browsable page of the same endpoint is HTML, with a CSRF token in it.
    page_headers, page = fetch(steps_url, **{"Accept-Encoding": "gzip", "Accept": "text/html"})
    assert page_headers["content-type"].startswith("text/html")
    assert "content-encoding" not in page_headers and b"csrfToken" in page
