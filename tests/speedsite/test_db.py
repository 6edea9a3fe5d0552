"""speedsite.db: statements sent together in psycopg's pipeline mode, on the real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from matches.models import Game, Match
from speedsite.db import atomic_pipeline, pipelined_cursor, pipelined_read, statement_pipeline
from tests.factories import make_match, make_player

pytestmark = pytest.mark.django_db(transaction=True)

BAD_UPDATE = "UPDATE matches_match SET series_length = 0 WHERE id = %s"  # breaks a CHECK constraint


@pytest.fixture
def match() -> Match:
    return make_match(make_player(), make_player())


def test_a_pipelined_statement_waits_until_the_block_ends(match: Match) -> None:
    with pytest.raises(IntegrityError, match="match_series_length_positive"), transaction.atomic():  # noqa: SIM117
        with statement_pipeline():  # the statement is sent when this block ends
            with pipelined_cursor() as cursor:
                cursor.execute(BAD_UPDATE, [match.pk])  # queued: no error yet
            reached_after_the_bad_statement = True
    assert reached_after_the_bad_statement
    match.refresh_from_db()
    assert match.series_length == 3


def test_outside_a_pipeline_the_same_statement_fails_at_once(match: Match) -> None:
    with transaction.atomic(), pipelined_cursor() as cursor:
        with pytest.raises(IntegrityError):
            cursor.execute(BAD_UPDATE, [match.pk])
        transaction.set_rollback(True)


def test_orm_statements_inside_a_pipeline_wait_for_their_answers(match: Match) -> None:
    """The ORM reads row counts and ids right after executing; in the pipeline it still can."""
    game = match.games.get()
    with transaction.atomic(), statement_pipeline():
        with pipelined_cursor() as cursor:  # a queued write before the ORM's statements
            cursor.execute("UPDATE matches_game SET decided_by = %s WHERE id = %s", ["log", game.pk])
        game.status = Game.Status.DISPUTED
        game.save(update_fields=["status"])  # raises if its UPDATE seemed to touch no row
        assert Match.objects.filter(pk=match.pk).update(ruleset_name="renamed") == 1
        second = Game.objects.create(match=match, number=2)  # INSERT ... RETURNING id
        assert second.pk is not None
    game.refresh_from_db()
    assert (game.status, game.decided_by) == (Game.Status.DISPUTED, "log")
    assert Match.objects.get(pk=match.pk).ruleset_name == "renamed"


def test_an_orm_error_inside_a_pipeline_is_raised_by_its_own_statement(match: Match) -> None:
    with transaction.atomic(), statement_pipeline():
        with pytest.raises(IntegrityError, match="game_number_unique_in_match"), transaction.atomic():
            Game.objects.create(match=match, number=1)  # the first game already has number 1
        Game.objects.create(match=match, number=2)  # the savepoint rolled back; the transaction goes on
    assert sorted(match.games.values_list("number", flat=True)) == [1, 2]


def test_reads_on_cursors_of_their_own_are_sent_together_and_each_keeps_its_result(match: Match) -> None:
    with (
        transaction.atomic(),
        statement_pipeline(),
        pipelined_cursor(shared=False) as first,
        pipelined_cursor(shared=False) as second,
    ):
        first.execute("SELECT series_length FROM matches_match WHERE id = %s", [match.pk])
        second.execute("SELECT number FROM matches_game WHERE match_id = %s", [match.pk])
        assert second.fetchall() == [(1,)]
        assert first.fetchone() == (3,)


def test_nested_pipelines_join_the_outer_one(match: Match) -> None:
    with pytest.raises(IntegrityError), transaction.atomic(), statement_pipeline():
        with statement_pipeline(), pipelined_cursor() as cursor:
            cursor.execute(BAD_UPDATE, [match.pk])
        left_the_inner_block = True  # the inner block's end did not send the statement
    assert left_the_inner_block


def test_postgresql_plans_a_statement_once_a_connection_has_run_it_five_times(match: Match) -> None:
    """Server-side binding with a prepare threshold (settings): without it every run is planned anew."""
    query = "SELECT status FROM matches_match WHERE id = %s AND series_length > 0"
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute(query, [match.pk])
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", [query[:30] + "%"])
        assert cursor.fetchone() == (1,)


def frontend_messages(trace: str, kind: str) -> int:
    """How many protocol messages of `kind` (Sync, Query, ...) libpq's trace shows the client sent."""
    return sum(1 for line in trace.splitlines() if line.split("\t")[1:2] == ["F"] and f"\t{kind}" in line)


