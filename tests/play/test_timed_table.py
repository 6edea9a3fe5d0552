"""A timed match at a table: the clock in every state, the end at the limit, the score by cards played."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from asgiref.sync import async_to_sync
from django.db.models import F

from matches.models import Game
from matches.placings import timed_places
from matches.services import match_create
from play.acting import tables_sweep
from play.models import Table, TableEvent
from play.services import table_open_for_game
from replays.models import MatchLog
from speedrules import verify_bytes
from tests.factories import make_player

from .conftest import Seat, driver_move, find_deck, game_now, table_now

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 60_000


def _open_timed() -> tuple[Table, list[Any]]:
    people = [make_player(handle) for handle in ("alice", "ben")]
    match = match_create(players=[person.handle for person in people], ruleset="speed", best_of=1, time_limit_ms=LIMIT)
    deck = find_deck("speed", lambda types, result, deck: types[:6] == ["play"] * 6)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=people[0].user, deck=deck)
    return table, [person.user for person in people]


async def _start_and_play(table: Table, users: list[Any], plays: int) -> tuple[list[Seat], Seat]:
    seats = [Seat(table.pk, user) for user in users]
    watcher = Seat(table.pk)
    for seat in (*seats, watcher):
        await seat.connect()
    for seat in seats:
        await seat.send({"type": "ready"})
    await seats[0].until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
    for _ in range(plays):
        move = driver_move((await game_now(table.pk)).state)
        assert move is not None
        seat, card, pile = move
        before = (await table_now(table.pk)).v
        await seats[seat].send({"type": "play", "card": card, "pile": pile, "ref": f"p{before}"})
        await seats[0].until(lambda state, before=before: state["v"] > before)
    return seats, watcher


def _played_per_seat(table: Table) -> list[int]:
    played = [0, 0]
    for event in TableEvent.objects.filter(table=table, data__type="play").values_list("data", flat=True):
        played[event["player"]] += len(event.get("cards", [event.get("card")]))
    return played


def _assert_decided_by_time(table: Table) -> None:
    table.refresh_from_db()
    assert table.status == Table.Status.OVER and table.ended is not None and table.ended["by"] == "time"
    events = list(TableEvent.objects.filter(table=table).order_by("index").values_list("data", flat=True))
    assert events and all(event["t"] <= LIMIT for event in events)
    played = _played_per_seat(table)
    assert table.ended["played"] == played
    log = MatchLog.objects.get(pk=table.log_id)
    assert log.provenance == MatchLog.Provenance.TABLE and log.status == MatchLog.Status.VERIFIED, log.message
    document = orjson.loads(bytes(log.data))
    assert document["table"]["ended"]["by"] == "time" and document["table"]["ended"]["t"] == LIMIT
    verdict = verify_bytes(bytes(log.data))
    assert verdict.valid and verdict.cards_played_by(LIMIT) == tuple(played)
    assert log.timed_scores == played
    game = Game.objects.get(pk=table.game_id)
    places = timed_places(played=played, left_at_limit=log.cards_left, caller=None)
    assert log.places == list(places)
    if places.count(1) == 1:
        assert game.status == Game.Status.DECIDED and game.decided_by == Game.DecidedBy.TABLE
        assert game.winner is not None and game.winner.handle == ("alice", "ben")[places.index(1)]


def test_a_timed_matchs_table_carries_its_limit_and_shows_the_clock_to_a_spectator() -> None:
    table, users = _open_timed()
    assert table.settings["time_limit_ms"] == LIMIT

    async def scenario() -> dict[str, Any]:
        seats, watcher = await _start_and_play(table, users, plays=1)
        state = await watcher.until(lambda state: state["status"] in ("playing", "stuck"))
        for seat in (*seats, watcher):
            await seat.close()
        return state

    state = async_to_sync(scenario)()
    table.refresh_from_db()
    assert table.started_at is not None
    assert state["you"] is None
    assert state["time_limit"] == {
        "limit_ms": LIMIT,
        "started_at": table.started_at,
        "ends_at": table.started_at + LIMIT,
    }


def test_the_tick_at_the_limit_ends_the_game_on_the_cards_played_and_the_log_decides_it() -> None:
    table, users = _open_timed()

    async def scenario() -> dict[str, Any]:
        seats, watcher = await _start_and_play(table, users, plays=5)
        current = await table_now(table.pk)
        assert current.started_at is not None
        await _sweep(current.started_at + LIMIT - 1)
        assert (await table_now(table.pk)).status != Table.Status.OVER  # not yet
        await _sweep(current.started_at + LIMIT)
        over = await watcher.until(lambda state: state["status"] == "over")
        await seats[0].send({"type": "play", "card": "2H", "pile": 0, "ref": "late"})
        assert (await seats[0].refusal())["code"] == "game_over"
        for seat in (*seats, watcher):
            await seat.close()
        return over

    over = async_to_sync(scenario)()
    assert over["ended"]["by"] == "time" and over["ended"]["t"] == LIMIT and over["ended"]["seat"] is None
    assert over["result"]["by"] == "time"
    _assert_decided_by_time(table)


def test_a_play_after_the_limit_is_refused_and_ends_the_game() -> None:
    table, users = _open_timed()

    async def scenario() -> dict[str, Any]:
        seats, watcher = await _start_and_play(table, users, plays=3)
        # The game's clock is put past its limit (no wait): its start moved back, as no timer fired yet.
        await _shift_start(table.pk, LIMIT + 1_000)
        move = driver_move((await game_now(table.pk)).state)
        assert move is not None
        seat, card, pile = move
        await seats[seat].send({"type": "play", "card": card, "pile": pile, "ref": "after"})
        refusal = await seats[seat].refusal()
        over = await watcher.until(lambda state: state["status"] == "over")
        for each in (*seats, watcher):
            await each.close()
        return {"refusal": refusal, "over": over}

    seen = async_to_sync(scenario)()
    assert seen["refusal"]["code"] == "time_up"
    assert seen["over"]["ended"]["by"] == "time"
    _assert_decided_by_time(table)


async def _sweep(now: int) -> Any:
    from asgiref.sync import sync_to_async

    return await sync_to_async(tables_sweep)(now=now)  # the beat's sweep: it fires the table and tells its sockets


async def _shift_start(table_id: int, by_ms: int) -> None:
    from asgiref.sync import sync_to_async

    def shift() -> None:
        Table.objects.filter(pk=table_id).update(started_at=F("started_at") - by_ms, due_at=F("due_at") - by_ms)

    await sync_to_async(shift)()


def test_the_demo_seeds_timed_match_opens_its_tables_with_the_limit() -> None:
    from web.management.commands.seed_demo import TABLES

    timed = [(players, ruleset, options) for players, ruleset, options, _ in TABLES if options.get("time_limit_ms")]
    assert timed, "the demo seeds a timed match"
    for players, ruleset, options in timed:
        people = [make_player(handle) for handle in players]
        match = match_create(players=list(players), ruleset=ruleset, **options)
        table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=people[0].user)
        assert table.settings["time_limit_ms"] == options["time_limit_ms"] == match.time_limit_ms
