"""Live tables under load: N tables of two bots playing over real sockets against a running ASGI server.

    python manage.py bench_tables --tables 50 [--url ws://host:port] [--seconds 60] [--reaction-ms MS]

Creates, in the configured database, two players per table, a match between
them and its table (opened through the API, `POST /api/games/{id}/table/`, as
any client would), then plays every table at once with two client bots per
table (`benchmarks.table_bots`: the simulator's bots' choices, over
`websockets`, each with its own socket and token). Without `--url` it starts
Daphne itself (`benchmarks.asgi_server`) on a free port against the same
database. It prints plays per second, the time from a play to the first state
that shows it (p50, p99) next to a ping's round trip on the same sockets
(p50, p99), and whether the goal holds: the referee adds at most 5 ms at p50
(play p50 minus ping p50) and the play's p99 stays under 50 ms. Everything it
built is deleted at the end.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import statistics
import time
import urllib.request
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token

from benchmarks.asgi_server import AsgiServer
from benchmarks.table_bots import SeatStats, play_tables
from benchmarks.workers import production_env
from matches.models import Match, Player
from matches.services import match_create, player_create
from play.models import Table
from replays.models import MatchLog

#: Issue 24's goal at 50 tables: what the referee adds to a round trip at p50, and the play's p99 (ms).
GOAL_ADDED_P50_MS = 5.0
GOAL_P99_MS = 50.0


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Command(BaseCommand):
    help = "N tables of two client bots over real sockets: plays/s, play-to-state and ping p50/p99."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=10)
        parser.add_argument(
            "--url", default="", help="the ASGI server's base, e.g. ws://127.0.0.1:8001 (else Daphne is started)"
        )
        parser.add_argument("--seconds", type=float, default=90.0, help="stop after this long even if games go on")
        parser.add_argument(
            "--reaction-ms", type=int, default=None, help="every bot's reaction (default: the simulator's, 350-1100 ms)"
        )
        parser.add_argument("--ruleset", default="speed")
        parser.add_argument("--seed", type=int, default=7)

    def handle(self, *args: Any, **options: Any) -> None:
        tables = options["tables"]
        if not 1 <= tables <= 500:
            raise CommandError("--tables must be between 1 and 500")
        server = None
        if options["url"]:
            base = options["url"].rstrip("/")
        else:
            server = AsgiServer(settings_module="benchmarks.bench_site", env=production_env({"LOG_LEVEL": "WARNING"}))
            server.start()
            base = server.ws_url
        tag = secrets.token_hex(3)
        try:
            seats = self._build(tables, tag, base, options["ruleset"])
            self.stdout.write(
                f"{tables} tables of 2 client bots ({options['ruleset']}), reaction "
                f"{str(options['reaction_ms']) + ' ms' if options['reaction_ms'] is not None else 'the simulator bots (350-1100 ms)'}"
                f", server {base}{' (Daphne started by this command)' if server else ''}"
            )
            started = time.monotonic()
            stats = asyncio.run(
                play_tables(seats, seconds=options["seconds"], seed=options["seed"], reaction_ms=options["reaction_ms"])
            )
            self._report(stats, time.monotonic() - started, tables)
        finally:
            if server is not None:
                server.stop()
            self._clean(tag)

    def _build(self, tables: int, tag: str, base: str, ruleset: str) -> list[tuple[str, str]]:
        http_base = "http" + base.removeprefix("ws")
        seats = []
        for number in range(tables):
            players = [player_create(handle=f"bench-{tag}-{number}-{seat}", display_name="") for seat in (0, 1)]
            match = match_create(players=[player.handle for player in players], ruleset=ruleset, best_of=1)
            game = match.games.get(number=1)
            tokens = [Token.objects.create(user=player.user).key for player in players]
            request = urllib.request.Request(  # noqa: S310 - our own server's http(s) URL
                f"{http_base}/api/games/{game.pk}/table/",
                method="POST",
                data=b"{}",
                headers={"Authorization": f"Token {tokens[0]}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                table = json.loads(response.read())
            seats += [(base + table["socket"], token) for token in tokens]
        return seats

    def _report(self, stats: list[SeatStats], elapsed: float, tables: int) -> None:
        plays = [ms for seat in stats for ms in seat.play_ms]
        pings = [ms for seat in stats for ms in seat.ping_ms]
        refused: dict[str, int] = {}
        for seat in stats:
            for code, count in seat.refused.items():
                refused[code] = refused.get(code, 0) + count
        over = sum(1 for seat in stats[::2] if seat.status == "over")
        self.stdout.write(
            f"{elapsed:.1f} s; games over {over}/{tables}; plays {len(plays)} ({len(plays) / elapsed:.1f}/s); "
            f"states {sum(seat.states for seat in stats)}; refused {json.dumps(refused, sort_keys=True)}"
        )
        play50, play99 = _percentile(plays, 0.5), _percentile(plays, 0.99)
        ping50, ping99 = _percentile(pings, 0.5), _percentile(pings, 0.99)
        self.stdout.write(f"{'':<22} {'p50':>9} {'p99':>9} {'n':>7}")
        self.stdout.write(f"{'play -> its state':<22} {play50:>7.1f}ms {play99:>7.1f}ms {len(plays):>7}")
        self.stdout.write(f"{'ping -> pong':<22} {ping50:>7.1f}ms {ping99:>7.1f}ms {len(pings):>7}")
        added = play50 - ping50
        met = bool(plays) and added <= GOAL_ADDED_P50_MS and play99 < GOAL_P99_MS
        self.stdout.write(
            f"referee adds {added:.1f} ms at p50 (goal at 50 tables: <= {GOAL_ADDED_P50_MS:.0f} ms, "
            f"and play p99 < {GOAL_P99_MS:.0f} ms): {'met' if met else 'NOT met'}"
            + ("" if tables == 50 else f" (measured at {tables} tables)")
        )
        if not plays:
            self.stdout.write("no play was measured: are the tables playing? (see the server's log)")
        if statistics.mean(len(seat.ping_ms) for seat in stats) == 0:
            self.stdout.write("no ping was answered")

    def _clean(self, tag: str) -> None:
        """Remove what the run built: its tables, their logs, the matches, players and users."""
        prefix = f"bench-{tag}-"
        matches = Match.objects.filter(player_one__handle__startswith=prefix)
        with transaction.atomic():
            Table.objects.filter(game__match__in=matches).delete()
            MatchLog.objects.filter(game__match__in=matches).delete()
            for match in matches:
                match.delete()
            Player.objects.filter(handle__startswith=prefix).delete()
            get_user_model().objects.filter(username__startswith=prefix).delete()
