"""Pending logs of simulated games for the verification benchmarks (`bench_pipeline`, `bench_verify`)."""

from __future__ import annotations

from itertools import cycle

import orjson
from django.db import connection

from matches.models import Game, Match, Player, ResultChange
from matches.selectors import player_get
from matches.services import match_create, player_create
from replays.models import MatchLog
from replays.services import log_submit
from speedrules import simulate

RULESETS = ["speed", "doubles", "jokers-wild", "three-card-hands", "seven-card-stacks", "runs-at-once", "california"]
BENCH_PLAYERS = tuple(f"bench-{n:02d}" for n in range(16))


def pending_logs_create(count: int, *, seed_base: int) -> tuple[list[int], list[int]]:
    """`count` pending logs of simulated games, each for the first game of its own best-of-3 match:
    the logs' ids and the matches' ids.

    The matches pair a pool of players as a tournament round would (everyone plays
    at once), so the verifications do not all write to the same two players' rows.
    """
    players = [player_get(handle=h) or player_create(handle=h, display_name=h) for h in BENCH_PLAYERS]
    log_ids, match_ids = [], []
    for i, ruleset in zip(range(count), cycle(RULESETS), strict=False):
        one, two = players[(2 * i) % len(players)], players[(2 * i + 1) % len(players)]
        document = simulate(ruleset, seed=seed_base + i, players=[one.handle, two.handle])
        match = match_create(players=[one.handle, two.handle], ruleset=ruleset, best_of=3)
        log, _ = log_submit(game_id=match.games.get().pk, data=orjson.dumps(document), user=one.user, enqueue=False)
        log_ids.append(log.pk)
        match_ids.append(match.pk)
    _vacuum_analyze()
    return log_ids, match_ids


def _vacuum_analyze() -> None:
    """Statistics for the tables just filled, as autovacuum leaves them within a minute.

    The benchmark's database starts empty and each round adds hundreds of rows in
    seconds: without this the worker's prepared statements are planned for tables of
    a few rows (the plans are kept per connection), a state no server stays in.
    """
    if connection.vendor != "postgresql":
        return
    tables = [model._meta.db_table for model in (Player, Match, Game, MatchLog, ResultChange)]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(table)}")


def pending_logs_delete(match_ids: list[int]) -> None:
    """Delete the benchmark's matches and their logs."""
    MatchLog.objects.filter(game__match_id__in=match_ids).delete()
    Match.objects.filter(pk__in=match_ids).delete()
