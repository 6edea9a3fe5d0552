from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from play.models import Table
from play.services import table_open_for_game
from tests.factories import make_match, make_player

from .conftest import Seat, fixed_deck, table_game


@pytest.mark.django_db(transaction=True)
def test_two_players_ready_countdown_and_play() -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    game = match.games.get(number=1)
    table, created = table_open_for_game(game_id=game.pk, user=alice.user, deck=fixed_deck())
    assert created

    async def scenario() -> None:
        one, two = Seat(table.pk, alice.user), Seat(table.pk, ben.user)
        first = await one.connect()
        assert first["you"] == 0 and first["status"] == "waiting" and first["hand"] is None
        await two.connect()
        await one.send({"type": "ready"})
        await two.send({"type": "ready"})
        state = await one.until(lambda s: s["status"] == "playing", timeout=5)
        assert state["t"] is not None
        live = await sync_to_async(table_game)(table.pk)
        plays = live.state.legal_single_plays(0)
        assert plays
        from speedrules.cards import CARD_NAMES

        card, pile = plays[0]
        await one.send({"type": "play", "card": CARD_NAMES[card], "pile": pile, "ref": "a1"})
        state = await two.until(lambda s: s["last"] is not None and s["last"]["type"] == "play")
        assert state["last"]["card"] == CARD_NAMES[card]
        assert state["hand"] != (await one.until(lambda s: s["last"] is not None))["hand"]
        await one.close()
        await two.close()

    async_to_sync(scenario)()
    assert Table.objects.get(pk=table.pk).event_count == 1


@pytest.mark.django_db(transaction=True)
def test_the_starters_stay_face_down_until_t_zero() -> None:
    """speed-table/1 section 4: in `waiting` and `countdown` the piles show no card, only their counts."""
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=fixed_deck())

    async def scenario() -> None:
        one, two = Seat(table.pk, alice.user), Seat(table.pk, ben.user)
        waiting = await one.connect()
        assert waiting["status"] == "waiting"
        assert waiting["piles"] == [None, None] and waiting["pile_counts"] == [1, 1]
        await two.connect()
        await one.send({"type": "ready"})
        await two.send({"type": "ready"})
        countdown = await one.until(lambda s: s["status"] == "countdown", timeout=5)
        assert countdown["piles"] == [None, None] and countdown["pile_counts"] == [1, 1]
        playing = await one.until(lambda s: s["status"] == "playing", timeout=5)
        assert all(playing["piles"]) and playing["t"] is not None
        await one.close()
        await two.close()

    async_to_sync(scenario)()