@contextmanager
def protocol_trace(path: Path) -> Iterator[list[str]]:
    """libpq's trace of this connection's messages while the block runs (the text is appended when it ends)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    text: list[str] = []
    with open(path, "w") as file:
        pgconn.trace(file.fileno())
        try:
            yield text
        finally:
            pgconn.untrace()
    text.append(path.read_text())


def test_an_atomic_pipeline_runs_in_the_transaction_the_protocol_gives_a_pipeline(match: Match, tmp_path: Path) -> None:
    """No BEGIN, no COMMIT: one round trip for the read (a flush), one for the write, whose Sync commits it."""
    with protocol_trace(tmp_path / "trace") as trace, atomic_pipeline(), pipelined_cursor() as cursor:
        cursor.execute("SELECT series_length FROM matches_match WHERE id = %s", [match.pk])
        assert cursor.fetchone() == (3,)
        cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
    assert frontend_messages(trace[0], "Query") == 0  # psycopg sent no BEGIN or COMMIT of its own (a simple Query)
    assert frontend_messages(trace[0], "Sync") == 1  # the block's end: the write, and the commit
    assert "BEGIN" not in trace[0] and "COMMIT" not in trace[0]
    assert Match.objects.get(pk=match.pk).ruleset_name == "renamed"
    assert connection.get_autocommit() and connection.connection.autocommit


def test_an_exception_in_an_atomic_pipeline_commits_nothing_it_queued(match: Match) -> None:
    with pytest.raises(RuntimeError), atomic_pipeline(), pipelined_cursor() as cursor:
        cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
        raise RuntimeError("an engine bug, say")
    assert Match.objects.get(pk=match.pk).ruleset_name == match.ruleset_name
    assert connection.get_autocommit() and connection.connection.autocommit


TRY_LOCK = "SELECT id FROM matches_match WHERE id = %s FOR UPDATE NOWAIT"


@pytest.fixture
def other() -> Iterator[psycopg.Connection]:
    """A second connection to the test database, to try the locks the block holds."""
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"], host=settings["HOST"], port=settings["PORT"], user=settings["USER"], autocommit=True
    ) as other:
        yield other


def test_a_lock_an_atomic_pipeline_takes_is_held_until_it_ends(match: Match, other: psycopg.Connection) -> None:
    """Reads use flush requests, not Syncs: the transaction, and its row lock, outlive the read."""
    with atomic_pipeline(), pipelined_cursor() as cursor:
        cursor.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match.pk])
        assert cursor.fetchone() == (match.pk,)
        with pytest.raises(psycopg.errors.LockNotAvailable):
            other.execute(TRY_LOCK, [match.pk])
    assert other.execute(TRY_LOCK, [match.pk]).fetchone() == (match.pk,)


def test_an_orm_statement_makes_the_atomic_pipelines_transaction_explicit(match: Match, tmp_path: Path) -> None:
    """The ORM's statement waits with a Sync, which must not commit what came before: a BEGIN goes first."""
    game = match.games.get()
    with pytest.raises(RuntimeError), atomic_pipeline():
        with pipelined_cursor() as cursor:
            cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
        Game.objects.filter(pk=game.pk).update(decided_by="log")
        raise RuntimeError("roll back")
    assert (Match.objects.get(pk=match.pk).ruleset_name, Game.objects.get(pk=game.pk).decided_by) == (
        match.ruleset_name,
        "",
    )
    with protocol_trace(tmp_path / "trace") as trace, atomic_pipeline():
        with pipelined_cursor() as cursor:
            cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
        Game.objects.filter(pk=game.pk).update(decided_by="log")
    sent = [line for line in trace[0].splitlines() if line.split("\t")[1:2] == ["F"]]
    assert [sum('"BEGIN"' in line for line in sent), sum('"COMMIT"' in line for line in sent)] == [1, 1]
    assert (Match.objects.get(pk=match.pk).ruleset_name, Game.objects.get(pk=game.pk).decided_by) == ("renamed", "log")


def test_an_atomic_pipeline_runs_on_commit_callbacks_after_its_commit(match: Match) -> None:
    seen: list[str] = []
    with atomic_pipeline():
        with pipelined_cursor() as cursor:
            cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
        transaction.on_commit(lambda: seen.append(Match.objects.get(pk=match.pk).ruleset_name))
        assert seen == []
    assert seen == ["renamed"]


def test_an_atomic_pipeline_that_fails_or_is_set_to_roll_back_commits_nothing(match: Match) -> None:
    game = match.games.get()
    with pytest.raises(IntegrityError), atomic_pipeline(), pipelined_cursor() as cursor:
        cursor.execute("UPDATE matches_game SET decided_by = %s WHERE id = %s", ["log", game.pk])
        cursor.execute(BAD_UPDATE, [match.pk])
    with atomic_pipeline():
        with pipelined_cursor() as cursor:
            cursor.execute("UPDATE matches_game SET decided_by = %s WHERE id = %s", ["log", game.pk])
        transaction.set_rollback(True)
    game.refresh_from_db()
    assert game.decided_by == ""
    # The connection is usable and back in autocommit, as after any atomic block.
    assert connection.get_autocommit() and connection.connection.autocommit
    assert Match.objects.filter(pk=match.pk).update(ruleset_name="after") == 1


