"""The states a process builds right after its own change: no database read, the same as read back."""

from __future__ import annotations

import orjson
import pytest

from play.latest import latest_build
from play.messages import Intent
from play.models import Table
from play.selectors import table_state
from play.services import live_game_build, table_intent, table_open_for_game
from speedrules.cards import CARD_NAMES
from tests.factories import make_match, make_player
from tests.queries import database_queries

from .conftest import fixed_deck


def _without_clock(state: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in state.items() if key not in ("t", "now")}


@pytest.mark.django_db(transaction=True)
def test_a_play_returns_every_seats_state_built_without_reading_the_database() -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=fixed_deck())
    for seat in (0, 1):
        table_intent(table_id=table.pk, seat=seat, intent=Intent("ready", None))
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, started_at=0)
    game = live_game_build(Table.objects.get(pk=table.pk))
    seat = 0 if game.state.legal_single_plays(0) else 1
    card, pile = game.state.legal_single_plays(seat)[0]

    with database_queries() as queries:
        play = Intent("play", "a", {"card": CARD_NAMES[card], "pile": pile})
        reply = table_intent(table_id=table.pk, seat=seat, intent=play)
        assert reply.table is not None
        latest = latest_build(reply.table)
    assert reply.changed and latest is not None and latest.v == reply.v
    # The play's own statements, and none for the states: the lock (with the ref's check), the ref,
    # the event, the row's update, the commit.
    statements = [sql.split()[0] for sql in queries]
    assert statements == ["BEGIN", "SELECT", "INSERT", "INSERT", "UPDATE", "COMMIT"], statements

    stored = Table.objects.get(pk=table.pk)
    assert stored.v == latest.v and stored.event_count == 1
    for shown in (None, 0, 1):
        assert _without_clock(orjson.loads(latest.states[shown])) == _without_clock(
            table_state(table=stored, seat=shown)
        )
