"""Each page's median answer time and size with big tournaments, through a real server, next to a bare view.

    python manage.py bench_pages [--entrants 1024] [--requests 200] [--clients 4] [--workers 2]

Builds, in the configured database, a single elimination of N entrants with its
first round decided and a 10-round Swiss after 3 rounds (both started through
`tournament_start`, which is timed; the results are written in bulk, as a
verified log would leave them, and the tournament advanced through its format),
then vacuums and analyses the tables it filled, as autovacuum would.
Then it starts gunicorn (`--workers`, DEBUG=0, plain HTTP, on 127.0.0.1 and a
free port) with the site's settings plus a bare view, and sends each page
`--requests` requests from `--clients` concurrent clients (keep-alive). It prints
the first answer (a cold cache) and the p50 of the rest, and the HTML size.
The cache is Redis when CACHE_URL is set (as with several workers it must be),
else the Redis at 127.0.0.1:6379/7 if one answers, else each worker's memory.
Everything it built is deleted at the end.
"""

from __future__ import annotations

import http.client
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache.backends.redis import RedisCache
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from benchmarks.database import vacuum_analyze
from benchmarks.workers import current_database_url, production_env
from core.site_cache import GENERATION_KEY
from matches.models import Game, Match, Player
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.services import tournament_create, tournament_start
from tournaments.services.common import tournament_lock
from tournaments.services.pairings import pairings_advance
from web.selectors.tournament_page import PageLoader, bracket_index

BUDGET = {1024: (50.0, 250_000), 4096: (150.0, 250_000)}
#: Issue 13's goal for starting a tournament (with 4,096 entrants; smaller fields are held to it too).
START_GOAL_MS = 2000.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _redis_answers(url: str) -> bool:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except Exception:
        return False
    return True


