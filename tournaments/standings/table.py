"""Ranked standings from match records and an ordered list of tie-break keys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.generators.entrants import EntrantId

from .metrics import Record, ResultsTable, metric_for


@dataclass(frozen=True)
class StandingsRow:
    """One player's line: rank (shared when tied on every key) and each metric's value."""

    rank: int
    player: EntrantId
    values: Mapping[str, float]


def compute_standings(
    records: Iterable[Record], tie_breaks: Sequence[str], *, players: Sequence[EntrantId] = ()
) -> list[StandingsRow]:
    """Rank everyone in `players` and in `records` by `tie_breaks`, in order.

    Players equal on every key share a rank (1, 2, 2, 4) and keep the order of
    `players` (then first appearance in `records`). Raises `ValueError` for an
    unknown or repeated key, listing the known keys.
    """
    if len(set(tie_breaks)) != len(tie_breaks):
        raise ValueError(f"a tie-break is listed twice: {list(tie_breaks)}")
    metrics = [metric_for(key) for key in tie_breaks]
    table = ResultsTable(records, players)
    values: dict[EntrantId, dict[str, float]] = {player: {} for player in table.players}
    # Groups of players tied on every key so far, best group first.
    groups: list[list[EntrantId]] = [table.players] if table.players else []
    for metric in metrics:
        if metric.within_ties:
            computed: dict[EntrantId, float] = {}
            for group in groups:
                computed.update(metric.values(table, group))
        else:
            computed = metric.values(table, table.players)
        refined: list[list[EntrantId]] = []
        for group in groups:
            tied: list[EntrantId] = []
            for player in sorted(group, key=lambda player: -computed[player]):
                values[player][metric.key] = computed[player]
                if tied and computed[tied[0]] != computed[player]:
                    refined.append(tied)
                    tied = []
                tied.append(player)
            refined.append(tied)
        groups = refined
    rows: list[StandingsRow] = []
    for group in groups:
        rank = len(rows) + 1
        rows += [StandingsRow(rank, player, values[player]) for player in group]
    return rows
