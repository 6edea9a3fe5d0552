"""The referee over the socket: every refusal code in its order, collisions, refs, flips, reconnects, throttling."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token

from matches.models import Game
from play.acting import tables_sweep
from play.models import Table, TableEvent
from play.services import table_open_for_game
from speedrules import PRESETS, Judge
from speedrules.cards import CARD_NAMES, JOKER
from tests.factories import make_match, make_player, make_user

from .conftest import Seat, dealt_to, find_deck, fixed_deck, game_now, play_out, table_now


def _open(ruleset: str, deck: list[str]) -> tuple[Table, Any, Any]:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben, ruleset=ruleset)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=deck)
    return table, alice.user, ben.user


async def _start(table: Table, one_user: Any, two_user: Any) -> tuple[Seat, Seat]:
    one, two = Seat(table.pk, one_user), Seat(table.pk, two_user)
    await one.connect()
    await two.connect()
    await one.send({"type": "ready"})
    await two.send({"type": "ready"})
    await one.until(lambda state: state["status"] == "playing", timeout=5)
    await two.until(lambda state: state["status"] == "playing", timeout=5)
    return one, two


def _start_state(ruleset: str, deck: list[str]) -> Any:
    rules = PRESETS[ruleset]
    return Judge(rules, tuple(f"p{seat}" for seat in range(rules.players)), deck).state


def _collision_deck() -> tuple[list[str], str, str, int]:
    """A deck where, at the start, seat 0's card A and seat 1's card B both fit pile p, and B does not fit on A."""
    for seed in range(2000):
        deck = fixed_deck("speed", seed)
        state = _start_state("speed", deck)
        for card_a, pile in state.legal_single_plays(0):
            for card_b, pile_b in state.legal_single_plays(1):
                if pile_b == pile and not state.fits_on[card_b][card_a]:
                    return deck, CARD_NAMES[card_a], CARD_NAMES[card_b], pile
    raise AssertionError("no deck")


def _no_fit_deck() -> tuple[list[str], str, int]:
    """A deck where seat 0 holds a card that does not fit pile 0 at the start, and someone can move."""
    for seed in range(2000):
        deck = fixed_deck("speed", seed)
        state = _start_state("speed", deck)
        if state.first_mover() is None:
            continue
        for card in state.hands[0]:
            if not state.fits(card, 0):
                return deck, CARD_NAMES[card], 0
    raise AssertionError("no deck")


@pytest.mark.django_db(transaction=True)
def test_bad_messages_are_refused_first_and_change_nothing() -> None:
    deck, _card, _pile = _no_fit_deck()
    table, alice, ben = _open("speed", deck)

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        watcher = Seat(table.pk)
        await watcher.connect()
        before = await table_now(table.pk)
        bad: list[Any] = [
            "{not json",
            "[1, 2]",
            {"type": "dance"},
            {"type": "play", "card": "ZZ", "pile": 0, "ref": "x1"},
            {"type": "play", "card": "9C", "pile": 7, "ref": "x2"},
            {"type": "play", "card": "9C", "pile": "0", "ref": "x3"},
            {"type": "play", "cards": ["9C"], "pile": 0, "ref": "x4"},  # runs need multi_card
            {"type": "flip", "pile": -1},
            {"type": "play", "card": "9C", "pile": 0, "ref": "r" * 65},
            {"type": "ping", "pad": "x" * 5000},
        ]
        for message in bad:
            await one.send(message)
            refusal = await one.refusal()
            assert refusal["code"] == "bad_message", (message, refusal)
            if isinstance(message, dict) and isinstance(message.get("ref"), str) and len(message["ref"]) <= 64:
                assert refusal["ref"] == message["ref"]
            else:
                assert refusal["ref"] is None
        # bad_message comes before not_seated: a spectator's unreadable play is a bad message.
        await watcher.send({"type": "play", "card": "ZZ", "pile": 0})
        assert (await watcher.refusal())["code"] == "bad_message"
        after = await table_now(table.pk)
        assert (after.v, after.event_count) == (before.v, before.event_count)
        for seat in (one, two, watcher):
            await seat.close()

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_refusals_in_the_spec_order() -> None:
    deck, bad_card, bad_pile = _no_fit_deck()
    table, alice, ben = _open("speed", deck)
    state = _start_state("speed", deck)
    theirs = CARD_NAMES[state.hands[1][0]]

    async def scenario() -> None:
        one, two = Seat(table.pk, alice), Seat(table.pk, ben)
        watcher = Seat(table.pk)
        for seat in (one, two, watcher):
            await seat.connect()
        # waiting: a play is not_playing; a spectator's is not_seated (before not_playing)
        await one.send({"type": "play", "card": bad_card, "pile": 0, "ref": "w1"})
        assert (await one.refusal())["code"] == "not_playing"
        await watcher.send({"type": "play", "card": bad_card, "pile": 0, "ref": "s1"})
        assert await watcher.refusal() == {
            "type": "refused",
            "ref": "s1",
            "code": "not_seated",
            "message": "You are watching: only the players at the table play.",
        }
        await watcher.send({"type": "ready"})
        assert (await watcher.refusal())["code"] == "not_seated"
        await one.send({"type": "ready"})
        await two.send({"type": "ready"})
        playing = await one.until(lambda s: s["status"] == "playing", timeout=5)
        assert playing["hand"] is not None and (await watcher.until(lambda s: s["status"] == "playing"))["hand"] is None
        # a flip while playing is not asked for; a second ready is not_playing too
        await one.send({"type": "flip", "pile": 0})
        assert (await one.refusal())["code"] == "not_playing"
        await one.send({"type": "ready"})
        assert (await one.refusal())["code"] == "not_playing"
        # the engine's codes: another seat's card is not in your hand; your card that does not fit
        await one.send({"type": "play", "card": theirs, "pile": 0, "ref": "n1"})
        refusal = await one.refusal()
        assert (refusal["code"], refusal["ref"]) == ("not_in_hand", "n1")
        await one.send({"type": "play", "card": bad_card, "pile": bad_pile, "ref": "n2"})
        assert (await one.refusal())["code"] == "no_fit"
        assert (await table_now(table.pk)).event_count == 0
        for seat in (one, two, watcher):
            await seat.close()

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_a_joker_as_the_last_card_is_refused_and_a_finished_game_refuses_all() -> None:
    def lone_joker(state: Any) -> bool:
        return any(state.hands[seat] == [JOKER] and not state.draws[seat] for seat in range(2))

    deck = find_deck("jokers-wild", lambda types, result, deck: types[-1] == "stop", stop=lone_joker)
    table, alice, ben = _open("jokers-wild", deck)
    seen: list[dict[str, Any]] = []

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        seats = {0: one, 1: two}

        async def hook(current: Table, game: Any) -> bool:
            if seen or not lone_joker(game.state):
                return False
            seat = next(seat for seat in range(2) if game.state.hands[seat] == [JOKER] and not game.state.draws[seat])
            await seats[seat].send({"type": "play", "card": "JK", "pile": 0, "ref": "last"})
            seen.append(await seats[seat].refusal())
            return False

        await play_out(seats, table.pk, hook=hook)
        await one.until(lambda s: s["status"] == "over")
        await one.send({"type": "play", "card": "5H", "pile": 0, "ref": "late"})
        assert (await one.refusal())["code"] == "game_over"
        await one.send({"type": "flip", "pile": 0})
        assert (await one.refusal())["code"] == "game_over"
        await one.close()
        await two.close()

    async_to_sync(scenario)()
    assert seen and seen[0]["code"] == "joker_last" and seen[0]["ref"] == "last"


@pytest.mark.django_db(transaction=True)
def test_a_collision_is_recorded_and_refused_within_the_window_only() -> None:
    deck, card_a, card_b, pile = _collision_deck()
    table, alice, ben = _open("speed", deck)

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        await one.send({"type": "play", "card": card_a, "pile": pile, "ref": "a"})
        await two.until(lambda s: s["last"] is not None)
        await two.send({"type": "play", "card": card_b, "pile": pile, "ref": "b"})
        refusal = await two.refusal()
        assert (refusal["code"], refusal["ref"]) == ("collision", "b")
        state = await one.until(lambda s: s["last"] is not None and s["last"]["type"] == "collision")
        assert state["last"]["card"] == card_b and state["hand_counts"] == [5, 5]
        events = await sync_to_async(lambda: list(TableEvent.objects.filter(table=table).order_by("index")))()
        play, collision = events[0].data, events[1].data
        assert collision == {"t": play["t"], "type": "collision", "player": 1, "pile": pile, "card": card_b}
        # the card stayed in hand; after the window the same card is simply no_fit
        await asyncio.sleep(table.settings["collision_ms"] / 1000 + 0.05)
        await two.send({"type": "play", "card": card_b, "pile": pile, "ref": "c"})
        assert (await two.refusal())["code"] == "no_fit"
        await one.close()
        await two.close()

    async_to_sync(scenario)()


def _two_plays_deck() -> list[str]:
    """A deck where seat 0 can play at the start and again after that play."""
    for seed in range(2000):
        deck = fixed_deck("speed", seed)
        game = Judge(PRESETS["speed"], ("p0", "p1"), deck)
        plays = sorted(game.state.legal_single_plays(0))
        if not plays:
            continue
        card, pile = plays[0]
        game.push({"t": 1, "type": "play", "player": 0, "card": CARD_NAMES[card], "pile": pile})
        if game.state.legal_single_plays(0):
            return deck
    raise AssertionError("no deck")


@pytest.mark.django_db(transaction=True)
def test_a_used_ref_is_never_applied_again() -> None:
    deck = _two_plays_deck()
    table, alice, ben = _open("speed", deck)

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        game = await game_now(table.pk)
        card, pile = sorted(game.state.legal_single_plays(0))[0]
        await one.send({"type": "play", "card": CARD_NAMES[card], "pile": pile, "ref": "same"})
        applied = await one.until(lambda s: s["last"] is not None)
        game = await game_now(table.pk)
        card, pile = sorted(game.state.legal_single_plays(0))[0]
        await one.send({"type": "play", "card": CARD_NAMES[card], "pile": pile, "ref": "same"})
        answer = await one.receive()
        assert answer["type"] == "state" and answer["v"] == applied["v"]  # answered with the state, not applied
        assert (await table_now(table.pk)).event_count == 1
        # another seat may use the same ref; a refused attempt's ref is used as well
        theirs = CARD_NAMES[game.state.hands[1][0]]
        await one.send({"type": "play", "card": theirs, "pile": 0, "ref": "r2"})
        assert (await one.refusal())["code"] == "not_in_hand"
        await one.send({"type": "play", "card": CARD_NAMES[card], "pile": pile, "ref": "r2"})
        assert (await one.receive())["type"] == "state"
        assert (await table_now(table.pk)).event_count == 1
        await one.send({"type": "play", "card": CARD_NAMES[card], "pile": pile, "ref": "r3"})
        await one.until(lambda s: s["v"] > applied["v"] and s["last"]["card"] == CARD_NAMES[card])
        assert (await table_now(table.pk)).event_count == 2
        await one.close()
        await two.close()

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_draw_pile_flips_decide_where_each_card_goes() -> None:
    deck = find_deck("california", lambda types, result, deck: "stall" in types)
    table, alice, ben = _open("california", deck)
    flipped: list[dict[str, Any]] = []

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        seats = {0: one, 1: two}

        async def hook(current: Table, game: Any) -> bool:
            if current.status != Table.Status.STUCK or flipped:
                return False
            state = await one.until(lambda s: s["status"] == "stuck")
            assert state["status"] == "stuck"
            await one.send({"type": "flip", "pile": 3})
            await one.until(lambda s, v=current.v: s["v"] > v)
            await one.send({"type": "flip", "pile": 2})  # once only
            assert (await one.refusal())["code"] == "not_playing"
            await two.send({"type": "flip", "pile": 3})
            stall = await two.until(lambda s: s["last"] is not None and s["last"]["type"] == "stall")
            flipped.append(stall["last"])
            return True

        await play_out(seats, table.pk, hook=hook)
        await one.close()
        await two.close()

    async_to_sync(scenario)()
    assert flipped and flipped[0]["piles"] == [3, 3]


@pytest.mark.django_db(transaction=True)
def test_reconnecting_gets_the_whole_state_and_a_second_connection_replaces_the_first() -> None:
    deck = find_deck("speed", lambda types, result, deck: types[:2] == ["play", "play"])
    table, alice, ben = _open("speed", deck)

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        await one.close()
        away = await two.until(lambda s: s["connected"] == [True, False][::-1] or s["connected"] == [False, True])
        assert away["connected"] == [False, True]
        again = Seat(table.pk, alice)
        state = await again.connect()
        assert state["you"] == 0 and state["status"] == "playing" and len(state["hand"]) == 5
        assert state["connected"] == [True, True]
        # the same user again: the newer connection takes the seat, the older is closed
        third = Seat(table.pk, alice)
        await third.connect()
        closed = await again.communicator.receive_output(timeout=3)
        while closed["type"] != "websocket.close":
            closed = await again.communicator.receive_output(timeout=3)
        assert closed["code"] == 4001
        game = await game_now(table.pk)
        plays = game.state.legal_single_plays(0)
        if plays:
            await third.send({"type": "play", "card": CARD_NAMES[plays[0][0]], "pile": plays[0][1], "ref": "z"})
            await third.until(lambda s: s["last"] is not None)
        await third.close()
        await two.close()

    async_to_sync(scenario)()


async def _pongs(seat: Seat, count: int) -> list[str]:
    """The refs of the next `count` pongs the socket receives (the states between them aside)."""
    refs: list[str] = []
    while len(refs) < count:
        message = await seat.receive()
        if message["type"] == "pong":
            refs.append(message["ref"])
    return refs


@pytest.mark.django_db(transaction=True)
@override_settings(SPEED_TABLE_MESSAGE_BURST=3, SPEED_TABLE_MESSAGES_PER_SECOND=0.001)
def test_a_flood_is_held_past_its_burst_while_the_other_seat_is_answered() -> None:
    """A socket past its burst waits for its next token, here a thousand seconds away (so no test runs
    long enough to see it come): its burst is answered in order, the message after it is held, and
    the other seat's socket, with its own bucket, is answered meanwhile."""
    table, alice, ben = _open("speed", fixed_deck())

    async def scenario() -> None:
        one, two = Seat(table.pk, alice), Seat(table.pk, ben)
        await one.connect()
        await two.connect()
        for index in range(4):
            await one.send({"type": "ping", "ref": f"f{index}"})
        assert await _pongs(one, 3) == ["f0", "f1", "f2"]
        await two.send({"type": "ping", "ref": "quick"})
        assert await _pongs(two, 1) == ["quick"]
        held_from = len(one.received)
        await asyncio.sleep(0.2)  # time enough for an unthrottled f3 to be answered
        await one.drain()
        assert [message for message in one.received[held_from:] if message["type"] == "pong"] == []
        await two.close()
        with contextlib.suppress(TimeoutError):  # f3 still waits for its token: the disconnect ends the wait
            await one.communicator.disconnect(timeout=0.5)

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_a_table_every_seat_left_is_abandoned_by_the_sweep_and_the_game_stays_open() -> None:
    table, alice, ben = _open("speed", find_deck("speed", lambda types, result, deck: types[0] == "play"))

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        await two.close()
        state = await one.until(lambda s: s["away"][1] is not None)
        assert state["status"] == "playing"  # one seat is still there: the game waits for it (amendment L3)
        await one.close()

    async_to_sync(scenario)()
    current = Table.objects.get(pk=table.pk)
    assert current.status == Table.Status.PLAYING and current.due_at is not None
    assert tables_sweep(now=current.due_at - 1) == 0  # not yet due
    assert tables_sweep(now=current.due_at) == 1  # what the beat runs every few seconds
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert table.log_id is None and table.game.status == Game.Status.OPEN


