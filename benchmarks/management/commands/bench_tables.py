"""Live tables under load: N tables of two bots playing over real sockets against running ASGI servers.

    python manage.py bench_tables --tables 100 --processes 2 --pace human [--seconds 120]
    python manage.py bench_tables --tables 1 [--pace sim] [--reaction-ms MS]
    python manage.py bench_tables --tables 20 --url ws://host:port [--url ws://host:port2]
    python manage.py bench_tables --tables 10 --pace human --spectators 120 [--spectator-every-ms 50]

Creates, in the configured database, two players per table, a match between
them and its table (opened through the API, `POST /api/games/{id}/table/`, as
any client would), then plays every table at once with two client bots per
table (`benchmarks.table_bots`, over `websockets`, each with its own socket and
token), at the simulator bots' pace (`--pace sim`, the default) or a fast
human's (`--pace human`: reaches of 300 to 900 ms, about two cards a second).

Without `--url` it starts `--processes` Daphne processes itself
(`benchmarks.asgi_server`) on free ports against the same database; with more
than one they share a Redis channel layer (`--channel-layer-url`), with one the
layer is in memory unless that option is given. `--url`, given once per
server, measures servers already running instead. The tables are spread over
the servers round-robin, and a table's two seats connect to the same server
(table i's both seats to server i mod N), as a proxy with table affinity
would send them: every intent is then refereed in the process holding both
seats, and the Redis layer only carries the nudges.

It prints plays per second, the time from a play to the first state that shows
it (p50, p99) next to a ping's round trip on the same sockets (p50, p99), and
the servers' CPU milliseconds per play (Daphne and PostgreSQL, from /proc:
`benchmarks.proc_cpu`), then issue 30's goals with their verdicts and one row
of the capacity table. Everything it built is deleted at the end.

`--spectators N` adds the attack of issue 30: one more table, nobody seated,
and N anonymous sockets on it each sending `ready` at the connection
throttle's rate; compare the played tables' figures with a run without it.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from rest_framework.authtoken.models import Token

from benchmarks.asgi_server import AsgiServer
from benchmarks.proc_cpu import cpu_ms_between, cpu_ticks, listening_pids, postgres_pids, session_pids
from benchmarks.table_bots import HUMAN_REACTION_MS, PACES, SeatStats, SpectatorStats, play_tables
from benchmarks.workers import production_env
from matches.models import Match, Player
from matches.services import match_create, player_create
from play.models import Table
from replays.models import MatchLog

#: The Redis database the started servers share when there is more than one (else $SPEED_BENCH_CHANNEL_LAYER_URL).
DEFAULT_CHANNEL_LAYER_URL = "redis://127.0.0.1:6379/11"
MAX_PROCESSES = 16
MAX_SPECTATORS = 1000


@dataclass(frozen=True, slots=True)
class Config:
    """A run's configuration, as the goals name theirs."""

    tables: int
    processes: int
    pace: str
    reaction_ms: int | None = None
    ruleset: str = "speed"

    def __str__(self) -> str:
        text = f"{_count(self.tables, 'table')}, {_count(self.processes, 'process')}, pace {self.pace}"
        if self.reaction_ms is not None:
            text += f", reaction {self.reaction_ms} ms"
        return text + ("" if self.ruleset == "speed" else f", ruleset {self.ruleset}")


@dataclass(frozen=True, slots=True)
class GoalAt:
    """A goal's configuration: None where any will do; always the pace's own reactions and standard Speed."""

    tables: int
    processes: int | None = None
    pace: str | None = None

    def holds_for(self, config: Config) -> bool:
        return (
            config.tables == self.tables
            and self.processes in (None, config.processes)
            and self.pace in (None, config.pace)
            and config.reaction_ms is None
            and config.ruleset == "speed"
        )