def test_a_statement_after_a_pipeline_in_the_same_atomic_block_is_in_its_transaction(match: Match) -> None:
    """statement_pipeline() begins the atomic block's transaction itself; what follows the block is still in it."""
    before = (match.ruleset_name, match.series_length)
    with pytest.raises(RuntimeError), transaction.atomic():
        with statement_pipeline(), pipelined_cursor() as cursor:
            cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
        Match.objects.filter(pk=match.pk).update(series_length=5)
        raise RuntimeError("roll back")
    match.refresh_from_db()
    assert (match.ruleset_name, match.series_length) == before


LOCK_AND_READ = (
    "SELECT id FROM matches_match WHERE id = %s FOR UPDATE",
    "SELECT ruleset_name, series_length FROM matches_match WHERE id = %s",
)


def lock_and_read(match: Match) -> list[tuple[str, list[int]]]:
    return [(sql, [match.pk]) for sql in LOCK_AND_READ]


def test_an_atomic_pipelines_first_read_goes_through_libpq_prepared_once_per_connection(
    match: Match, tmp_path: Path
) -> None:
    """The statements go out with one flush request (no Sync: the lock outlives the read), named by us."""
    with protocol_trace(tmp_path / "first") as first, atomic_pipeline():
        assert pipelined_read(lock_and_read(match)) == (match.ruleset_name, 3)
    with protocol_trace(tmp_path / "second") as second, atomic_pipeline():
        assert pipelined_read(lock_and_read(match)) == (match.ruleset_name, 3)
    assert frontend_messages(first[0], "Parse") == 2 and "speed_" in first[0]
    assert frontend_messages(second[0], "Parse") == 0  # prepared on the first read
    for trace in (first[0], second[0]):
        lines = trace.splitlines()
        answered = next(n for n, line in enumerate(lines) if line.split("\t")[1:2] == ["B"])
        sent_first = "\n".join(lines[:answered])  # all of it went out before the server's first answer
        assert [frontend_messages(sent_first, kind) for kind in ("Bind", "Execute", "Flush", "Sync")] == [2, 2, 1, 0]
        assert frontend_messages(trace, "Sync") == 1  # the block's end, which commits


def test_a_lock_taken_by_a_libpq_read_is_held_until_the_block_ends(match: Match, other: psycopg.Connection) -> None:
    with atomic_pipeline():
        pipelined_read(lock_and_read(match))
        with pytest.raises(psycopg.errors.LockNotAvailable):
            other.execute(TRY_LOCK, [match.pk])
    assert other.execute(TRY_LOCK, [match.pk]).fetchone() == (match.pk,)


def test_a_libpq_read_prepares_again_after_psycopg_deallocated_every_statement(match: Match) -> None:
    """psycopg sends DEALLOCATE ALL after a rollback; the read must not fail for it."""
    with atomic_pipeline():
        pipelined_read(lock_and_read(match))
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    with atomic_pipeline(), pipelined_cursor() as cursor:
        assert pipelined_read(lock_and_read(match)) == (match.ruleset_name, 3)
        cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
    assert Match.objects.get(pk=match.pk).ruleset_name == "renamed"


def test_an_error_in_a_libpq_read_is_djangos_and_commits_nothing(match: Match) -> None:
    bad = [("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match.pk]), ("SELECT 1 / %s", [0])]
    with pytest.raises(DataError, match="division by zero"), atomic_pipeline():
        pipelined_read(bad)
    assert connection.get_autocommit() and connection.connection.autocommit
    with pytest.raises(DataError, match="division by zero"), atomic_pipeline():
        pipelined_read(bad)  # both statements were prepared the first time, whatever failed after
    assert Match.objects.filter(pk=match.pk).update(ruleset_name="after") == 1  # usable, and the lock is gone


def test_a_read_after_other_statements_or_inside_a_transaction_goes_through_a_cursor(
    match: Match, tmp_path: Path
) -> None:
    with protocol_trace(tmp_path / "after") as after, atomic_pipeline(), pipelined_cursor() as cursor:
        cursor.execute("UPDATE matches_match SET ruleset_name = %s WHERE id = %s", ["renamed", match.pk])
        assert pipelined_read(lock_and_read(match)) == ("renamed", 3)
    with protocol_trace(tmp_path / "inside") as inside, transaction.atomic(), atomic_pipeline():
        assert pipelined_read(lock_and_read(match)) == ("renamed", 3)
    assert "speed_" not in after[0] and "speed_" not in inside[0]


def test_django_records_a_libpq_reads_statements() -> None:
    match = make_match(make_player(), make_player())
    with CaptureQueriesContext(connection) as captured, atomic_pipeline():
        pipelined_read(lock_and_read(match))
    statements = [query["sql"] for query in captured.captured_queries]
    assert statements == ["BEGIN", *LOCK_AND_READ, "COMMIT"]  # (Django logs the transaction it runs)
