"""The channel layer's group of a table: every connection to it, in every server process."""

from __future__ import annotations

from typing import Any

from channels.layers import get_channel_layer


def table_group(table_id: int) -> str:
    return f"play.table.{table_id}"


async def table_changed_notify(table_id: int, v: int) -> None:
    """Nudge every connection of the table: each reads the state from the database and sends it if newer.

    A nudge carries no state: the Redis layer drops messages beyond a group's
    capacity, and the database is the truth anyway.
    """
    layer: Any = get_channel_layer()
    await layer.group_send(table_group(table_id), {"type": "table.changed", "v": v})
