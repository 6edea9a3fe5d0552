"""The end of a table's game: the speed-log/1 document with its `table` key, stored as the game's log.

A match table's log goes through the normal submission with provenance "the
table" and is verified by the workers like any log; once verified it decides
the game (`decided_by: "table"`). A practice table keeps its own log bytes,
judged by the same engine at once.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson

from replays.services import log_submit_from_table
from speedrules import LiveGame, verify_bytes
from speedsite.errors import ApplicationError

from ..models import Table

logger = logging.getLogger(__name__)

RECORDER = "speed table (speed-table/1)"


def table_document(*, table: Table, events: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    """The table's speed-log/1 log: the deck dealt, every event recorded, the result, and the deck's proof."""
    return {
        "format": "speed-log/1",
        "ruleset": table.ruleset,
        "players": list(table.players),
        "deck": list(table.deck),
        "events": events,
        "result": result,
        "recorder": RECORDER,
        "table": {"id": table.pk, "deck_sha256": table.deck_sha256, "salt": table.salt},
    }


def table_finish(*, table: Table, game: LiveGame, result: dict[str, Any]) -> None:
    """Mark the table over with `result` and store its log (a helper under the table row's lock)."""
    table.status, table.result, table.stuck_at, table.flips = Table.Status.OVER, result, None, None
    data = orjson.dumps(table_document(table=table, events=game.events, result=result))
    if table.game_id is None:
        table.practice_log = data
        table.practice_log_code = str(verify_bytes(data).code)
        return
    try:
        table.log = log_submit_from_table(game_id=table.game_id, data=data)
    except ApplicationError:
        # The game was decided meanwhile (an organiser, reports): the table's game is over all the same.
        logger.warning("table %s: its game %s took no log", table.pk, table.game_id, exc_info=True)
