"""Playing again after a match table's game: the offer, both accepts, a decline, the expiry, the race, the API."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import Conflict, NotAllowed
from matches.models import Game, Match, Player
from play.messages import Intent
from play.models import Table, TableAgain
from play.selectors import table_state
from play.services import (
    again_accept,
    again_decline,
    table_intent,
    table_open_for_game,
    table_practice_create,
    table_tick,
)
from play.tasks import again_expire_task
from replays.tasks import log_verify_task
from tests.factories import make_match, make_player
from tests.locks import wait_for_a_lock_waiter

from .conftest import driver_move, find_deck, fixed_deck, table_game

pytestmark = pytest.mark.django_db


def resigned(match: Match, number: int = 1) -> Table:
    """The table of the match's game `number`, readied, started by its countdown and resigned by seat 0."""
    opener = match.players[0].user
    table, _ = table_open_for_game(game_id=match.games.get(number=number).pk, user=opener, deck=fixed_deck())
    for seat in (0, 1):
        assert table_intent(table_id=table.pk, seat=seat, intent=Intent("ready", None)).refusal is None
    counting = Table.objects.get(pk=table.pk)
    assert counting.countdown_at is not None
    table_tick(table_id=table.pk, now=counting.countdown_at + counting.settings["countdown_ms"])
    assert table_intent(table_id=table.pk, seat=0, intent=Intent("resign", "r1")).refusal is None
    over = Table.objects.get(pk=table.pk)
    assert over.status == Table.Status.OVER
    return over


def played_out(match: Match) -> Table:
    """The table of the match's first game played to its won end by the tests' driver, timers fired when due.

    Here the commit never comes (the test's transaction), so the log stays pending, as it is until the
    workers have verified it: the game is still open."""
    deck = find_deck(
        "speed", lambda types, result, deck: result is not None and "winner" in result and len(types) < 300
    )
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=match.players[0].user, deck=deck)
    for seat in (0, 1):
        table_intent(table_id=table.pk, seat=seat, intent=Intent("ready", None))
    for _ in range(1000):
        now = Table.objects.get(pk=table.pk)
        if now.status == Table.Status.OVER:
            return now
        move = driver_move(table_game(table.pk).state) if now.status == Table.Status.PLAYING else None
        if move is None:
            assert now.due_at is not None, now.status
            table_tick(table_id=table.pk, now=now.due_at)
            continue
        seat, card, pile = move
        play = Intent("play", f"m{now.v}", {"card": card, "pile": pile})
        assert table_intent(table_id=table.pk, seat=seat, intent=play).refusal is None
    raise AssertionError("the game did not end")


def test_the_end_of_a_match_game_offers_its_players_to_play_again(alice: Player, ben: Player) -> None:
    table = resigned(make_match(alice, ben))
    offer = TableAgain.objects.get(table=table)
    assert (offer.status, offer.accepted, offer.next_table) == (TableAgain.Status.OPEN, [], None)
    shown = table_state(table=table, seat=1)["again"]
    assert shown == {
        "status": "open",
        "offered_by": [],
        "declined_by": None,
        "expires_at": int(offer.expires_at.timestamp() * 1000),
        "table": None,
    }
    assert table_state(table=table, seat=None)["again"] is None  # spectators are not asked


def test_both_accepting_opens_the_next_game_of_the_same_match(alice: Player, ben: Player) -> None:
    match = make_match(alice, ben, best_of=3)
    table = resigned(match)
    first = again_accept(table_id=table.pk, user=alice.user)
    assert first.offer.status == TableAgain.Status.OPEN and first.v == first.table.v
    assert first.table.again is not None and first.table.again["offered_by"] == ["alice"]
    assert Table.objects.count() == 1  # one yes is not enough

    second = again_accept(table_id=table.pk, user=ben.user)
    offer = TableAgain.objects.get(table=table)
    assert offer.status == TableAgain.Status.STARTED and offer.next_table is not None
    new = offer.next_table
    assert new.game is not None and (new.game.match_id, new.game.number) == (match.pk, 2)
    assert new.status == Table.Status.WAITING and new.players == ["alice", "ben"]
    shown = table_state(table=Table.objects.get(pk=table.pk), seat=0)["again"]
    assert shown["table"] == new.pk and shown["offered_by"] == ["alice", "ben"] and second.v is not None
    # A second tab's click changes nothing and answers the same table.
    again = again_accept(table_id=table.pk, user=alice.user)
    assert again.v is None and again.offer.next_table_id == new.pk and Table.objects.count() == 2