#: Issue 30's goals, at their configurations.
GOAL_CAPACITY = GoalAt(tables=100, processes=2, pace="human")
GOAL_CAPACITY_P99_MS = 100.0
GOAL_ONE_TABLE = GoalAt(tables=1)
GOAL_ONE_TABLE_ADDED_P50_MS = 8.0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "es" if noun.endswith("s") else "s")


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@dataclass
class Servers:
    """The servers the tables are spread over, and what CPU counts as theirs."""

    urls: list[str]
    started: list[AsgiServer]
    layer: str

    def daphne_pids(self) -> list[int] | None:
        """Every process of each started server's session; for `--url`, what listens on its port here (None: none)."""
        if self.started:
            return [pid for server in self.started if server.pid is not None for pid in session_pids(server.pid)]
        found: list[int] = []
        for url in self.urls:
            parts = urllib.parse.urlsplit(url)
            if parts.hostname in ("127.0.0.1", "localhost", "::1") and parts.port is not None:
                found += listening_pids(parts.port)
        return found or None

    def stop(self) -> None:
        for server in self.started:
            server.stop()


class Command(BaseCommand):
    help = "N tables of two client bots over real sockets: plays/s, play-to-state and ping p50/p99, CPU per play."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=10)
        parser.add_argument(
            "--processes", type=int, default=1, help="Daphne processes to start and spread the tables over"
        )
        parser.add_argument(
            "--url",
            action="append",
            default=[],
            help="a running ASGI server's base, e.g. ws://127.0.0.1:8001; once per server (else Daphne is started)",
        )
        parser.add_argument(
            "--channel-layer-url",
            default=None,
            help=f"the Redis channel layer of the started servers (default with several: "
            f"$SPEED_BENCH_CHANNEL_LAYER_URL or {DEFAULT_CHANNEL_LAYER_URL}; with one: in memory)",
        )
        parser.add_argument("--pace", choices=PACES, default="sim", help="the simulator bots' (default) or a human's")
        parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long even if games go on")
        parser.add_argument(
            "--reaction-ms", type=int, default=None, help="every bot's reaction, whatever the pace's own law"
        )
        parser.add_argument("--ruleset", default="speed")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--spectators",
            type=int,
            default=0,
            help="anonymous sockets on one more table, each sending `ready` every --spectator-every-ms (the attack)",
        )
        parser.add_argument(
            "--spectator-every-ms",
            type=float,
            default=50.0,
            help="between one spectator's messages (default 50: the connection throttle's rate, 20 a second)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tables = options["tables"]
        if not 1 <= tables <= 500:
            raise CommandError("--tables must be between 1 and 500")
        if options["url"] and options["processes"] != 1:
            raise CommandError("--processes starts servers; with --url, give one --url per running server instead")
        if not 1 <= options["processes"] <= MAX_PROCESSES:
            raise CommandError(f"--processes must be between 1 and {MAX_PROCESSES}")
        if not 0 <= options["spectators"] <= MAX_SPECTATORS:
            raise CommandError(f"--spectators must be between 0 and {MAX_SPECTATORS}")
        if options["spectator_every_ms"] < 1:
            raise CommandError("--spectator-every-ms must be at least 1")
        servers = self._servers(options)
        config = Config(
            tables=tables,
            processes=len(servers.urls),
            pace=options["pace"],
            reaction_ms=options["reaction_ms"],
            ruleset=options["ruleset"],
        )
        tag = secrets.token_hex(3)
        try:
            seats = self._build(tables, tag, servers.urls, options["ruleset"])
            attack = None
            if options["spectators"]:
                # One more table, nobody seated at it: the spectators' target, on server `tables` mod N.
                watched = self._build(1, tag, servers.urls, options["ruleset"], first=tables)[0][0]
                attack = (watched, options["spectators"], options["spectator_every_ms"] / 1000)
            self._header(config, servers, options)
            daphne_before = self._daphne_sample(servers)
            postgres_before = self._postgres_sample()
            client_before = cpu_ticks([os.getpid()])
            started = time.monotonic()
            stats, watchers = asyncio.run(
                play_tables(
                    seats,
                    seconds=options["seconds"],
                    seed=options["seed"],
                    reaction_ms=options["reaction_ms"],
                    pace=options["pace"],
                    spectators=attack,
                )
            )
            elapsed = time.monotonic() - started
            cpu = {
                "daphne": self._spent(daphne_before, self._daphne_sample(servers)),
                "postgres": self._spent(postgres_before, self._postgres_sample()),
                "client": self._spent(client_before, cpu_ticks([os.getpid()])),
            }
            self._report(config, servers.urls, stats, elapsed, cpu)
            if watchers:
                self._attack_report(watchers, elapsed, options["spectator_every_ms"])
        finally:
            servers.stop()
            self._clean(tag)

    def _servers(self, options: dict[str, Any]) -> Servers:
        if options["url"]:
            return Servers(urls=[url.rstrip("/") for url in options["url"]], started=[], layer="")
        processes = options["processes"]
        layer = options["channel_layer_url"]
        if layer is None and processes > 1:
            layer = os.environ.get("SPEED_BENCH_CHANNEL_LAYER_URL") or DEFAULT_CHANNEL_LAYER_URL
        env = production_env(
            {
                "LOG_LEVEL": "WARNING",
                "CHANNEL_LAYER_URL": layer or "",
                # Persistent database connections for the whole run: a backend that exits mid-run takes its CPU
                # with it, and the measure would miss it.
                "DB_CONN_MAX_AGE": str(int(options["seconds"]) + 3600),
                # Every bot and spectator connects from this one address, standing for as many clients:
                # the per-address cap (play.edge) would otherwise refuse all but the first few.
                "SPEED_TABLE_SOCKETS_PER_ADDRESS": str(2 * options["tables"] + options["spectators"] + 16),
            }
        )
        started: list[AsgiServer] = []
        try:
            for _ in range(processes):
                # Started one after another, so that each binds its free port before the next one picks.
                started.append(AsgiServer(settings_module="benchmarks.bench_site", env=env).start())
        except BaseException:
            for server in started:
                server.stop()
            raise
        return Servers(urls=[server.ws_url for server in started], started=started, layer=layer or "")

    def _build(self, tables: int, tag: str, urls: list[str], ruleset: str, first: int = 0) -> list[tuple[str, str]]:
        """Two players, a match and its table per table, opened on the table's server; its two seats' (socket, token).

        Tables are numbered from `first`, which also picks their server (table i on server i mod N)."""
        seats = []
        for number in range(first, first + tables):
            base = urls[number % len(urls)]
            http_base = "http" + base.removeprefix("ws")
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

    def _attack_report(self, watchers: list[SpectatorStats], elapsed: float, every_ms: float) -> None:
        sent = sum(watcher.sent for watcher in watchers)
        refused: dict[str, int] = {}
        closed: dict[str, int] = {}
        for watcher in watchers:
            for code, count in watcher.refused.items():
                refused[code] = refused.get(code, 0) + count
            if watcher.closed_with is not None:
                closed[str(watcher.closed_with)] = closed.get(str(watcher.closed_with), 0) + 1
        self.stdout.write(
            f"spectator attack on one more table: {sum(w.connected for w in watchers)}/{len(watchers)} anonymous "
            f"sockets connected, each sending `ready` every {every_ms:.0f} ms; sent {sent} ({sent / elapsed:.0f}/s), "
            f"answered refused {json.dumps(refused, sort_keys=True)}; sockets closed by the server "
            f"{json.dumps(closed, sort_keys=True)}"
        )

    def _header(self, config: Config, servers: Servers, options: dict[str, Any]) -> None:
        if options["reaction_ms"] is not None:
            reaction = f"reaction {options['reaction_ms']} ms"
        elif config.pace == "human":
            low, high, mode = HUMAN_REACTION_MS
            reaction = f"reaction {low:.0f}-{high:.0f} ms (mode {mode:.0f}), the next reach as a card goes down"
        else:
            reaction = "reaction the simulator bots' (350-1100 ms)"
        self.stdout.write(
            f"{_count(config.tables, 'table')} of 2 client bots ({config.ruleset}), pace {config.pace}, {reaction}; "
            f"{_count(config.processes, 'server process')}"
        )
        whose = "Daphne started by this command" if servers.started else "running, given by --url"
        for index, url in enumerate(servers.urls):
            count = len(range(index, config.tables, config.processes))
            self.stdout.write(f"  server {index + 1}: {url} ({whose}): {_count(count, 'table')}")
        if servers.started:
            self.stdout.write(f"  channel layer: {servers.layer or 'in memory'}")
        if config.processes > 1:
            self.stdout.write(f"  table i's two seats on server i mod {config.processes}")

    def _daphne_sample(self, servers: Servers) -> dict[int, int] | None:
        pids = servers.daphne_pids()
        return None if pids is None else cpu_ticks(pids)

    def _postgres_sample(self) -> dict[int, int] | None:
        if connection.vendor != "postgresql":
            return None
        return cpu_ticks(postgres_pids(database=connection.settings_dict["NAME"]))

    def _spent(self, before: dict[int, int] | None, after: dict[int, int] | None) -> tuple[float, int, int] | None:
        if before is None or after is None:
            return None
        spent = cpu_ms_between(before, after)
        return spent.ms, spent.processes, spent.lost

    def _report(
        self,
        config: Config,
        urls: list[str],
        stats: list[SeatStats],
        elapsed: float,
        cpu: dict[str, tuple[float, int, int] | None],
    ) -> None:
        plays = [ms for seat in stats for ms in seat.play_ms]
        pings = [ms for seat in stats for ms in seat.ping_ms]
        refused: dict[str, int] = {}
        for seat in stats:
            for code, count in seat.refused.items():
                refused[code] = refused.get(code, 0) + count
        over = sum(1 for seat in stats[::2] if seat.status == "over")
        rates = [
            seat.plays / (seat.on_until - seat.on_from)
            for seat in stats
            if seat.on_from is not None and seat.on_until is not None and seat.on_until > seat.on_from
        ]
        rate = sum(rates) / len(rates) if rates else float("nan")
        self.stdout.write(
            f"{elapsed:.1f} s; games over {over}/{config.tables}; plays {len(plays)} ({len(plays) / elapsed:.1f}/s, "
            f"{rate:.2f}/s per bot while its game was on); states {sum(seat.states for seat in stats)}; "
            f"refused {json.dumps(refused, sort_keys=True)}; reconnects {sum(seat.reconnects for seat in stats)}"
        )
        play50, play99 = _percentile(plays, 0.5), _percentile(plays, 0.99)
        ping50, ping99 = _percentile(pings, 0.5), _percentile(pings, 0.99)
        added = play50 - ping50
        self.stdout.write(f"{'':<22} {'p50':>9} {'p99':>9} {'n':>7}")
        self.stdout.write(f"{'play -> its state':<22} {play50:>7.1f}ms {play99:>7.1f}ms {len(plays):>7}")
        self.stdout.write(f"{'ping -> pong':<22} {ping50:>7.1f}ms {ping99:>7.1f}ms {len(pings):>7}")
        if len(urls) > 1:
            for index, url in enumerate(urls):
                # Seats 2i and 2i + 1 are table i's, on server i mod N.
                mine = [
                    ms for number, seat in enumerate(stats) if number // 2 % len(urls) == index for ms in seat.play_ms
                ]
                self.stdout.write(
                    f"  server {index + 1} {url}: plays {len(mine)}, play p50 {_percentile(mine, 0.5):.1f}ms, "
                    f"p99 {_percentile(mine, 0.99):.1f}ms"
                )
        self.stdout.write(f"referee adds {added:.1f} ms at p50 (play p50 minus ping p50)")
        per_play = {name: (spent[0] / len(plays) if spent and plays else float("nan")) for name, spent in cpu.items()}
        self.stdout.write(
            f"server CPU per play: daphne {self._cpu_text(per_play['daphne'], cpu['daphne'])}, "
            f"postgres {self._cpu_text(per_play['postgres'], cpu['postgres'])}"
        )
        lost = [f"{spent[2]} {name}" for name, spent in cpu.items() if spent and spent[2]]
        self.stdout.write(
            f"  over the play phase, divided by the plays measured; daphne: {self._processes(cpu['daphne'])}, "
            f"postgres: {self._processes(cpu['postgres'])} (this database's backends and the server's own)"
            + (f"; exited during the run, their CPU not counted: {', '.join(lost)}" if lost else "")
        )
        self.stdout.write(
            f"bench client CPU per play: {self._cpu_text(per_play['client'], cpu['client'])} "
            "(this process: every bot, on the same machine as the servers)"
        )
        capacity_met = bool(plays) and over == config.tables and play99 <= GOAL_CAPACITY_P99_MS
        self._goal(
            f"{GOAL_CAPACITY.tables} human-paced tables on {GOAL_CAPACITY.processes} Daphne processes: every game over "
            f"and play p99 <= {GOAL_CAPACITY_P99_MS:.0f} ms",
            capacity_met,
            config,
            GOAL_CAPACITY,
        )
        self._goal(
            f"1 table: the referee adds <= {GOAL_ONE_TABLE_ADDED_P50_MS:.0f} ms at p50 (play p50 minus ping p50)",
            bool(plays) and bool(pings) and added <= GOAL_ONE_TABLE_ADDED_P50_MS,
            config,
            GOAL_ONE_TABLE,
        )
        self._capacity_row(
            config,
            over=over,
            plays_per_s=len(plays) / elapsed,
            latencies=(play50, play99, ping50, ping99),
            added=added,
            per_play=per_play,
        )
        if not plays:
            self.stdout.write("no play was measured: are the tables playing? (see the server's log)")
        if not pings:
            self.stdout.write("no ping was answered")

    @staticmethod
    def _cpu_text(per_play: float, spent: tuple[float, int, int] | None) -> str:
        return "not measured" if spent is None else f"{per_play:.1f} ms"

    @staticmethod
    def _processes(spent: tuple[float, int, int] | None) -> str:
        if spent is None:
            return "not measured (no process of it found on this machine)"
        return f"{_count(spent[1], 'process')}, {spent[0]:.0f} ms in all"

    def _goal(self, text: str, met: bool, config: Config, goal: GoalAt) -> None:
        where = "" if goal.holds_for(config) else f" (measured at {config})"
        self.stdout.write(f"goal: {text}: {'met' if met else 'NOT met'}{where}")

    def _capacity_row(
        self,
        config: Config,
        *,
        over: int,
        plays_per_s: float,
        latencies: tuple[float, float, float, float],
        added: float,
        per_play: dict[str, float],
    ) -> None:
        self.stdout.write("capacity:")
        self.stdout.write(
            "| tables | processes | pace | games over | plays/s | play p50 | play p99 | ping p50 | ping p99 "
            "| referee adds p50 | CPU ms/play daphne | CPU ms/play postgres |"
        )
        self.stdout.write("|" + "---:|" * 3 + "---:|" * 9)
        cells = [
            str(config.tables),
            str(config.processes),
            config.pace,
            f"{over}/{config.tables}",
            f"{plays_per_s:.1f}",
            *(f"{ms:.1f} ms" for ms in latencies),
            f"{added:.1f} ms",
            f"{per_play['daphne']:.1f}",
            f"{per_play['postgres']:.1f}",
        ]
        self.stdout.write("| " + " | ".join(cells) + " |")

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