@pytest.mark.django_db(transaction=True)
def test_token_clients_take_their_seat_and_a_foreign_origin_is_refused() -> None:
    table, alice, _ben = _open("speed", fixed_deck())
    token = Token.objects.create(user=alice)
    stranger = make_user("stranger")
    old = Token.objects.create(user=make_user("old-ben"))
    expired_at = timezone.now() - settings.SPEED_API_TOKEN_LIFETIME - timedelta(minutes=1)
    Token.objects.filter(pk=old.pk).update(created=expired_at)

    async def scenario() -> None:
        seat = Seat(table.pk, headers=[(b"authorization", f"Token {token.key}".encode())])
        assert (await seat.connect())["you"] == 0
        await seat.close()
        wrong = Seat(table.pk, headers=[(b"authorization", b"Token nope")])
        assert (await wrong.connect())["you"] is None
        await wrong.close()
        expired = Seat(table.pk, headers=[(b"authorization", f"Token {old.key}".encode())])
        assert (await expired.connect())["you"] is None  # the API's lifetime holds for sockets too
        await expired.close()
        other = Seat(table.pk, stranger)
        assert (await other.connect())["you"] is None
        await other.close()
        foreign = Seat(table.pk, alice, headers=[(b"origin", b"http://evil.example")])
        connected, _ = await foreign.communicator.connect()
        assert not connected
        own = Seat(table.pk, alice, headers=[(b"origin", b"http://testserver")])
        assert (await own.connect())["you"] == 0
        await own.close()

    with override_settings(ALLOWED_HOSTS=["testserver"]):
        async_to_sync(scenario)()


