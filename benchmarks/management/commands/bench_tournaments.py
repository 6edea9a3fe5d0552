"""Time the generators, and count the SQL queries that load a big Swiss tournament's standings.

    python manage.py bench_tournaments [--players 1024] [--rounds 10] [--skip-generators]

The database part builds a Swiss tournament with random results inside a
transaction that is rolled back, so nothing is left behind; it loads the
standings of that tournament and of a small one, and reports both query
counts (they must be equal: the count does not grow with the field).
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from benchmarks.tournament_workloads import random_swiss, run_bench
from matches.models import Player
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.selectors import tournament_standings


class _RollBack(Exception):
    """Raised to undo the benchmark's rows."""


def build_swiss_tournament(*, players: int, rounds: int, rng: random.Random, label: str) -> Tournament:
    """A finished Swiss tournament of `players` with random results, bulk-inserted (no matches.Match rows)."""
    roster = Player.objects.bulk_create(
        Player(handle=f"{label}-{index}", display_name=f"Bench {index}") for index in range(1, players + 1)
    )
    tournament = Tournament.objects.create(
        name=f"Bench {label}",
        format=Tournament.Format.SWISS,
        status=Tournament.Status.FINISHED,
        series="best_of",
        series_length=3,
        ruleset={},
        options={"swiss_rounds": rounds},
    )
    Entrant.objects.bulk_create(
        Entrant(tournament=tournament, player=player, seed=seed) for seed, player in enumerate(roster, start=1)
    )
    # Entrant numbers 1..n from the pure simulation map onto the players in seed order.
    _, records = random_swiss(players, rounds, rng)
    rows: list[TournamentMatch] = []
    for number, record in enumerate(records, start=1):
        first, second = record.players
        one = roster[int(first) - 1]
        two = roster[int(second) - 1] if second is not None else None
        rows.append(
            TournamentMatch(
                tournament=tournament,
                key=f"B{number}",
                bracket=TournamentMatch.Bracket.SWISS,
                round=1 + (number - 1) * rounds // len(records),
                position=number,
                status=TournamentMatch.Status.BYE if record.bye else TournamentMatch.Status.DECIDED,
                player_one=one,
                player_two=two,
                winner=roster[int(record.winner) - 1],
                games_one=record.games_won[0],
                games_two=record.games_won[1],
                cards_left_one=record.cards_left[0],
                cards_left_two=record.cards_left[1],
            )
        )
    TournamentMatch.objects.bulk_create(rows, batch_size=2000)
    return tournament


def standings_cost(tournament: Tournament) -> tuple[int, float, int]:
    """(queries, seconds, rows) to load a tournament's standings from a fresh tournament row."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        standings = tournament_standings(tournament=fresh)
        seconds = time.perf_counter() - started
    return len(queries), seconds, len(standings.rows)


class Command(BaseCommand):
    help = "Time the pairing generators and count the SQL queries of a large tournament's standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=1024, help="players in the database tournament")
        parser.add_argument("--rounds", type=int, default=10, help="Swiss rounds played in it")
        parser.add_argument("--seed", type=int, default=7, help="random seed for the results")
        parser.add_argument("--skip-generators", action="store_true", help="only the database part")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["skip_generators"]:
            self.stdout.write("Generators (pure Python):")
            for name, seconds in run_bench():
                self.stdout.write(f"  {seconds * 1000:9.1f} ms  {name}")
        rng = random.Random(options["seed"])
        try:
            with transaction.atomic():
                small = build_swiss_tournament(players=8, rounds=3, rng=rng, label="bench-small")
                large = build_swiss_tournament(
                    players=options["players"], rounds=options["rounds"], rng=rng, label="bench-large"
                )
                small_queries, _, _ = standings_cost(small)
                large_queries, seconds, rows = standings_cost(large)
                raise _RollBack
        except _RollBack:
            pass
        self.stdout.write("Standings from the database:")
        self.stdout.write(
            f"  {seconds * 1000:9.1f} ms  {rows} players, {options['rounds']} Swiss rounds: "
            f"{large_queries} SQL queries (8 players: {small_queries})"
        )
        if large_queries != small_queries:
            self.stderr.write("The standings query count grows with the field size.")
            raise SystemExit(1)