def test_the_match_over_both_accepting_make_a_casual_rematch(alice: Player, ben: Player) -> None:
    match = make_match(alice, ben, first_to=1)
    table = resigned(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    again_accept(table_id=table.pk, user=ben.user)
    again_accept(table_id=table.pk, user=alice.user)
    new = TableAgain.objects.get(table=table).next_table
    assert new is not None and new.game is not None
    rematch = new.game.match
    assert rematch.pk != match.pk and not rematch.rated and rematch.status == Match.Status.IN_PROGRESS
    assert [player.handle for player in rematch.players] == ["alice", "ben"]
    assert (rematch.ruleset, rematch.series, rematch.series_length) == (match.ruleset, "first_to", 1)
    assert rematch.time_limit_ms == match.time_limit_ms and new.game.number == 1


def test_a_decline_takes_the_offer_away_from_everyone(alice: Player, ben: Player) -> None:
    table = resigned(make_match(alice, ben))
    again_accept(table_id=table.pk, user=alice.user)
    declined = again_decline(table_id=table.pk, user=ben.user)
    assert declined.table.again is not None
    assert (declined.table.again["status"], declined.table.again["declined_by"]) == ("declined", "ben")
    with pytest.raises(Conflict, match="declined"):
        again_accept(table_id=table.pk, user=alice.user)
    assert again_decline(table_id=table.pk, user=alice.user).v is None  # declined already: nothing changes
    assert Table.objects.count() == 1


def test_everyone_accepting_before_the_result_is_recorded_starts_once_it_is(alice: Player, ben: Player) -> None:
    match = make_match(alice, ben, best_of=3)
    table = played_out(match)
    assert table.log is not None and Game.objects.get(match=match, number=1).status == Game.Status.OPEN
    again_accept(table_id=table.pk, user=alice.user)
    both = again_accept(table_id=table.pk, user=ben.user)
    assert both.offer.status == TableAgain.Status.OPEN and both.table.again is not None
    assert (both.table.again["offered_by"], both.table.again["table"]) == (["alice", "ben"], None)
    assert again_expire_task.apply().get() == 0  # still undecided: nothing to open yet
    log_verify_task.apply(args=[table.log.pk])  # what the workers do after the commit
    assert Game.objects.get(match=match, number=1).decided_by == Game.DecidedBy.TABLE
    assert again_expire_task.apply().get() == 1
    new = TableAgain.objects.get(table=table).next_table
    assert new is not None and new.game == Game.objects.get(match=match, number=2)
    shown = Table.objects.get(pk=table.pk).again
    assert shown is not None and (shown["status"], shown["table"]) == ("started", new.pk)


def test_strangers_practice_tables_and_live_tables_are_refused(alice: Player, ben: Player, carol: Player) -> None:
    match = make_match(alice, ben)
    live, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=fixed_deck())
    with pytest.raises(Conflict, match="offers no game"):
        again_accept(table_id=live.pk, user=alice.user)
    practice = table_practice_create(user=carol.user, ruleset="speed", bots=["easy"], deck=fixed_deck())
    with pytest.raises(Conflict, match="offers no game"):
        again_accept(table_id=practice.pk, user=carol.user)
    with pytest.raises(NotAllowed):
        again_accept(table_id=live.pk, user=carol.user)


def test_the_sweep_expires_an_offer_past_its_time(alice: Player, ben: Player) -> None:
    table = resigned(make_match(alice, ben))
    again_accept(table_id=table.pk, user=alice.user)
    assert again_expire_task.apply().get() == 0  # not due yet
    TableAgain.objects.filter(table=table).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert again_expire_task.apply().get() == 1
    assert TableAgain.objects.get(table=table).status == TableAgain.Status.EXPIRED
    stored = Table.objects.get(pk=table.pk)
    assert stored.again is not None and stored.again["status"] == "expired"
    with pytest.raises(Conflict, match="expired"):
        again_accept(table_id=table.pk, user=ben.user)


def test_the_beat_runs_the_sweep() -> None:
    assert "play.again_expire" in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


