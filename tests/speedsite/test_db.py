"""speedsite.db: statements sent together in psycopg's pipeline mode, on the real PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from matches.models import Game, Match
from speedsite.db import pipelined_cursor, statement_pipeline
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
