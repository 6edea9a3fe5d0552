"""Migration 0008 on a database with tournaments: each keeps its format's options, now in `Tournament.options`.

The rows are made with the models as they were before it (a column per option
of every format), then the migration runs forward, and back.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.formats import format_for

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0007_winner_stays_on_table_size")]
AFTER = [("tournaments", "0008_format_options")]

#: (format, its option columns as stored) -> the options object the migration makes.
ROWS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "single_elimination",
        {"seeding": "random", "rng_seed": 42, "third_place": True, "swiss_rounds": 9},
        {"seeding": "random", "rng_seed": 42, "third_place": True},
    ),
    (
        "double_elimination",
        {"grand_final_reset": False},
        {"seeding": "standard", "rng_seed": None, "grand_final_reset": False},
    ),
    ("round_robin", {"double_round_robin": True}, {"double_round_robin": True}),
    ("swiss", {"swiss_rounds": 5, "third_place": True}, {"swiss_rounds": 5}),
    (
        "winner_stays_on",
        {"max_matches": 12, "table_size": 3, "points_three": [3, 1, 0]},
        {"max_matches": 12, "table_size": 3, "points_three": [3, 1, 0], "points_four": None},
    ),
    (
        "groups_playoffs",
        {"group_count": 3, "advance_per_group": 1, "third_place": True},
        {"group_count": 3, "advance_per_group": 1, "double_round_robin": False, "third_place": True},
    ),
    (
        "tables",
        {"table_rounds": 2, "final_table_size": 3, "ruleset_three": {"players": 3}, "points_four": [5, 3, 1, 0]},
        {
            "table_rounds": 2,
            "final_table_size": 3,
            "ruleset_three": {"players": 3},
            "points_three": None,
            "points_four": [5, 3, 1, 0],
        },
    ),
]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_existing_tournaments_keep_their_options_forward_and_back() -> None:
    old = _migrate(BEFORE).get_model("tournaments", "Tournament")
    ids = {
        format: old.objects.create(
            name=format, format=format, series="best_of", series_length=1, ruleset={}, **columns
        ).pk
        for format, columns, _ in ROWS
    }
    try:
        # The model as it was at 0008 (later migrations add columns the database does not have yet).
        after = _migrate(AFTER).get_model("tournaments", "Tournament")
        for format, _, options in ROWS:
            tournament = after.objects.get(pk=ids[format])
            assert tournament.options == options, format
            # What the format reads is what was stored (a ruleset left empty reads as its preset).
            read = format_for(format).options.of(tournament).to_json()
            assert {name: read[name] for name in options} == options, format
        assert format_for("tables").options.of(after.objects.get(pk=ids["tables"])).ruleset_four == "four-way"

        back = _migrate(BEFORE).get_model("tournaments", "Tournament")
        for format, _, options in ROWS:
            row = back.objects.get(pk=ids[format])
            assert {name: getattr(row, name) for name in options} == options, format
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # every migration, for the tests after
