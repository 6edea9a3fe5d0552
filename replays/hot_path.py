"""The verification path's reads and writes, in plain SQL: the one module that knows them.

Verification is the pipeline's hot path (the bar, `manage.py bench_pipeline`:
verified logs per second at least half the rate of a no-op task on the same
worker). Measured on this machine, the same flow through the ORM verified
about half as many logs per second as this module (ORM 81/s against SQL
144/s in one paired run): the ORM spends more time building each statement
than PostgreSQL spends running it. So the usual case, the lock and reads,
the verdict, and a game decided while its match goes on, is plain SQL sent
through a statement pipeline (two round trips: the lock and reads, then the
writes and the Sync that commits them, in the transaction the protocol gives
a pipeline, with no BEGIN and no COMMIT; `speedsite.db.atomic_pipeline`).
Everything rarer (a match that ends, a dispute) goes through
`matches.services` like any other caller; the rules themselves (the series
rule, which logs decide a game) stay in Python, shared with the ORM path.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

import orjson
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.base import ModelState

from matches.models import Game, Match, Player, ResultChange
from matches.series import GameRow
from speedsite.db import default_database, pipelined_cursor, pipelined_read

from .models import MatchLog


def _columns(model: Any, alias: str, wanted: set[str]) -> tuple[tuple[str, ...], str]:
    """The wanted fields in the model's own field order (as `Model.from_db` takes them), and their SQL."""
    fields = tuple(f.attname for f in model._meta.concrete_fields if f.attname in wanted)
    return fields, ", ".join(f"{alias}.{model._meta.get_field(name).column}" for name in fields)


_LOG_FIELDS, _LOG_SQL = _columns(
    MatchLog, "l", {"id", "game_id", "data", "status", "engine_version", "submitted_by_id"}
)
_GAME_FIELDS, _GAME_SQL = _columns(
    Game,
    "g",
    {
        "id",
        "match_id",
        "number",
        "status",
        "winner_id",
        "decided_by",
        "decided_at",
        "reported_by_one_id",
        "reported_by_two_id",
        "claimed_winner_id",
        "claimed_by_id",
        "claim_source",
        "confirm_by",
    },
)
_MATCH_FIELDS, _MATCH_SQL = _columns(
    Match,
    "m",
    {
        "id",
        "status",
        "series",
        "series_length",
        "player_one_id",
        "player_two_id",
        "player_three_id",
        "player_four_id",
        "points_per_place",
        "time_limit_ms",
        "confirmation",
        "confirm_within",
    },
)
_PLAYER_FIELDS, _P1_SQL = _columns(Player, "p1", {"id", "handle"})
_, _P2_SQL = _columns(Player, "p2", {"id", "handle"})
# Every change to a match, its games or their logs holds the match row's lock, so
# a verification takes it first, in a statement of its own, and only then reads:
# in READ COMMITTED each statement sees what was committed before it began, so
# the read sees everything the lock's previous holder wrote.
_LOCK_MATCH_OF_LOG = """
SELECT m.id
  FROM matches_match m
  JOIN matches_game g ON g.match_id = m.id
  JOIN replays_matchlog l ON l.game_id = g.id
 WHERE l.id = %s
"""
# The match row alone: a log row is written only by its verification, which holds the
# match lock (a submission inserts new rows). Locking the log too cost the server a
# tuple lock and its WAL record per log, for nothing.
_FOR_UPDATE_OF_MATCH = " FOR UPDATE OF m"  # not on SQLite (the demo), which locks the whole database
# The match's games as one JSON array of [number, status, winner] (one statement fewer per log).
_GAMES_AS_JSON = {
    False: "json_group_array(json_array(mg.number, mg.status, mg.winner_id))",  # SQLite
    True: "json_agg(json_build_array(mg.number, mg.status, mg.winner_id))",  # PostgreSQL
}
_LOAD_TEMPLATE = f"""
SELECT {_LOG_SQL}, {_GAME_SQL}, {_MATCH_SQL}, {_P1_SQL}, {_P2_SQL},
       EXISTS (SELECT 1 FROM replays_matchlog o WHERE o.game_id = l.game_id AND o.id <> l.id),
       (SELECT sp.id FROM matches_player sp WHERE sp.user_id = l.submitted_by_id),
       (SELECT {{games_as_json}} FROM matches_game mg WHERE mg.match_id = g.match_id)
  FROM replays_matchlog l
  JOIN matches_game g ON g.id = l.game_id
  JOIN matches_match m ON m.id = g.match_id
  JOIN matches_player p1 ON p1.id = m.player_one_id
  JOIN matches_player p2 ON p2.id = m.player_two_id
 WHERE l.id = %s
"""  # noqa: S608 - column names come from the models, the id is a parameter
_LOAD_FOR_VERIFICATION = {
    postgresql: _LOAD_TEMPLATE.format(games_as_json=_GAMES_AS_JSON[postgresql]) for postgresql in (False, True)
}
_WRITE_VERDICT = """
UPDATE replays_matchlog
   SET status = %s, code = %s, event = %s, message = %s, winner_seat = %s, winner_id = %s,
       cards_left = %s, engine_version = %s, verified_at = %s, judgements = judgements + 1
 WHERE id = %s
"""
# A game's result and claim columns, written together whatever changed (the decision clears the claim).
_WRITE_GAME = """
UPDATE matches_game
   SET status = %s, winner_id = %s, decided_by = %s, decided_at = %s,
       claimed_winner_id = %s, claimed_by_id = %s, claim_source = %s, confirm_by = %s
 WHERE id = %s
"""


