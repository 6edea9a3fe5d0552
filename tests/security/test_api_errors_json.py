"""Every error under /api/ is JSON in the API's shape, whatever rendered it (`core.api_error_json`);
the schema shows in a browser instead of downloading."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


def _api_error(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"message", "extra"}
    return body


@pytest.mark.parametrize("accept", ["text/html", BROWSER])
@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/matches/99999/", 404),
        ("/api/players/?limit=x", 400),
        ("/api/matches/?status=nonsense", 400),
        ("/api/schema/?format=bogus", 404),
        ("/api/players/?format=bogus", 404),
    ],
)
def test_an_error_asked_for_as_html_is_json(url, status, accept):
    _api_error(Client().get(url, HTTP_ACCEPT=accept), status)


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/", "/api/schema/"])
def test_the_docs_pages_405_is_json_and_says_what_they_take(url):
    response = Client().post(url, HTTP_ACCEPT=BROWSER)
    _api_error(response, 405)
    assert "GET" in response["Allow"]


def test_a_write_refused_in_the_browsable_api_is_json(client_for, organiser):
    response = client_for(organiser).post("/api/matches/", {"players": "x"}, format="json", HTTP_ACCEPT=BROWSER)
    assert "players" in _api_error(response, 400)["extra"]["fields"]


def test_the_site_keeps_its_pages():
    response = Client().get("/no-such-page/", HTTP_ACCEPT=BROWSER)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_the_schema_shows_in_a_browser():
    response = Client().get("/api/schema/", HTTP_ACCEPT=BROWSER)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert not response.get("Content-Disposition", "").startswith("attachment")
    assert response.content.startswith(b"openapi: 3")


@pytest.mark.parametrize(
    ("accept", "content_type"),
    [
        (None, "application/vnd.oai.openapi"),
        ("*/*", "application/vnd.oai.openapi"),
        ("application/json", "application/json"),
        ("application/vnd.oai.openapi+json", "application/vnd.oai.openapi+json"),
        ("application/yaml", "application/yaml"),
    ],
)
def test_tools_still_get_the_schema_they_ask_for(accept, content_type):
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    response = Client().get("/api/schema/", **headers)
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == content_type
