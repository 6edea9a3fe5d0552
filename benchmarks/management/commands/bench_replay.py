"""A long log's replay: the page, its steps in both of the API's forms (raw and gzipped), and the first frame.

    python manage.py bench_replay [--events 5000] [--runs 7] [--no-browser]

Builds a legal log of `--events` events (`benchmarks.long_log`: a simulated
game with one collision repeated), stores and verifies it, and reads the whole
replay as the viewer does, a chunk of `CHUNK_STEPS` steps at a time, in the
compact form (`/steps/compact/`, what the viewer loads) and in the plain one
(`/steps/`, the engine's step dicts), each raw and gzipped as the API sends
them to a client that asks. Then it opens the replay page `--runs` times in
headless Chromium (/usr/bin/chromium, as the browser tests) and prints the
median time from the start of navigation to the viewer's first frame (the
table of step 0 drawn). The rows are committed (the browser reads them through
a live server) and deleted at the end.
"""

from __future__ import annotations

import gzip
import statistics
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.management.base import BaseCommand, CommandParser
from django.test import Client
from django.test.testcases import LiveServerThread

from benchmarks.long_log import long_log
from matches.models import Player
from matches.services import match_create, player_create
from replays.models import MatchLog
from replays.services import log_submit, log_verify
from web.presenters.replay import CHUNK_STEPS

CHROMIUM = "/usr/bin/chromium"
PAGE_GOAL = 100_000
STEPS_GOAL = 300_000

# Set before any page script runs: the moment the viewer marks itself ready, which it does
# right after drawing its first step.
RECORD_FIRST_FRAME = """
new MutationObserver((records, observer) => {
  const root = document.querySelector('[data-replay]');
  if (root && root.dataset.ready === 'true') {
    window.firstFrame = performance.now();
    observer.disconnect();
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-ready']});
"""


class Command(BaseCommand):
    help = "Print a long log's replay page size, its steps raw and gzipped in both forms, and the first frame time."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=5000, help="events in the log (default 5000)")
        parser.add_argument("--runs", type=int, default=7, help="page loads timed in Chromium (default 7)")
        parser.add_argument("--no-browser", action="store_true", help="skip the first-frame timing")

    def handle(self, *args: Any, **options: Any) -> None:
        events = options["events"]
        label = uuid.uuid4().hex[:6]
        names = (f"bench-{label}-a", f"bench-{label}-b")
        data = orjson.dumps(long_log(events, players=names))
        with _stored_log(data, names) as log:
            client = Client(HTTP_ACCEPT_ENCODING="gzip")
            page = len(client.get(f"/replays/{log.pk}/").content)
            compact = _read_all(client, f"/api/logs/{log.pk}/steps/compact/?from={{start}}&count={CHUNK_STEPS}")
            plain = _read_all(client, f"/api/logs/{log.pk}/steps/?offset={{start}}&limit={CHUNK_STEPS}")
            self.stdout.write(f"log: {events} events, {len(data):,} bytes, {log.status}")
            self.stdout.write(f"replay page HTML: {page:,} bytes (goal <= {PAGE_GOAL:,}) {_met(page <= PAGE_GOAL)}")
            self.stdout.write(
                f"steps in {compact.responses} responses of up to {CHUNK_STEPS} steps, raw / gzip, in bytes:"
            )
            self.stdout.write(
                f"  compact (speed-steps/1): {compact.raw:,} / {compact.gzip:,} "
                f"(goal <= {STEPS_GOAL:,} raw) {_met(compact.raw <= STEPS_GOAL)}"
            )
            self.stdout.write(f"  plain (the engine's steps): {plain.raw:,} / {plain.gzip:,}")
            if not options["no_browser"]:
                times = _first_frames(log.pk, options["runs"])
                self.stdout.write(
                    f"first frame of the replay page in Chromium: median {statistics.median(times):.1f} ms "
                    f"of {len(times)} loads (min {min(times):.1f}, max {max(times):.1f})"
                )


class _Totals:
    def __init__(self) -> None:
        self.raw = 0
        self.gzip = 0
        self.responses = 0


def _read_all(client: Client, url: str) -> _Totals:
    """Every response of the whole replay from `url` (a format string over `start`), as a gzip client gets them."""
    totals = _Totals()
    start = 0
    while True:
        response = client.get(url.format(start=start))
        assert response.status_code == 200, response.status_code
        # The middleware leaves a response under 200 bytes (the empty one past the end) as it is.
        zipped = response.get("Content-Encoding") == "gzip"
        body = gzip.decompress(response.content) if zipped else response.content
        part = orjson.loads(body)
        count = len(part["rows"] if "rows" in part else part["steps"])
        if not count:
            return totals
        totals.raw += len(body)
        totals.gzip += len(response.content)
        totals.responses += 1
        start += count


@contextmanager
def _stored_log(data: bytes, names: tuple[str, str]) -> Iterator[MatchLog]:
    """A verified log of `data` between two new players, committed for the live server, then deleted."""
    one = player_create(handle=names[0], display_name="Bench A", password=None)
    player_create(handle=names[1], display_name="Bench B", password=None)
    match = match_create(players=list(names), ruleset="speed", best_of=1)
    try:
        log, _ = log_submit(game_id=match.games.get().pk, data=data, user=one.user, enqueue=False)
        log_verify(log_id=log.pk)
        yield MatchLog.objects.get(pk=log.pk)
    finally:
        MatchLog.objects.filter(game__match=match).delete()
        match.delete()
        players = Player.objects.filter(handle__in=names)
        get_user_model().objects.filter(player__in=players).delete()
        players.delete()


def _first_frames(log_id: int, runs: int) -> list[float]:
    """Milliseconds from navigation to the viewer's first frame, one per fresh page load (no cache)."""
    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    try:
        # In a thread of its own: Playwright's sync API refuses a thread where an event loop runs
        # (as one does in a caller that drives a browser itself, the browser tests).
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(_time_loads, f"http://127.0.0.1:{server.port}/replays/{log_id}/", runs).result()
    finally:
        server.terminate()


def _time_loads(url: str, runs: int) -> list[float]:
    from playwright.sync_api import sync_playwright  # a development dependency, as the benchmarks are

    times: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for run in range(runs + 1):
            context = browser.new_context()
            page = context.new_page()
            page.add_init_script(RECORD_FIRST_FRAME)
            page.goto(url)
            page.wait_for_function("window.firstFrame !== undefined")
            if run:  # the first load warms the server and the browser
                times.append(float(page.evaluate("window.firstFrame")))
            context.close()
        browser.close()
    return times


def _met(ok: bool) -> str:
    return "met" if ok else "NOT MET"