def test_a_player_seated_at_another_live_table_is_refused(alice: Player, ben: Player) -> None:
    table = resigned(make_match(alice, ben))
    again_accept(table_id=table.pk, user=alice.user)
    elsewhere = table_practice_create(user=ben.user, ruleset="speed", bots=["easy"], deck=fixed_deck())
    with pytest.raises(Conflict, match=f"You have a seat at table {elsewhere.pk}"):
        again_accept(table_id=table.pk, user=ben.user)
    # Ben, seated elsewhere since he accepted, holds up the start when alice accepts last.
    Table.objects.filter(pk=elsewhere.pk).update(status=Table.Status.ABORTED)
    other = resigned(make_match(alice, ben))
    again_accept(table_id=other.pk, user=ben.user)
    since = table_practice_create(user=ben.user, ruleset="speed", bots=["easy"], deck=fixed_deck())
    with pytest.raises(Conflict, match=f"ben has a seat at table {since.pk}"):
        again_accept(table_id=other.pk, user=alice.user)
    assert TableAgain.objects.get(table=other).status == TableAgain.Status.OPEN


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("series", [{"best_of": 3}, {"first_to": 1}], ids=["next game", "rematch"])
def test_two_accepts_at_once_open_one_table(series: dict[str, int]) -> None:
    """Both accepts wait behind the table row's lock, held here; released, exactly one opens the next table
    (the match's next game, or the first of one new match)."""
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, **series)
    table = resigned(match)
    over = Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    outcomes: dict[str, object] = {}

    def accept(player: Player) -> None:
        try:
            outcomes[player.handle] = again_accept(table_id=table.pk, user=player.user).offer.status
        except BaseException as exc:  # reported to the main thread
            outcomes[player.handle] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=accept, args=(player,)) for player in (alice, ben)]
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        for thread in threads:
            thread.start()
        wait_for_a_lock_waiter(count=2)
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(str(outcome) for outcome in outcomes.values()) == ["open", "started"], outcomes
    assert Table.objects.count() == 2 and Match.objects.count() == (2 if over else 1)
    new = TableAgain.objects.get(table=table).next_table
    assert new is not None and new.game is not None
    assert (new.game.match_id != match.pk, new.game.number) == ((True, 1) if over else (False, 2))
    assert TableAgain.objects.get(table=table).accepted in ([0, 1], [1, 0])


class TestApi:
    def test_both_accept_over_http_and_learn_the_new_tables_page(
        self, alice: Player, ben: Player, client_for: Callable[[Any], APIClient]
    ) -> None:
        table = resigned(make_match(alice, ben, best_of=3))
        url = f"/api/tables/{table.pk}/again/"
        first = client_for(alice.user).post(url, {"answer": "accept"}, format="json")
        assert first.status_code == 200, first.json()
        assert (first.json()["status"], first.json()["offered_by"], first.json()["page"]) == ("open", ["alice"], None)
        second = client_for(ben.user).post(url, {"answer": "accept"}, format="json")
        assert second.status_code == 200
        new = Game.objects.get(match=table.game.match, number=2).tables.get()
        assert (second.json()["table"], second.json()["page"]) == (new.pk, f"/tables/{new.pk}/")
        assert client_for(ben.user).post(url, {"answer": "decline"}, format="json").status_code == 409

    def test_bad_bodies_strangers_and_an_offer_gone(
        self, alice: Player, ben: Player, carol: Player, client_for: Callable[[Any], APIClient], anon: APIClient
    ) -> None:
        table = resigned(make_match(alice, ben))
        url = f"/api/tables/{table.pk}/again/"
        client = client_for(alice.user)
        unknown = client.post(url, {"answer": "accept", "rated": True}, format="json")
        assert unknown.status_code == 400 and "rated" in unknown.json()["extra"]["fields"]
        assert client.post(url, {"answer": "maybe"}, format="json").status_code == 400
        assert client.post(url, {}, format="json").status_code == 400
        assert client_for(carol.user).post(url, {"answer": "accept"}, format="json").status_code == 403
        assert anon.post(url, {"answer": "accept"}, format="json").status_code in (401, 403)
        assert client.post("/api/tables/999999/again/", {"answer": "accept"}, format="json").status_code == 404
        assert client.post(url, {"answer": "decline"}, format="json").status_code == 200
        gone = client_for(ben.user).post(url, {"answer": "accept"}, format="json")
        assert gone.status_code == 409 and "declined" in gone.json()["message"]
        assert TableAgain.objects.get(table=table).status == TableAgain.Status.DECLINED