def test_dealt_to_is_the_seats_share() -> None:
    deck = fixed_deck()
    assert len(dealt_to("speed", deck, 0)) == 20 and not dealt_to("speed", deck, 0) & dealt_to("speed", deck, 1)


@pytest.mark.django_db(transaction=True)
def test_a_run_is_played_with_cards_where_runs_are_allowed() -> None:
    def run_deck() -> tuple[list[str], list[str], int]:
        for seed in range(3000):
            deck = fixed_deck("runs-at-once", seed)
            state = _start_state("runs-at-once", deck)
            for first, pile in state.legal_single_plays(0):
                for second in state.hands[0]:
                    if second != first and state.fits_on[second][first]:
                        return deck, [CARD_NAMES[first], CARD_NAMES[second]], pile
        raise AssertionError("no deck")

    deck, run, pile = run_deck()
    table, alice, ben = _open("runs-at-once", deck)

    async def scenario() -> None:
        one, two = await _start(table, alice, ben)
        await one.send({"type": "play", "cards": run, "pile": pile, "ref": "run"})
        state = await two.until(lambda s: s["last"] is not None)
        assert state["last"]["cards"] == run and state["piles"][pile] == run[-1]
        assert state["pile_counts"][pile] == 3 and state["hand_counts"][0] == 5
        await one.send({"type": "play", "cards": ["ZZ"], "pile": pile, "ref": "bad"})
        assert (await one.refusal())["code"] == "bad_message"
        await one.close()
        await two.close()

    async_to_sync(scenario)()