class Command(BaseCommand):
    help = "Pages' p50 and size with big tournaments, through gunicorn, next to a bare view."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--entrants", type=int, default=1024)
        parser.add_argument("--requests", type=int, default=200, help="requests per page (after the first)")
        parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
        parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
        parser.add_argument("--seed", type=int, default=7)

    def handle(self, *args: Any, **options: Any) -> None:
        entrants = options["entrants"]
        label = f"bp{secrets.token_hex(3)}"
        rng = random.Random(options["seed"])
        organiser = get_user_model().objects.create_superuser(f"{label}-orga", password=secrets.token_urlsafe(16))
        built: list[Tournament] = []
        try:
            players = Player.objects.bulk_create(
                Player(handle=f"{label}-{n:05d}", display_name=f"Bench player {n}") for n in range(1, entrants + 1)
            )
            rng.shuffle(players)  # handles in another order than seeds: a name sort is not a seed sort
            swiss, started_swiss = self._build(organiser, players, "swiss", label, options={"swiss_rounds": 10})
            built.append(swiss)
            for _ in range(3):
                self._decide_round(swiss, rng)
            elimination, started_se = self._build(organiser, players, "single_elimination", label)
            built.append(elimination)
            self._decide_round(elimination, rng)
            slowest = max(started_se, started_swiss) * 1000
            self.stdout.write(
                f"Built {entrants} entrants: tournament_start took {started_se * 1000:.0f} ms (single elimination), "
                f"{started_swiss * 1000:.0f} ms (Swiss); goal <= {START_GOAL_MS:.0f} ms: "
                f"{'met' if slowest <= START_GOAL_MS else 'NOT met'}"
            )
            vacuum_analyze((Player, Match, Game, Entrant, TournamentMatch, Tournament))
            self._serve_and_measure(options, elimination, swiss)
        finally:
            self._clean(built, label, organiser)

    # --- Building --------------------------------------------------------------------

    def _build(
        self, organiser: Any, players: list[Player], fmt: str, label: str, **options: Any
    ) -> tuple[Tournament, float]:
        tournament = tournament_create(
            name=f"{label} {fmt.replace('_', ' ')}", format=fmt, user=organiser, best_of=3, **options
        )
        Entrant.objects.bulk_create(
            Entrant(tournament=tournament, player=player, seed=seed) for seed, player in enumerate(players, start=1)
        )
        started = time.perf_counter()
        tournament = tournament_start(tournament_id=tournament.pk, user=organiser)
        return tournament, time.perf_counter() - started

    def _decide_round(self, tournament: Tournament, rng: random.Random) -> None:
        """Decide every ready pairing as agreed results would (2-0 or 2-1), then let the format advance."""
        now = timezone.now()
        with transaction.atomic():
            locked = tournament_lock(tournament.pk)
            ready = list(TournamentMatch.objects.filter(tournament=locked, status=TournamentMatch.Status.READY))
            matches = {m.pk: m for m in Match.objects.filter(pk__in=[p.match_id for p in ready])}
            for pairing in ready:
                first_wins = rng.random() < 0.5
                pairing.winner_id = pairing.player_one_id if first_wins else pairing.player_two_id
                loser_games = rng.choice((0, 1))
                pairing.games_one, pairing.games_two = (2, loser_games) if first_wins else (loser_games, 2)
                pairing.cards_left_one, pairing.cards_left_two = (
                    (0, rng.randint(1, 20)) if first_wins else (rng.randint(1, 20), 0)
                )
                pairing.status = TournamentMatch.Status.DECIDED
                pairing.result_source = TournamentMatch.Source.MATCH
                pairing.decided_at = now
                match = matches[pairing.match_id]
                match.status, match.winner_id, match.finished_at = Match.Status.FINISHED, pairing.winner_id, now
            TournamentMatch.objects.bulk_update(
                ready,
                [
                    "winner",
                    "games_one",
                    "games_two",
                    "cards_left_one",
                    "cards_left_two",
                    "status",
                    "result_source",
                    "decided_at",
                ],
                batch_size=1000,
            )
            Match.objects.bulk_update(matches.values(), ["status", "winner", "finished_at"], batch_size=1000)
            pairings_advance(locked)

    def _clean(self, built: list[Tournament], label: str, organiser: Any) -> None:
        match_ids = list(
            TournamentMatch.objects.filter(tournament__in=built, match__isnull=False).values_list("match_id", flat=True)
        )
        Tournament.objects.filter(pk__in=[t.pk for t in built]).delete()
        Match.objects.filter(pk__in=match_ids).delete()  # their games and history go with them
        Player.objects.filter(handle__startswith=f"{label}-").delete()
        organiser.delete()

    # --- Serving and measuring -------------------------------------------------------

    def _serve_and_measure(self, options: dict[str, Any], elimination: Tournament, swiss: Tournament) -> None:
        cache_url = os.environ.get("CACHE_URL") or (
            "redis://127.0.0.1:6379/7" if _redis_answers("redis://127.0.0.1:6379/7") else ""
        )
        if cache_url:
            # This process may cache elsewhere (local memory without CACHE_URL), so what it built did
            # not reach the server's cache: outdate the site lists there (an earlier run's lists, say).
            RedisCache(cache_url, {}).delete(GENERATION_KEY)
        port = _free_port()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "benchmarks.bench_site",
            "DATABASE_URL": current_database_url(),
            "DEBUG": "0",
            "SPEED_HTTPS": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "LOG_LEVEL": "WARNING",
            "SPEED_LAPSE_ON_READ": "0",
        }
        if cache_url:
            env["CACHE_URL"] = cache_url
        else:
            env.pop("CACHE_URL", None)
        env = production_env(env)  # its secret key, and the cache table it uses without CACHE_URL
        server = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [
                sys.executable,
                "-m",
                "gunicorn",
                "speedsite.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(options["workers"]),
                "--log-level",
                "warning",
            ],
            env=env,
        )
        try:
            self._wait_for(port)
            sections = bracket_index(PageLoader(elimination))
            top = sections.sections[-1].id if sections else ""
            pages = [
                ("bare Django view", "/bench/bare/"),
                ("/ (home)", "/"),
                ("/tournaments/", "/tournaments/"),
                ("single elimination", f"/tournaments/{elimination.pk}/"),
                ("  its final rounds", f"/tournaments/{elimination.pk}/?section={top}"),
                ("  its embed", f"/tournaments/{elimination.pk}/embed/"),
                ("Swiss", f"/tournaments/{swiss.pk}/"),
                ("  standings p.3 by name", f"/tournaments/{swiss.pk}/?page=3&sort=name"),
                ("  standings by rating", f"/tournaments/{swiss.pk}/?sort=rating"),
                ("  round 2, p.2", f"/tournaments/{swiss.pk}/?rounds=10"),
                ("/players/", "/players/"),
                ("/players/ by rating, p.5", "/players/?sort=rating&page=5"),
                ("API Swiss standings", f"/api/tournaments/{swiss.pk}/standings/"),
                ("/live/ (tournament)", f"/live/?tournament={elimination.pk}"),
            ]
            limit_ms, limit_bytes = BUDGET.get(options["entrants"], BUDGET[4096])
            self.stdout.write(
                f"gunicorn, {options['workers']} workers, DEBUG=0, 127.0.0.1; {options['clients']} clients, "
                f"{options['requests']} requests a page after a first (cold) one; cache: "
                f"{'Redis ' + cache_url if cache_url else 'local memory per worker'}"
            )
            self.stdout.write(f"{'page':<28} {'first':>9} {'p50':>9} {'size':>11}")
            bare = 0.0
            worst = 0.0
            largest = 0
            for name, path in pages:
                first, times, size, status = self._measure(port, path, options["requests"], options["clients"])
                p50 = statistics.median(times) * 1000
                if path == "/bench/bare/":
                    bare = p50
                else:
                    worst, largest = max(worst, p50), max(largest, size)
                flag = "" if status == 200 else f"  status {status}"
                self.stdout.write(f"{name:<28} {first * 1000:7.1f}ms {p50:7.1f}ms {size:9,d} B{flag}")
            met = worst <= limit_ms and largest <= limit_bytes
            self.stdout.write(
                f"Slowest page p50 {worst:.1f} ms (bare view {bare:.1f} ms; goal <= {limit_ms:.0f} ms), "
                f"largest {largest:,d} B (goal <= {limit_bytes:,d} B): {'met' if met else 'NOT met'}"
            )
        finally:
            server.terminate()
            server.wait(timeout=30)

    def _wait_for(self, port: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/bench/bare/")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer within 60 s")

    def _measure(self, port: int, path: str, count: int, clients: int) -> tuple[float, list[float], int, int]:
        """The first answer's time alone, then `count` more from `clients` threads; times, size and status."""
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        first = time.perf_counter() - started
        connection.close()
        times: list[float] = []
        lock = threading.Lock()
        shares = [count // clients + (1 if n < count % clients else 0) for n in range(clients)]

        def client(share: int) -> None:
            mine = []
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            for _ in range(share):
                began = time.perf_counter()
                conn.request("GET", path)
                conn.getresponse().read()
                mine.append(time.perf_counter() - began)
            conn.close()
            with lock:
                times.extend(mine)

        threads = [threading.Thread(target=client, args=(share,)) for share in shares]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return first, times, len(body), response.status
