"""Walk every page of a seeded demo, as a visitor, the organiser and a player; print what did not answer.

Run by `test_demo_sqlite_pages.py` in `manage.py shell` on the demo's SQLite database
(the rest of the suite runs on PostgreSQL). Starting at the home page it follows
every link a page holds and every URL its scripts fetch (the live poll, the
replay's steps, a log's status), so a page or query that only SQLite refuses
shows up here. Prints one JSON object: pages visited per visitor and the failures.
"""

from __future__ import annotations

import html
import json
import re
from collections import deque

from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import setup_test_environment

from matches.models import Match, Player
from replays.models import MatchLog, SolitaireRun
from tournaments.models import Tournament

# Links and what the pages' scripts fetch: `href`, `data-live-url`, `data-url`, `data-api-url`.
URL_ATTRIBUTE = re.compile(r'(?:href|data-[a-z-]*url)="(/[^"#]*)')
SKIP = ("/static/", "/admin/", "/accounts/logout/", "/api/schema/", "/api/docs/")
# A bound on the walk: the demo has a few hundred pages; more means a link that multiplies.
MOST_PAGES = 4000


def _fetched_as(url: str) -> str:
    """The replay viewer asks its steps URL for a chunk; every other URL is fetched as it is."""
    if url.endswith("/steps/compact/"):
        return url + "?from=0&count=50"
    return url


def every_record_page() -> set[str]:
    """The page of every tournament, match, player, log and solitaire run in the database: the walk must reach each."""
    pages = {f"/tournaments/{pk}/" for pk in Tournament.objects.values_list("pk", flat=True)}
    pages |= {f"/live/?tournament={pk}" for pk in Tournament.objects.values_list("pk", flat=True)}
    pages |= {f"/matches/{pk}/" for pk in Match.objects.values_list("pk", flat=True)}
    pages |= {f"/live/?match={pk}" for pk in Match.objects.values_list("pk", flat=True)}
    pages |= {f"/players/{handle}/" for handle in Player.objects.values_list("handle", flat=True)}
    pages |= {f"/replays/{pk}/" for pk in MatchLog.objects.values_list("pk", flat=True)}
    pages |= {f"/solitaire/{pk}/replay/" for pk in SolitaireRun.objects.values_list("pk", flat=True)}
    return pages


def start_pages() -> list[str]:
    """The home page, and the solitaire leaderboard with each player's bests, which no page links to."""
    players = Player.objects.order_by("handle").values_list("handle", flat=True)
    return ["/", "/solitaire/", *(f"/solitaire/?player={handle}" for handle in players)]


def walk(client: Client) -> tuple[set[str], list[str]]:
    start = start_pages()
    seen: set[str] = set(start)
    queue = deque(start)
    failures: list[str] = []
    while queue and len(seen) <= MOST_PAGES:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code >= 400 and response.status_code != 404:
            failures.append(f"{url} answered {response.status_code}")
            continue
        if response.status_code == 404:
            failures.append(f"{url} answered 404 (a broken link)")
            continue
        if "html" not in response.get("Content-Type", ""):
            continue
        for match in URL_ATTRIBUTE.finditer(response.content.decode()):
            found = _fetched_as(html.unescape(match.group(1)))
            if found not in seen and not found.startswith(SKIP):
                seen.add(found)
                queue.append(found)
    if queue:
        failures.append(f"more than {MOST_PAGES} pages: the walk stopped")
    return seen, failures


def main() -> None:
    setup_test_environment()
    users = get_user_model().objects
    visitors = {"visitor": None, "organiser": users.get(username="admin"), "player": users.get(username="alice")}
    report: dict[str, object] = {}
    reached: set[str] = set()
    for name, user in visitors.items():
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        pages, failures = walk(client)
        reached |= pages
        report[name] = {"pages": len(pages), "failures": failures}
    report["unreached"] = sorted(every_record_page() - reached)
    print(json.dumps(report))
