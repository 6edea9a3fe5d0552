"""Simulated games for `bench_pipeline`: pending logs to verify, and games with a log ready to submit."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import cycle

import orjson
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from benchmarks.database import vacuum_analyze
from matches.models import Game, Match, Player, ResultChange
from matches.selectors import player_get
from matches.services import match_create, organiser_grant, player_create
from replays.models import MatchLog
from replays.services import log_submit
from speedrules import simulate

RULESETS = ["speed", "doubles", "jokers-wild", "three-card-hands", "seven-card-stacks", "runs-at-once", "california"]
BENCH_PLAYERS = tuple(f"bench-{n:02d}" for n in range(16))


def _simulated_games(count: int, *, seed_base: int) -> Iterator[tuple[Match, Player, bytes]]:
    """`count` new best-of-3 matches, each with a simulated log of its first game (not submitted),
    and the player in its first seat.

    The matches pair a pool of players as a tournament round would (everyone plays
    at once), so the verifications do not all write to the same two players' rows.
    """
    players = [player_get(handle=h) or player_create(handle=h, display_name=h) for h in BENCH_PLAYERS]
    for i, ruleset in zip(range(count), cycle(RULESETS), strict=False):
        one, two = players[(2 * i) % len(players)], players[(2 * i + 1) % len(players)]
        document = simulate(ruleset, seed=seed_base + i, players=[one.handle, two.handle])
        match = match_create(players=[one.handle, two.handle], ruleset=ruleset, best_of=3)
        yield match, one, orjson.dumps(document)


def games_with_logs_create(count: int, *, seed_base: int) -> tuple[list[tuple[int, bytes]], list[int]]:
    """`count` open games, each with its log ready to submit: (game id, log bytes), and the matches' ids."""
    games, match_ids = [], []
    for match, _one, data in _simulated_games(count, seed_base=seed_base):
        games.append((match.games.get().pk, data))
        match_ids.append(match.pk)
    vacuum_analyze((Player, Match, Game, MatchLog, ResultChange))
    return games, match_ids


def pending_logs_create(count: int, *, seed_base: int) -> tuple[list[int], list[int]]:
    """`count` pending logs, each a player's log of the first game of its own match (its
    verification is a claim for the opponent to confirm): the logs' ids and the matches' ids."""
    log_ids, match_ids = [], []
    for match, one, data in _simulated_games(count, seed_base=seed_base):
        log, _ = log_submit(game_id=match.games.get().pk, data=data, user=one.user, enqueue=False)
        log_ids.append(log.pk)
        match_ids.append(match.pk)
    vacuum_analyze((Player, Match, Game, MatchLog, ResultChange))
    return log_ids, match_ids


def bench_organiser() -> AbstractBaseUser:
    """The organiser whose logs decide the benchmark's games at once (no confirmation to wait for)."""
    user, created = get_user_model().objects.get_or_create(username="bench-organiser")
    if created:
        organiser_grant(user=user)
    return user


def pending_logs_delete(match_ids: list[int]) -> None:
    """Delete the benchmark's matches and their logs."""
    MatchLog.objects.filter(game__match_id__in=match_ids).delete()
    Match.objects.filter(pk__in=match_ids).delete()
