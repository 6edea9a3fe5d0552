"""The "play again" offer's row and what the players' states show of it (no import of the referee).

`table_finish` makes the offer when a match table's game is over, under the
table row's lock; `again.py` answers it. The view the states show is kept on
the table row (`Table.again`) so that a state is still built from that row
alone.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from ..models import Table, TableAgain


def again_view(*, table: Table, offer: TableAgain) -> dict[str, Any]:
    """The `again` state key: who accepted (handles), when the offer lapses (epoch ms), the new table or None."""
    return {
        "status": offer.status,
        "offered_by": [table.players[seat] for seat in offer.accepted],
        "declined_by": None if offer.declined_by is None else table.players[offer.declined_by],
        "expires_at": int(offer.expires_at.timestamp() * 1000),
        "table": offer.next_table_id,
    }


def again_offer(*, table: Table) -> None:
    """Offer the players of a match table just over to play again (the caller holds the row's lock and saves
    `again` with the game's end). A practice table has no match to go on with: nothing is offered."""
    if table.game_id is None:
        return
    expires = timezone.now() + timedelta(seconds=settings.SPEED_AGAIN_TTL_SECONDS)
    offer = TableAgain.objects.create(table=table, expires_at=expires)  # a game ends once: one offer a table
    table.again = again_view(table=table, offer=offer)
