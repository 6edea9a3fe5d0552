"""Exact statement counts of `log_verify` on each of its paths, printed in full when one changes.

The verification is the pipeline's hot path: a statement more per log is a
round trip more per log. Each path is pinned: a player's log awaiting the
opponent's confirmation (the usual case), a game decided while the match goes
on, a match finished, and a tournament's match finished (which also rates both
players and advances the tournament). The organiser's log decides at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import orjson
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.models import Game, Match, ResultChange
from matches.services import game_state
from replays.hot_path import _from_row, log_load_for_verification
from replays.models import MatchLog
from replays.services import log_submit, log_verify
from tests.factories import make_match, make_players, make_tournament, ready, won_log
from tournaments.models import TournamentMatch

pytestmark = pytest.mark.django_db


@contextmanager
def exactly(count: int) -> Iterator[None]:
    """Like django_assert_num_queries, but lists every statement when the count differs."""
    with CaptureQueriesContext(connection) as captured:
        yield
    statements = [query["sql"] for query in captured.captured_queries]
    listing = "\n".join(f"{number}. {sql}" for number, sql in enumerate(statements, start=1))
    assert len(statements) == count, f"{len(statements)} statements, expected {count}:\n{listing}"


def pending_log(match: Match, *, winner_seat: int, user) -> MatchLog:
    game = match.games.get(status=Game.Status.OPEN)
    names = [match.player_one.handle, match.player_two.handle]
    document = won_log(match.ruleset_name or "speed", names, winner_seat=winner_seat, start=game.number * 100)
    log, _ = log_submit(game_id=game.pk, data=orjson.dumps(document), user=user, enqueue=False)
    return log


def verify(log: MatchLog) -> Callable[[], MatchLog | None]:
    return lambda: log_verify(log_id=log.pk)


def test_a_players_log_awaiting_confirmation() -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=3)
    log = pending_log(match, winner_seat=0, user=one.user)
    # The savepoint and its release (a test runs in a transaction; a worker sends neither
    # a BEGIN nor a COMMIT: see `atomic_pipeline`); the lock, then the load with the match's
    # games (one round trip); the verdict, the claim and its history row, one statement (one more).
    with exactly(5):
        log_verify(log_id=log.pk)
    assert list(match.games.values_list("number", "status", "claimed_winner")) == [(1, "awaiting_confirmation", one.pk)]


def test_a_game_decided_while_the_match_goes_on(organiser) -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=3)
    log = pending_log(match, winner_seat=0, user=organiser)
    # As above, with the result, its history row and the next game in that one statement.
    with exactly(5):
        log_verify(log_id=log.pk)
    assert list(match.games.values_list("number", "status")) == [(1, "decided"), (2, "open")]


def test_a_match_finished(organiser) -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=1)
    log = pending_log(match, winner_seat=1, user=organiser)
    # The hot path up to the verdict, then matches.services ends the match and the
    # ratings listener rates both players (reading the match by its id); nothing in a tournament.
    with exactly(18):
        log_verify(log_id=log.pk)
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.FINISHED, two.pk)


def test_a_tournament_match_finished(organiser) -> None:
    players = make_players(4)
    tournament = make_tournament(organiser, players, format="single_elimination")
    pairing = ready(tournament)[0]
    match = Match.objects.select_related("player_one", "player_two").get(pk=pairing.match_id)
    log = pending_log(match, winner_seat=0, user=organiser)
    # As above, then the tournaments listener records the result and advances the bracket.
    with exactly(26):
        log_verify(log_id=log.pk)
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id) == (TournamentMatch.Status.DECIDED, match.player_one_id)


def test_the_hot_paths_instances_are_the_ones_from_db_makes() -> None:
    """`replays.hot_path` builds its instances without `Model.__init__`: the same fields, the rest deferred."""
    one, two = make_players(2)
    match = make_match(one, two, best_of=3)
    wanted = {"id", "series", "series_length", "player_one_id", "player_two_id", "time_limit_ms"}
    fields = tuple(f.attname for f in Match._meta.concrete_fields if f.attname in wanted)  # from_db's order
    values = Match.objects.filter(pk=match.pk).values_list(*fields).get()
    fast, usual = _from_row(Match, "default", fields, values), Match.from_db("default", fields, values)
    state = ("adding", "db")
    assert [getattr(fast._state, name) for name in state] == [getattr(usual._state, name) for name in state]
    assert fast.__dict__.keys() - {"_state"} == usual.__dict__.keys() - {"_state"}
    assert all(getattr(fast, name) == getattr(usual, name) for name in fields)
    assert fast.get_deferred_fields() == usual.get_deferred_fields() != set()
    assert fast.status == Match.objects.get(pk=match.pk).status  # a deferred field loads on first read
    assert fast.player_one == one


def test_the_hot_paths_history_row_reads_back_as_the_orms() -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=3)
    log = pending_log(match, winner_seat=0, user=one.user)
    before = timezone.now()
    log_verify(log_id=log.pk)
    change = ResultChange.objects.get(match=match)
    game = match.games.get(number=1)
    assert (change.game_id, change.kind, change.made_by_id, change.reason) == (game.pk, "submission", one.user_id, "")
    assert before <= change.made_at <= timezone.now()
    assert change.before == {"status": "open", "winner": None, "decided_by": None, "claimed_winner": None}
    assert (
        change.after
        == game_state(game)
        == {**change.before, "status": "awaiting_confirmation", "claimed_winner": one.handle}
    )
    assert change.source == {"log": log.pk}


def test_the_load_links_the_log_to_its_game_match_and_players(django_assert_num_queries) -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=3)
    log = pending_log(match, winner_seat=0, user=one.user)
    with transaction.atomic():
        loaded = log_load_for_verification(log.pk)
    assert loaded is not None
    with django_assert_num_queries(0):  # all cached by the load
        game = loaded.log.game
        players = [player.handle for player in game.match.players]
    assert (game.pk, game.match.pk, players) == (log.game_id, match.pk, [one.handle, two.handle])
    assert loaded.games == [(1, "open", None)] and loaded.submitter == one.pk and not loaded.has_others
