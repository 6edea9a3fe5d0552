"""The end of a table's game: the speed-log/1 document with its `table` key, stored as the game's log.

A match table's log goes through the normal submission with provenance "the
table" and is verified by the workers like any log; once verified it decides
the game (`decided_by: "table"`). A game ended early (a resign or a claim,
amendment L4) is the table's own decision: its log is stored as the evidence
of the cards played (provenance "forfeit", every event still checked by the
engine) and the game is decided at once as a forfeit. A practice table's log
is stored the same way with provenance "practice" and no game: verified by the
workers after the final play commits, it decides nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import orjson
from django.db import transaction

from core.errors import ApplicationError
from matches.models import Player
from matches.services import game_forfeit
from replays.models import MatchLog, SolitaireRun
from replays.services import log_submit_from_table, log_submit_practice, solitaire_submit_from_table
from speedrules import Judge

from ..models import Table
from .again_offers import again_offer

logger = logging.getLogger(__name__)

RECORDER = "speed table (speed-table/1)"


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ended before its end: `seat` resigned, or claimed, at the game's `t`; every seat's place.

    `by == "time"` is a timed game's limit (no seat): its log is the table's like a finished game's, and
    verification places the seats on the cards played by the limit, as it places any timed game.
    """

    by: str
    seat: int | None
    t: int
    places: list[int]

    @property
    def forfeit(self) -> bool:
        return self.by != "time"


def table_document(
    *, table: Table, events: list[dict[str, Any]], result: dict[str, Any], ending: Ending | None = None
) -> dict[str, Any]:
    """The table's speed-log/1 log: the deck dealt, every event recorded, the result, and the deck's proof."""
    proof: dict[str, Any] = {"id": table.pk, "deck_sha256": table.deck_sha256, "salt": table.salt}
    if ending is not None:
        proof["ended"] = {"by": ending.by, "seat": ending.seat, "t": ending.t, "places": ending.places}
    return {
        "format": "speed-log/1",
        "ruleset": table.ruleset,
        "players": list(table.players),
        "deck": list(table.deck),
        "events": events,
        "result": result,
        "recorder": RECORDER,
        "table": proof,
    }


def _solitaire_run(table: Table, data: bytes) -> SolitaireRun | None:
    """The run of a solitaire table whose one seat is a player's (an account without a player has none)."""
    player = Player.objects.filter(user_id=table.seat_users[0]).only("pk").first()
    if player is None:
        return None
    return solitaire_submit_from_table(data=data, player_id=player.pk, user_id=table.seat_users[0])


def table_finish(*, table: Table, game: Judge, result: dict[str, Any], ending: Ending | None = None) -> None:
    """Mark the table over with `result`, offer its players to play again and store its log (a helper under the
    table row's lock)."""
    table.status, table.result, table.stuck_at, table.flips = Table.Status.OVER, result, None, None
    again_offer(table=table)
    data = orjson.dumps(table_document(table=table, events=game.events, result=result, ending=ending))
    if table.game_id is None:
        table.log = log_submit_practice(data=data)
        if len(table.players) == 1 and ending is None:  # a Speed Solitaire run: also the player's, ranked
            table.solitaire_run = _solitaire_run(table, data)
        return
    forfeit = ending is not None and ending.forfeit
    provenance = MatchLog.Provenance.FORFEIT if forfeit else MatchLog.Provenance.TABLE
    try:
        with transaction.atomic():  # the log and the forfeit together, or neither
            table.log = log_submit_from_table(game_id=table.game_id, data=data, provenance=provenance)
            if ending is not None and ending.forfeit:
                assert ending.seat is not None
                game_forfeit(
                    game_id=table.game_id,
                    places=tuple(ending.places),
                    by=ending.by,
                    seat=ending.seat,
                    t=ending.t,
                    table_id=table.pk,
                )
    except ApplicationError:
        # The game was decided meanwhile (an organiser, reports): the table's game is over all the same.
        logger.warning("table %s: its game %s took no log", table.pk, table.game_id, exc_info=True)
