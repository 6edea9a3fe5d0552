"""The Content-Security-Policy, in a real browser: every main page and the API docs run under it.

The policy (settings.CONTENT_SECURITY_POLICY, sent by django-csp) allows scripts only from our own
static files. A header test cannot tell whether a page still works under it, nor
whether a page reaches for another host (a CDN, Swagger's validator badge): Chromium
enforces the policy, reports each violation as a `securitypolicyviolation` event
(and a console error, which fails the test through the `new_page` fixture), and
every request the page makes is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Request, expect

from tests.factories import PASSWORD, load, make_tournament, player, submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before any page script: the policy's own report of what it blocked.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} `
    + `(${event.sourceFile || ""}:${event.lineNumber})`);
});
"""


@pytest.fixture
def site(organiser: Any) -> dict[str, Any]:
    verified = submit(load("valid-speed-1001.json"), user=organiser)
    players = [player(handle) for handle in ("alice", "ben", "chloe", "dev")]
    cup = make_tournament(organiser, players, format="single_elimination", name="Policy Cup", best_of=3)
    return {"verified": verified, "cup": cup}


def _visit(page: Page, url: str) -> None:
    """Load `url` until the network is idle, under the site's policy."""
    response = page.goto(url, wait_until="networkidle")
    assert response is not None and response.status == 200, url
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy, url


def _violations(page: Page) -> list[str]:
    """What the policy blocked on the page so far."""
    violations: list[str] = page.evaluate("window.__cspViolations")
    return violations


def test_every_main_page_and_the_api_docs_run_under_the_policy_and_stay_on_the_site(
    new_page: Callable[..., Page],
    live_server: Any,
    site: dict[str, Any],
    login: Callable[[Page, str, str], None],
) -> None:
    page = new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    requests: list[str] = []

    def record(request: Request) -> None:
        requests.append(request.url)

    page.on("request", record)
    origin = urlsplit(live_server.url).netloc
    paths = [
        "/",
        "/tournaments/",
        f"/tournaments/{site['cup'].pk}/",
        "/players/",
        "/players/alice/",
        f"/matches/{site['verified'].game.match_id}/",
        f"/replays/{site['verified'].pk}/#step=30",
        f"/logs/{site['verified'].pk}/",
        "/accounts/login/",
        "/api/docs/",
        "/api/redoc/",
    ]
    violations: dict[str, list[str]] = {}
    for path in paths:
        _visit(page, f"{live_server.url}{path}")
        if path == "/api/docs/":
            # Swagger UI's scripts ran (from our static files) and drew the operations.
            expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
        if path == "/api/redoc/":
            # Redoc read the schema and drew an operation; the sidebar's credit to Redocly
            # is there without its logo (which Redoc would fetch from Redocly's CDN).
            expect(page.locator("#redoc-container h2", has_text="token_create")).to_be_visible()
            expect(page.get_by_text("API docs by Redocly")).to_be_visible()
            expect(page.locator("#redoc-container img")).to_have_count(0)
        seen = _violations(page)
        if seen:
            violations[path] = seen
    # The signed-in forms too, whose fields the page's script shows and hides.
    login(page, "orga", PASSWORD)
    for path in ("/matches/new/", "/organise/tournaments/new/", "/me/"):
        _visit(page, f"{live_server.url}{path}")
        if path == "/matches/new/":
            page.get_by_label("Ruleset").select_option("four-way")
            expect(page.get_by_label("Points per place")).to_be_visible()
        seen = _violations(page)
        if seen:
            violations[path] = seen
    assert violations == {}
    elsewhere = [
        url for url in requests if urlsplit(url).scheme not in {"data", "blob"} and urlsplit(url).netloc != origin
    ]
    assert elsewhere == []
    # The pages loaded their scripts: the check above saw real traffic, not an empty list.
    assert any(urlsplit(url).path.endswith(".js") for url in requests)


def test_redoc_searches_through_its_worker_under_the_policy(new_page: Callable[..., Page], live_server: Any) -> None:
    page = new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    _visit(page, f"{live_server.url}/api/redoc/")
    # Redoc indexes and searches in a web worker started from a blob: (worker-src blob:).
    page.get_by_placeholder("Search...").fill("token")
    # The worker indexes the whole schema first: on a loaded machine that outlasts expect's 5 s.
    results = page.locator("[data-role='search:results']")
    expect(results.get_by_text("token_create")).to_be_visible(timeout=20_000)
    assert _violations(page) == []