def _insert_statement(model: Any) -> tuple[list[Any], str]:
    """An INSERT of every column that reads nothing back (no RETURNING), so it waits for the commit."""
    fields = [field for field in model._meta.local_concrete_fields if field is not model._meta.auto_field]
    sql = "INSERT INTO {table} ({columns}) VALUES ({values})".format(  # noqa: S608 - names from the model
        table=model._meta.db_table,
        columns=", ".join(field.column for field in fields),
        values=", ".join(["%s"] * len(fields)),
    )
    return fields, sql


_GAME_INSERT = _insert_statement(Game)
_CARDS_LEFT = MatchLog._meta.get_field("cards_left")
_CHANGE_INSERT = _insert_statement(ResultChange)


def _when(value: Any, db: BaseDatabaseWrapper) -> Any:
    """A datetime as the ORM itself would write it (on SQLite: the same text form, so
    comparisons and ordering agree with what the ORM stored)."""
    return db.ops.adapt_datetimefield_value(value)


def _insert_params(instance: Any, statement: tuple[list[Any], str], db: BaseDatabaseWrapper) -> list[Any]:
    """The values the model itself would save for a new row (its defaults included)."""
    fields, _sql = statement
    return [field.get_db_prep_save(field.pre_save(instance, add=True), db) for field in fields]


def _insert(instance: Any, statement: tuple[list[Any], str], db: BaseDatabaseWrapper) -> None:
    """Insert a new row with the values the model itself would save (its defaults included)."""
    with pipelined_cursor() as cursor:
        cursor.execute(statement[1], _insert_params(instance, statement, db))


class Change(NamedTuple):
    """A game's history row (a `ResultChange`) as the hot path writes it: the fields it sets."""

    match_id: int
    game_id: int
    kind: str
    made_by_id: int | None
    made_at: datetime
    before: dict[str, Any]
    after: dict[str, Any]
    source: dict[str, Any]


def _change_params(change: Change, db: BaseDatabaseWrapper) -> list[Any]:
    """The history row's INSERT values as the model would save them, in the statement's column
    order (a field the model gains and this does not set fails here, loudly). Without an
    instance and the fields' `get_db_prep_save`: 87 us less per verification."""
    json = db.ops.adapt_json_value  # the ORM's own JSON adaptation (these fields have no encoder)
    values = {
        **change._asdict(),
        "made_at": _when(change.made_at, db),
        "reason": "",  # the model's blank default
        "before": json(change.before, None),
        "after": json(change.after, None),
        "source": json(change.source, None),
    }
    return [values[field.attname] for field in _CHANGE_INSERT[0]]


def _from_row(model: Any, db: str, fields: tuple[str, ...], values: Any) -> Any:
    """An instance of `model` as `Model.from_db(db, fields, values)` makes it, the fields not
    loaded deferred, without running `Model.__init__`: eight times cheaper (1.4 us against 11.6
    for a match), and five instances per verification. (`__init__` sends `pre_init` and
    `post_init`, which none of these models' fields listen to.)"""
    instance = model.__new__(model)
    instance.__dict__.update(zip(fields, values, strict=True))
    state = instance._state = ModelState()
    state.adding, state.db = False, db
    return instance


_PLAYER_ONE, _PLAYER_TWO = Match._meta.get_field("player_one"), Match._meta.get_field("player_two")
_MATCH_OF_GAME, _GAME_OF_LOG = Game._meta.get_field("match"), MatchLog._meta.get_field("game")


class Loaded(NamedTuple):
    """A log locked for verification, with what deciding its game needs."""

    log: MatchLog  # with .game and .game.match (and its players); only the fields verification reads
    has_others: bool  # the game has other logs
    games: list[GameRow]  # the match's games as they stand
    submitter: int | None  # the player the log's submitter plays as, if any


