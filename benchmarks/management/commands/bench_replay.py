"""The size of a long log's replay: the page's HTML and every chunk of steps the viewer fetches.

    python manage.py bench_replay [--events 5000]

Builds a legal log of `--events` events (`benchmarks.long_log`: a simulated
game with one collision repeated), stores and verifies it inside a transaction
that is rolled back (nothing is left behind), then asks the site for the
replay page and the API for every compact chunk, as the viewer does, and
prints their sizes beside the same steps as the engine's full JSON. The goal
(issue 13) for 5,000 events: the page at most 100 KB, the steps at most 300 KB
in all.
"""

from __future__ import annotations

import uuid
from typing import Any

import orjson
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.test import Client

from benchmarks.long_log import long_log
from matches.services import match_create, player_create
from replays.models import MatchLog
from replays.services import log_submit, log_verify
from speedrules import verify_bytes
from web.presenters.replay import CHUNK_STEPS

PAGE_GOAL = 100_000
STEPS_GOAL = 300_000


class _RollBack(Exception):
    """Raised to undo the benchmark's rows."""


class Command(BaseCommand):
    help = "Print the replay page's HTML size and the total bytes of its steps for a long legal log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=5000, help="events in the log (default 5000)")

    def handle(self, *args: Any, **options: Any) -> None:
        events = options["events"]
        label = uuid.uuid4().hex[:6]
        names = (f"bench-{label}-a", f"bench-{label}-b")
        document = long_log(events, players=names)
        data = orjson.dumps(document)
        verdict = verify_bytes(data, steps=True)
        full = len(orjson.dumps([step.to_dict() for step in verdict.steps or ()]))
        figures: dict[str, int] = {}
        try:
            with transaction.atomic():
                figures = self._measure(data, names)
                raise _RollBack
        except _RollBack:
            pass
        page, steps, chunks = figures["page"], figures["steps"], figures["chunks"]
        self.stdout.write(f"log: {events} events, {len(data):,} bytes, verdict {verdict.code.value}")
        self.stdout.write(f"replay page HTML: {page:,} bytes (goal <= {PAGE_GOAL:,}) {_met(page <= PAGE_GOAL)}")
        self.stdout.write(
            f"steps: {steps:,} bytes in {chunks} compact chunks of up to {CHUNK_STEPS} steps, the first in the page "
            f"(goal <= {STEPS_GOAL:,}) {_met(steps <= STEPS_GOAL)}"
        )
        self.stdout.write(f"the same steps as the engine's full JSON: {full:,} bytes")

    def _measure(self, data: bytes, names: tuple[str, str]) -> dict[str, int]:
        one = player_create(handle=names[0], display_name="Bench A", password=None)
        player_create(handle=names[1], display_name="Bench B", password=None)
        match = match_create(players=list(names), ruleset="speed", best_of=1)
        game = match.games.get()
        user = one.user
        log, _ = log_submit(game_id=game.pk, data=data, user=user, enqueue=False)
        log_verify(log_id=log.pk)
        log = MatchLog.objects.get(pk=log.pk)
        client = Client()
        page = client.get(f"/replays/{log.pk}/")
        assert page.status_code == 200, page.status_code
        # What the viewer fetches beyond the page: every chunk after the first, which the page embeds.
        steps = 0
        chunks = 1
        start = CHUNK_STEPS
        while True:
            response = client.get(f"/api/logs/{log.pk}/steps/compact/?from={start}&count={CHUNK_STEPS}")
            assert response.status_code == 200, response.status_code
            part = response.json()
            if not part["rows"]:
                break
            steps += len(response.content)
            chunks += 1
            start += part["count"]
        first = client.get(f"/api/logs/{log.pk}/steps/compact/?from=0&count={CHUNK_STEPS}")
        return {"page": len(page.content), "steps": steps + len(first.content), "chunks": chunks}


def _met(ok: bool) -> str:
    return "met" if ok else "NOT MET"
