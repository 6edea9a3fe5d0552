"""Spectators counted: a row per spectator's connection, never the table's lock, pruned when its process died."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from play.models import Table, TableWatcher
from play.selectors import table_watching
from play.services import table_open_for_game
from play.services.live import now_ms, stale_after_ms
from play.services.watchers import watcher_add, watchers_prune
from play.tasks import watchers_prune_task
from tests.factories import make_match, make_player

from .conftest import Seat, fixed_deck

pytestmark = pytest.mark.django_db(transaction=True)


def _open() -> tuple[Table, list[Any]]:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=fixed_deck())
    return table, [alice.user, ben.user]


def _watching(table_id: int) -> int:
    answer = APIClient().get(f"/api/tables/{table_id}/")
    assert answer.status_code == 200
    return int(answer.json()["watching"])


def test_the_count_rises_and_falls_with_spectators_and_leaves_out_the_seats() -> None:
    table, users = _open()
    counts: list[int] = []

    async def count() -> None:
        counts.append(await sync_to_async(_watching)(table.pk))

    async def scenario() -> None:
        seated = Seat(table.pk, users[0])
        await seated.connect()
        await count()
        first = Seat(table.pk)
        await first.connect()
        await count()
        signed_in = Seat(table.pk, cleo)
        await signed_in.connect()
        await count()
        await first.close()
        await count()
        await signed_in.close()
        await count()
        await seated.close()

    cleo = make_player("cleo").user
    v_before = Table.objects.get(pk=table.pk).v
    async_to_sync(scenario)()
    assert counts == [0, 1, 2, 1, 0]
    assert not TableWatcher.objects.exists()
    # Watchers coming and going changed no state: only the seat's arrival and departure bumped `v`.
    assert Table.objects.get(pk=table.pk).v == v_before + 2


def test_a_signed_in_user_and_a_table_are_capped_and_past_the_cap_still_watch(settings: Any) -> None:
    settings.SPEED_TABLE_WATCHERS_PER_USER = 1
    settings.SPEED_TABLE_WATCHERS_PER_TABLE = 2
    table, _ = _open()
    cleo = make_player("cleo").user

    async def scenario() -> list[int]:
        tabs = [Seat(table.pk, cleo), Seat(table.pk, cleo)]
        for tab in tabs:
            await tab.connect()  # the second tab still gets the state
        counts = [await sync_to_async(table_watching)(table_id=table.pk)]
        others = [Seat(table.pk) for _ in range(3)]
        for other in others:
            assert (await other.connect())["you"] is None
        counts.append(await sync_to_async(table_watching)(table_id=table.pk))
        for tab in tabs + others:
            await tab.close()
        return counts

    assert async_to_sync(scenario)() == [1, 2]
    assert not TableWatcher.objects.exists()


def test_the_beat_runs_the_prune(settings: Any) -> None:
    assert "play.watchers_prune" in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


def test_the_prune_removes_only_the_stale_rows_of_dead_processes() -> None:
    table, _ = _open()
    assert watcher_add(table_id=table.pk, key="alive", user_id=None)
    assert watcher_add(table_id=table.pk, key="dead", user_id=None)
    TableWatcher.objects.filter(key="dead").update(last_seen=now_ms() - stale_after_ms() - 1)
    assert table_watching(table_id=table.pk) == 1  # a silent row is not counted, even before the prune
    assert watchers_prune_task.apply().get() == 1
    assert list(TableWatcher.objects.values_list("key", flat=True)) == ["alive"]
    assert watchers_prune() == 0


def test_a_spectators_heartbeat_keeps_its_row_fresh_and_adds_it_again_once_pruned(settings: Any) -> None:
    settings.SPEED_TABLE_HEARTBEAT_MS = 60
    table, _ = _open()

    async def scenario() -> None:
        watcher = Seat(table.pk)
        await watcher.connect()
        await sync_to_async(TableWatcher.objects.all().delete)()  # as a prune after an outage would
        for _ in range(100):
            if await sync_to_async(table_watching)(table_id=table.pk) == 1:
                break
            await watcher.communicator.receive_nothing(timeout=0.05)
        assert await sync_to_async(table_watching)(table_id=table.pk) == 1
        await watcher.close()

    async_to_sync(scenario)()
    assert not TableWatcher.objects.exists()


def test_a_spectator_is_counted_while_a_play_holds_the_tables_lock() -> None:
    """Watching waits on no lock: the row has no foreign key, whose check would wait behind FOR UPDATE."""
    table, _ = _open()

    async def scenario() -> int:
        watcher = Seat(table.pk)
        await watcher.connect()
        counted = await sync_to_async(table_watching)(table_id=table.pk)
        await watcher.close()
        return counted

    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)  # as the referee holds it through a play
        assert async_to_sync(scenario)() == 1
    assert not TableWatcher.objects.exists()


def test_the_schema_documents_watching_on_the_tables_detail_only() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    ok = schema["paths"]["/api/tables/{table_id}/"]["get"]["responses"]["200"]
    detail = schema["components"]["schemas"][ok["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
    assert detail["properties"]["watching"] == {**detail["properties"]["watching"], "type": "integer", "minimum": 0}
    assert "watching" in detail["required"]
    created = schema["paths"]["/api/tables/"]["post"]["responses"]["201"]["content"]["application/json"]["schema"]
    assert "watching" not in schema["components"]["schemas"][created["$ref"].rsplit("/", 1)[1]]["properties"]


async def _answer(seat: Seat, kind: str) -> dict[str, Any]:
    while True:
        message = await seat.receive()
        if message["type"] == kind:
            return message


def test_who_answers_over_the_socket_the_count_and_a_seats_opponents() -> None:
    table, users = _open()

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        seated = Seat(table.pk, users[0])
        await seated.connect()
        spectator = Seat(table.pk)
        await spectator.connect()
        await seated.send({"type": "who", "ref": "w1"})
        to_seat = await _answer(seated, "who")
        await spectator.send({"type": "who", "ref": "w2"})
        to_spectator = await _answer(spectator, "who")
        await spectator.close()
        await seated.close()
        return to_seat, to_spectator

    to_seat, to_spectator = async_to_sync(scenario)()
    assert to_seat["ref"] == "w1" and to_seat["watching"] == 1
    assert [(one["handle"], one["seated"]) for one in to_seat["opponents"]] == [("ben", False)]
    assert to_spectator == {"type": "who", "ref": "w2", "watching": 1, "opponents": None}