def log_load_for_verification(log_id: int) -> Loaded | None:
    """Lock the log's match and the log, then load the log with its game, match and players,
    whether the game has other logs, and the match's games. None: no such log.

    The two statements go out together (`pipelined_read`: one round trip, one
    write to the socket); the load starts after the lock ended, so it sees what
    the lock's previous holder committed. Only the load's row is read (no log: no row).
    """
    database = default_database()
    lock = _FOR_UPDATE_OF_MATCH if database.features.has_select_for_update_of else ""
    load = _LOAD_FOR_VERIFICATION[database.vendor == "postgresql"]
    row = pipelined_read([(_LOCK_MATCH_OF_LOG + lock, [log_id]), (load, [log_id])])
    if row is None:
        return None
    db, at = database.alias, 0

    def take(model: Any, fields: tuple[str, ...]) -> Any:
        nonlocal at
        instance = _from_row(model, db, fields, row[at : at + len(fields)])
        at += len(fields)
        return instance

    log, game, match = take(MatchLog, _LOG_FIELDS), take(Game, _GAME_FIELDS), take(Match, _MATCH_FIELDS)
    # Into the relations' caches, where `match.player_one = ...` would put them (their ids are
    # loaded already), without the descriptors' database-router checks (2% of a verification's instructions).
    for relation, instance, related in (
        (_PLAYER_ONE, match, take(Player, _PLAYER_FIELDS)),
        (_PLAYER_TWO, match, take(Player, _PLAYER_FIELDS)),
        (_MATCH_OF_GAME, game, match),
        (_GAME_OF_LOG, log, game),
    ):
        relation.set_cached_value(instance, related)
    games = row[at + 2]
    if isinstance(games, str | bytes):  # JSON text on SQLite; psycopg parses PostgreSQL's json
        games = orjson.loads(games)
    return Loaded(log, bool(row[at]), [(number, status, winner) for number, status, winner in games], row[at + 1])


def _verdict_params(log: MatchLog, db: BaseDatabaseWrapper) -> list[Any]:
    return [
        log.status,
        log.code,
        log.event,
        log.message,
        log.winner_seat,
        log.winner_id,
        _CARDS_LEFT.get_db_prep_save(log.cards_left, db),
        log.engine_version,
        _when(log.verified_at, db),
        log.pk,
    ]


def log_write_verdict(log: MatchLog) -> None:
    """Save the verdict's fields of `log` and count the judgement (queued until the next read or the commit)."""
    with pipelined_cursor() as cursor:
        cursor.execute(_WRITE_VERDICT, _verdict_params(log, default_database()))


def _game_params(game: Game, db: BaseDatabaseWrapper) -> list[Any]:
    return [
        game.status,
        game.winner_id,
        game.decided_by,
        _when(game.decided_at, db),
        game.claimed_winner_id,
        game.claimed_by_id,
        game.claim_source,
        _when(game.confirm_by, db),
        game.pk,
    ]


# The verdict, the game and its history row (and the next game, if one opens) in one
# statement: on PostgreSQL a WITH's data-modifying statements all run, once, whatever
# the main statement reads. One statement instead of three or four is that much less
# work per log for psycopg and for the server's parse-bind-execute.
_WRITE_ALL = "WITH verdict AS ({verdict}), game AS ({game}){opened} {change}".format(
    verdict=_WRITE_VERDICT.strip(), game=_WRITE_GAME.strip(), opened="{opened}", change=_CHANGE_INSERT[1]
)
_WRITE_ALL_SQL = _WRITE_ALL.format(opened="")
_WRITE_ALL_OPENING_SQL = _WRITE_ALL.format(opened=f", opened AS ({_GAME_INSERT[1]})")


def game_write(game: Game, *, change: Change, open_game: int | None = None, verdict_of: MatchLog | None = None) -> None:
    """Save a game's result and claim columns (already set on `game`), its history row, open game
    `open_game` of its match, if any, and the verdict of `verdict_of` when given (not yet written):
    all queued until the commit.

    Only for a claim, or a result that leaves the match going on; a match that
    ends goes through `matches.services`, which runs what follows (ratings, tournaments).
    """
    opened = None if open_game is None else Game(match_id=game.match_id, number=open_game)
    db = default_database()
    if verdict_of is not None and db.vendor == "postgresql":
        params = [*_verdict_params(verdict_of, db), *_game_params(game, db)]
        if opened is not None:
            params += _insert_params(opened, _GAME_INSERT, db)
        params += _change_params(change, db)
        with pipelined_cursor() as cursor:
            cursor.execute(_WRITE_ALL_SQL if opened is None else _WRITE_ALL_OPENING_SQL, params)
        return
    if verdict_of is not None:  # SQLite (the demo): no writes inside WITH
        log_write_verdict(verdict_of)
    with pipelined_cursor() as cursor:
        cursor.execute(_WRITE_GAME, _game_params(game, db))
        cursor.execute(_CHANGE_INSERT[1], _change_params(change, db))
    if opened is not None:
        _insert(opened, _GAME_INSERT, db)
