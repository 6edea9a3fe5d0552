"""Migrations play 0004-0005 on a database with practice tables: each table's own log becomes a replays row.

The rows are made with the models as they were before (the bytes and code on the table), then the
migrations run forward, and back.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("play", "0003_presence_timers"), ("replays", "0011_forfeit")]
AFTER = [("play", "0005_drop_practice_log_columns")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _table(model: Any, **fields: Any) -> int:
    return model.objects.create(
        ruleset={},
        players=["pat", "bot-easy-1"],
        seat_users=[None, None],
        bots=[None, "easy"],
        deck=[],
        salt="s",
        deck_sha256="0" * 64,
        settings={},
        ready=[False, True],
        status="over",
        **fields,
    ).pk


def test_practice_tables_logs_move_into_replays_rows_forward_and_back() -> None:
    old = _migrate(BEFORE).get_model("play", "Table")
    data = b'{"format": "speed-log/1", "events": []}'
    practised = _table(old, practice_log=data, practice_log_code="ok")
    unplayed = _table(old)
    try:
        apps = _migrate(AFTER)
        table, log_model = apps.get_model("play", "Table"), apps.get_model("replays", "MatchLog")
        log = log_model.objects.get(pk=table.objects.get(pk=practised).log_id)
        assert (log.game_id, log.provenance, log.status) == (None, "practice", "pending")  # the workers judge it
        assert bytes(log.data) == data and (log.size, log.sha256) == (len(data), hashlib.sha256(data).hexdigest())
        assert table.objects.get(pk=unplayed).log_id is None and log_model.objects.count() == 1

        back = _migrate(BEFORE)
        row = back.get_model("play", "Table").objects.get(pk=practised)
        assert (bytes(row.practice_log), row.log_id) == (data, None)
        assert not back.get_model("replays", "MatchLog").objects.exists()
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # every migration, for the tests after
