"""The latest state of each table this process changed, built once per seat and shared by its connections.

Right after a change commits, the process that made it builds the table's
state once for each seat and once for spectators, from the row it just saved
and the game it just played (the per-process game cache), with no database
read. Every connection of this process then sends the one built for its seat.
A nudge for a newer `v` than the one kept here (another process changed the
table) is still answered from the database, which stays the truth.

Only the event loop's thread reads and writes the store; the states are built
in the sync thread and handed over as finished, immutable text.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from core.fifo_cache import FifoCache

from .models import Table
from .selectors import table_state
from .services import live_game_build

_MAX_KEPT = 512


@dataclass(frozen=True, slots=True)
class Latest:
    """The table at `v` as saved (never changed again), and its state as each seat (None: a spectator) sees it."""

    v: int
    table: Table
    states: dict[int | None, str]


_kept: FifoCache[int, Latest] = FifoCache(_MAX_KEPT)


def latest_build(table: Table) -> Latest:
    """The states of the table just saved (sync: the game comes from the cache the change filled)."""
    game = live_game_build(table)
    seats: list[int | None] = [None, *range(len(table.players))]
    return Latest(
        table.v,
        table,
        {seat: orjson.dumps(table_state(table=table, seat=seat, game=game)).decode() for seat in seats},
    )


def latest_keep(table_id: int, latest: Latest | None) -> None:
    """Keep the states unless a newer `v` is kept already (event loop's thread)."""
    if latest is None:
        return
    kept = _kept.get(table_id)
    if kept is not None and kept.v >= latest.v:
        return
    _kept.put(table_id, latest)


def latest_get(table_id: int) -> Latest | None:
    return _kept.get(table_id)


def latest_forget(table_id: int) -> None:
    """The process holds no connection to the table any more: its states would only go stale."""
    _kept.pop(table_id)
