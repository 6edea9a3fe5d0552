"""Browser tests: Playwright for Python driving Debian's headless Chromium against `live_server`.

Every page a test opens is watched for console errors and uncaught
exceptions; a test that saw any fails in teardown. Screenshots go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in the test's thread; Django refuses
# ORM calls from a thread with a running loop unless told this is intended.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from benchmarks.asgi_server import AsgiServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash scripts/browser.sh` (Debian's chromium, no download)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageErrors:
    """Console errors and uncaught exceptions seen by one page."""

    def __init__(self, page: Page) -> None:
        self.messages: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.messages.append(f"pageerror: {exc}"))

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.messages.append(f"console.error: {message.text} ({message.location.get('url', '')})")


@pytest.fixture
def page_errors() -> list[PageErrors]:
    return []


@pytest.fixture
def new_page(browser: Browser, page_errors: list[PageErrors]) -> Iterator[Callable[..., Page]]:
    """Open pages in fresh contexts (phone or desktop size); fail the test if any logged an error."""
    contexts = []

    def make(*, width: int = 1280, height: int = 900, **options: Any) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page_errors.append(PageErrors(page))
        return page

    yield make
    for context in contexts:
        context.close()
    seen = [message for errors in page_errors for message in errors.messages]
    assert not seen, "the page logged errors:\n" + "\n".join(seen)


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    return new_page()


@pytest.fixture
def shot() -> Callable[[Page, str], Path]:
    """Save a full-page screenshot as a test artifact."""

    def save(page: Page, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


@pytest.fixture
def login(live_server: Any) -> Callable[[Page, str, str], None]:
    """Log a page in through the real login form."""

    def do(page: Page, username: str, password: str) -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{live_server.url}/")

    return do


#: The settings of the Daphne the table pages' browser tests start.
TABLE_SERVER_SETTINGS = "tests.web.table_server_settings"


@pytest.fixture
def time_to_sit_down(settings: Any) -> None:
    """Tables a test opens get the spec's time to be readied: a page logs in and loads first."""
    settings.SPEED_TABLE_SETTINGS = {**settings.SPEED_TABLE_SETTINGS, "abandon_ms": 60000}


@pytest.fixture
def asgi_server(transactional_db: None) -> Iterator[AsgiServer]:
    """Daphne with the tests' settings (short stalls and countdown, quick bots) on the test database;
    its own process verifies a table's log in-process (eager tasks), as the tests do."""
    with AsgiServer(settings_module=TABLE_SERVER_SETTINGS) as server:
        yield server
