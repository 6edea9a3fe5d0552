"""Amendment L over the socket: abort, resign, claim, a second tab, presence, and the shape of new messages."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db.models import F
from rest_framework.test import APIClient

from matches.models import Game, ResultChange
from play.acting import tables_sweep
from play.groups import _hubs, table_changed_notify
from play.models import Table, TableSeat, TableWatcher
from play.services import table_open_for_game, table_tick
from play.services.live import stale_after_ms
from play.ticker import _tickers
from replays.models import MatchLog
from replays.services.steps import log_steps_build
from speedrules import verify_bytes
from tests.factories import make_match, make_player

from .conftest import Seat, find_deck, fixed_deck, play_out, table_now

pytestmark = pytest.mark.django_db(transaction=True)


def _open(ruleset: str = "speed", deck: list[str] | None = None, players: int = 2) -> tuple[Table, list[Any]]:
    people = [make_player(handle) for handle in ("alice", "ben", "cleo", "dan")[:players]]
    if players == 2:
        match = make_match(people[0], people[1], ruleset=ruleset)
    else:
        from matches.services import match_create

        match = match_create(players=[person.handle for person in people], ruleset=ruleset, best_of=1)
    table, _ = table_open_for_game(
        game_id=match.games.get(number=1).pk, user=people[0].user, deck=deck or fixed_deck(ruleset)
    )
    return table, [person.user for person in people]


async def _seated(table: Table, users: list[Any]) -> list[Seat]:
    seats = [Seat(table.pk, user) for user in users]
    for seat in seats:
        await seat.connect()
    return seats


async def _started(table: Table, users: list[Any]) -> list[Seat]:
    seats = await _seated(table, users)
    for seat in seats:
        await seat.send({"type": "ready"})
    for seat in seats:
        await seat.until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
    return seats


def _opening_play_deck() -> list[str]:
    return find_deck("speed", lambda types, result, deck: types[:3] == ["play", "play", "play"])


async def _play_one(seats: list[Seat], table_id: int) -> None:
    """One legal play by whichever seat has one (the tests' driver)."""
    from .conftest import driver_move, game_now

    move = driver_move((await game_now(table_id)).state)
    assert move is not None
    seat, card, pile = move
    before = (await table_now(table_id)).v
    await seats[seat].send({"type": "play", "card": card, "pile": pile, "ref": f"p{before}"})
    await seats[0].until(lambda state: state["v"] > before)


def test_a_resign_decides_the_game_as_a_forfeit_with_its_history_and_a_replay() -> None:
    table, users = _open(deck=_opening_play_deck())

    async def scenario() -> dict[str, Any]:
        one, two = await _started(table, users)
        await _play_one([one, two], table.pk)
        await one.send({"type": "resign", "ref": "r1"})
        over = await two.until(lambda state: state["status"] == "over")
        await one.until(lambda state: state["status"] == "over")
        await one.send({"type": "resign", "ref": "r2"})
        assert (await one.refusal())["code"] == "game_over"
        for seat in (one, two):
            await seat.close()
        return over

    over = async_to_sync(scenario)()
    assert over["result"] == {"winner": 1, "by": "resign"} and over["resigned"] == [0]
    assert over["ended"] == {"by": "resign", "seat": 0, "t": over["ended"]["t"], "against": [0]}
    table.refresh_from_db()
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.DECIDED and game.decided_by == Game.DecidedBy.FORFEIT
    assert game.winner is not None and game.winner.handle == "ben"
    change = ResultChange.objects.filter(game=game).latest("pk")
    assert change.reason.startswith("alice resigned at the table") and change.source["by"] == "resign"
    log = MatchLog.objects.get(pk=table.log_id)
    assert log.provenance == MatchLog.Provenance.FORFEIT
    assert APIClient().get(f"/api/logs/{log.pk}/").json()["provenance"] == "forfeit"
    # The cards played are the evidence: every event passes the engine, the result is the table's.
    assert log.status == MatchLog.Status.VERIFIED and log.winner is None, log.message
    document = orjson.loads(bytes(log.data))
    assert document["table"]["ended"] == {
        "by": "resign",
        "seat": 0,
        "t": document["table"]["ended"]["t"],
        "places": [2, 1],
    }
    assert verify_bytes(bytes(log.data)).valid
    assert over["ended"]["t"] == document["table"]["ended"]["t"]  # when alice resigned, as the page says it
    steps = log_steps_build(log_id=log.pk)
    assert len(steps.steps) == len(document["events"]) + 1  # the deal, then every event played


def test_a_claim_waits_for_claim_at_then_wins_and_the_state_counts_the_away_time() -> None:
    table, users = _open(deck=_opening_play_deck())
    claim_ms = table.settings["claim_ms"]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        one, two = await _started(table, users)
        await _play_one([one, two], table.pk)
        await one.send({"type": "claim", "ref": "early"})  # ben is here: nothing to claim
        assert (await one.refusal())["code"] == "not_playing"
        await two.close()
        away = await one.until(lambda state: state["away"][1] is not None)
        assert away["away"][0] is None and away["connected"] == [True, False]
        assert away["away"][1]["claim_at"] == away["away"][1]["since"] + claim_ms
        await one.send({"type": "claim", "ref": "soon"})
        assert (await one.refusal())["code"] == "not_playing"
        await sync_to_async(lambda: __import__("time").sleep(claim_ms / 1000 + 0.1))()
        await one.send({"type": "claim", "ref": "now"})
        over = await one.until(lambda state: state["status"] == "over")
        await one.close()
        return away, over

    _away, over = async_to_sync(scenario)()
    assert over["result"] == {"winner": 0, "by": "claim"}
    game = Game.objects.get(pk=table.game_id)
    assert game.decided_by == Game.DecidedBy.FORFEIT and game.winner.handle == "alice"
    reason = ResultChange.objects.filter(game=game).latest("pk").reason
    assert reason.startswith("alice claimed the game at the table") and "ben had left" in reason


def test_abort_before_the_first_card_only_and_nothing_is_decided() -> None:
    table, users = _open(deck=_opening_play_deck())

    async def scenario() -> dict[str, Any]:
        one, two = await _started(table, users)
        await one.send({"type": "abort", "ref": "a1"})
        aborted = await two.until(lambda state: state["status"] == "aborted")
        await one.send({"type": "ready"})
        assert (await one.refusal())["code"] == "not_playing"
        for seat in (one, two):
            await seat.close()
        return aborted

    aborted = async_to_sync(scenario)()
    assert aborted["result"] is None and aborted["log"] is None
    table.refresh_from_db()
    assert table.ended["by"] == "abort" and table.log_id is None
    assert Game.objects.get(pk=table.game_id).status == Game.Status.OPEN


def test_abort_after_a_card_is_refused() -> None:
    table, users = _open(deck=_opening_play_deck())

    async def scenario() -> None:
        one, two = await _started(table, users)
        await _play_one([one, two], table.pk)
        await one.send({"type": "abort", "ref": "late"})
        refusal = await one.refusal()
        assert refusal["code"] == "not_playing" and "resign" in refusal["message"]
        for seat in (one, two):
            await seat.close()

    async_to_sync(scenario)()
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_the_new_messages_are_refused_from_spectators_and_at_the_wrong_time() -> None:
    table, users = _open()

    async def scenario() -> None:
        one, two = await _seated(table, users)
        watcher = Seat(table.pk)
        await watcher.connect()
        for kind in ("abort", "resign", "claim"):
            await watcher.send({"type": kind, "ref": f"w-{kind}"})
            refusal = await watcher.refusal()
            assert (refusal["code"], refusal["ref"]) == ("not_seated", f"w-{kind}")
        await one.send({"type": "resign", "ref": "too-early"})
        assert (await one.refusal())["code"] == "not_playing"
        await one.send({"type": "claim", "ref": "too-early"})
        assert (await one.refusal())["code"] == "not_playing"
        for bad in (
            {"type": "resign", "ref": 7},
            {"type": "resign", "ref": "x\u0000"},
            {"type": "play", "card": "9C", "pile": 0, "ref": "x\u0000"},
            {"type": "resign\u0000"},
            {"type": ["claim"]},
        ):
            await one.send(bad)
            assert (await one.refusal())["code"] == "bad_message", bad
        # A lone surrogate is not UTF-8: unreadable, and the connection goes on.
        await one.send('{"type": "claim", "ref": "\\ud800"}')
        assert (await one.refusal())["code"] == "bad_message"
        await one.send({"type": "ping", "ref": "still"})
        assert (await one.receive())["type"] == "pong"
        for seat in (one, two, watcher):
            await seat.close()

    async_to_sync(scenario)()
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.v > 0


def test_a_second_tab_takes_the_seat_and_the_first_is_told() -> None:
    table, users = _open()

    async def scenario() -> None:
        first = Seat(table.pk, users[0])
        await first.connect()
        second = Seat(table.pk, users[0])
        assert (await second.connect())["you"] == 0
        told = await first.receive()
        while told["type"] == "state":  # the second's arrival may be shown first
            told = await first.receive()
        assert told == {"type": "replaced", "seat": 0}
        closed = await first.communicator.receive_output(timeout=3)
        assert closed == {"type": "websocket.close", "code": 4001}
        state = await second.until(lambda state: state["connected"][0])
        assert state["away"][0] is None
        await second.send({"type": "ready"})
        assert (await second.until(lambda state: state["ready"][0]))["ready"] == [True, False]
        await second.close()

    async_to_sync(scenario)()
    seat = TableSeat.objects.get(table_id=table.pk, seat=0)
    assert seat.channel == "" and seat.away_since is not None


#: The tasks a table's connections start (by their coroutines' names): a seat's heartbeat, a spectator's,
#: the table's ticker, and the process's reader of the channel layer.
_CONNECTION_TASKS = {"TableConsumer._beat", "TableConsumer._watch", "Ticker.run", "_Hub.listen"}


def _connection_tasks() -> set[str]:
    """The connection tasks still running on this event loop."""
    names = (task.get_coro().__qualname__ for task in asyncio.all_tasks() if not task.done())  # type: ignore[union-attr]
    return {name for name in names if name in _CONNECTION_TASKS}


async def _bug(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a bug")


def _bug_in_a_read(*args: Any, **kwargs: Any) -> Any:  # a selector: it runs on the table's thread
    raise RuntimeError("a bug")


async def _dies_of_the_bug(socket: Seat) -> None:
    """Read what the socket's consumer sends (a state may come first) until its exception comes out."""
    with pytest.raises(RuntimeError, match="a bug"):
        while True:
            await socket.communicator.receive_output(timeout=3)


async def _settled() -> None:
    """Let cancelled tasks run to their end (each needs a turn of the loop to see its cancellation)."""
    await asyncio.sleep(0.05)


def test_a_consumer_killed_by_an_exception_leaves_no_seat_beat_or_ticker(monkeypatch: pytest.MonkeyPatch) -> None:
    table, users = _open()

    async def scenario() -> None:
        one = Seat(table.pk, users[0])
        await one.connect()
        monkeypatch.setattr("play.consumers.table_act", _bug)
        await one.send({"type": "ready"})
        with pytest.raises(RuntimeError):
            await one.communicator.receive_output(timeout=3)

    async_to_sync(scenario)()
    assert table.pk not in _tickers
    seat = TableSeat.objects.get(table_id=table.pk, seat=0)
    assert seat.channel == ""  # released at once, not left beating
    assert Table.objects.get(pk=table.pk).away[0] is not None


def test_consumers_killed_by_exceptions_leave_no_task_running(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.SPEED_TABLE_SETTINGS = {**settings.SPEED_TABLE_SETTINGS, "abandon_ms": 60000}  # no abort meanwhile
    table, users = _open()

    async def scenario() -> None:
        seat, spectator = Seat(table.pk, users[0]), Seat(table.pk)
        await seat.connect()
        await spectator.connect()
        assert _connection_tasks() == _CONNECTION_TASKS  # both beating, the table timed, the layer read
        monkeypatch.setattr("play.consumers.table_act", _bug)
        monkeypatch.setattr("play.consumers.table_who", _bug_in_a_read)
        await seat.send({"type": "ready"})
        await _dies_of_the_bug(seat)
        await _settled()
        assert _connection_tasks() == {"TableConsumer._watch", "Ticker.run", "_Hub.listen"}  # the spectator's
        await spectator.send({"type": "who", "ref": "w"})
        await _dies_of_the_bug(spectator)
        await _settled()
        assert _connection_tasks() == set()
        assert not _hubs[asyncio.get_running_loop()].members

    async_to_sync(scenario)()
    assert table.pk not in _tickers
    assert not TableWatcher.objects.filter(table_id=table.pk).exists()


def test_a_connect_that_fails_once_the_ticker_runs_leaves_no_task_running(monkeypatch: pytest.MonkeyPatch) -> None:
    table, users = _open()

    async def scenario() -> None:
        monkeypatch.setattr("play.consumers.seat_arrive", _bug)  # after the accept, the ticker and the group
        seat = Seat(table.pk, users[0])
        connected, _ = await seat.communicator.connect()
        assert connected
        await _dies_of_the_bug(seat)
        await _settled()
        assert _connection_tasks() == set()
        assert not _hubs[asyncio.get_running_loop()].members

    async_to_sync(scenario)()
    assert table.pk not in _tickers


def test_a_table_never_readied_is_aborted_by_its_timer() -> None:
    table, users = _open()

    async def scenario() -> None:
        one = Seat(table.pk, users[0])
        await one.connect()
        await one.send({"type": "ready"})
        await one.until(lambda state: state["ready"][0])
        await one.close()

    async_to_sync(scenario)()
    current = Table.objects.get(pk=table.pk)
    assert current.status == Table.Status.WAITING
    opened = int(current.created_at.timestamp() * 1000)
    assert current.due_at == opened + current.settings["abandon_ms"]
    tables_sweep(now=current.due_at)
    current.refresh_from_db()
    assert current.status == Table.Status.ABORTED and current.ended["by"] == "abort"


def test_a_resign_at_a_table_of_three_places_the_resigned_last_and_the_game_goes_on() -> None:
    table, users = _open("three-way", players=3)

    async def scenario() -> dict[str, Any]:
        seats = await _started(table, users)
        await seats[2].send({"type": "resign", "ref": "r"})
        state = await seats[0].until(lambda state: state["resigned"] == [2])
        assert state["status"] in ("playing", "stuck")
        await seats[2].send({"type": "play", "card": state["piles"][0] or "9C", "pile": 0, "ref": "after"})
        assert (await seats[2].refusal())["code"] in ("not_playing", "not_in_hand")
        await seats[1].send({"type": "resign", "ref": "r"})
        over = await seats[0].until(lambda state: state["status"] == "over")
        for seat in seats:
            await seat.close()
        return over

    over = async_to_sync(scenario)()
    # The last to resign places best of the resigned (amendment L3): ben second, cleo (first to go) last.
    assert over["result"] == {"places": [1, 2, 3], "by": "resign"}
    game = Game.objects.get(pk=table.game_id)
    assert game.decided_by == Game.DecidedBy.FORFEIT and game.places == [1, 2, 3]


def test_the_state_says_when_abort_is_allowed_and_who_a_claim_was_against() -> None:
    """The page's keys (`abortable`, `ended`): a claim at a table of three names the seat that left, not the one
    that resigned before it, and the `t` of the claim."""
    table, users = _open("three-way", players=3)
    claim_ms = table.settings["claim_ms"]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        seats = await _seated(table, users)
        waiting = seats[0].state
        assert waiting is not None and waiting["abortable"] and waiting["ended"] is None
        for seat in seats:
            await seat.send({"type": "ready"})
        for seat in seats:
            await seat.until(lambda state: state["status"] in ("playing", "stuck"))
        await _play_one(seats, table.pk)
        played = await seats[0].until(lambda state: state["last"] is not None and state["last"]["type"] == "play")
        await seats[2].send({"type": "resign", "ref": "r"})
        await seats[0].until(lambda state: state["resigned"] == [2])
        await seats[1].close()
        await seats[0].until(lambda state: state["away"][1] is not None)
        await sync_to_async(lambda: __import__("time").sleep(claim_ms / 1000 + 0.1))()
        await seats[0].send({"type": "claim", "ref": "c"})
        over = await seats[0].until(lambda state: state["status"] == "over")
        for seat in (seats[0], seats[2]):
            await seat.close()
        return waiting, played, over

    _waiting, played, over = async_to_sync(scenario)()
    assert played["abortable"] is False
    assert over["result"] == {"places": [1, 2, 3], "by": "claim"} and over["resigned"] == [2, 1]
    assert over["ended"] == {"by": "claim", "seat": 0, "t": over["ended"]["t"], "against": [1]}
    assert over["ended"]["t"] >= played["last"]["t"] and over["abortable"] is False


def test_an_abort_and_a_resign_say_who_in_the_state() -> None:
    table, users = _open(deck=_opening_play_deck())

    async def scenario() -> dict[str, Any]:
        one, two = await _started(table, users)
        assert one.state is not None and one.state["abortable"], "playing, but no card played yet"
        await two.send({"type": "abort", "ref": "a"})
        return await one.until(lambda state: state["status"] == "aborted")

    aborted = async_to_sync(scenario)()
    assert aborted["ended"] == {"by": "abort", "seat": 1, "t": None, "against": []}
    assert aborted["abortable"] is False


def test_a_game_played_to_its_end_is_still_decided_by_the_table() -> None:
    table, users = _open(deck=find_deck("speed", lambda types, result, deck: result == {"winner": 0}))

    async def scenario() -> None:
        seats = await _started(table, users)
        await play_out({0: seats[0], 1: seats[1]}, table.pk)
        for seat in seats:
            await seat.close()

    async_to_sync(scenario)()
    assert Game.objects.get(pk=table.game_id).decided_by == Game.DecidedBy.TABLE


def test_a_no_show_forfeits_when_the_tournament_says_so(settings: Any) -> None:
    settings.SPEED_TABLE_SETTINGS = {**settings.SPEED_TABLE_SETTINGS, "no_show_ms": 500}
    table, users = _open()

    async def scenario() -> None:
        one = Seat(table.pk, users[0])
        await one.connect()
        await one.close()

    async_to_sync(scenario)()
    opened = int(table.created_at.timestamp() * 1000)
    assert tables_sweep(now=opened + 499) == 0
    tables_sweep(now=opened + 500)
    table.refresh_from_db()
    assert table.status == Table.Status.OVER and table.result == {"winner": 0, "by": "no_show"}
    game = Game.objects.get(pk=table.game_id)
    assert game.decided_by == Game.DecidedBy.FORFEIT and game.winner.handle == "alice"
    assert (
        ResultChange.objects.filter(game=game).latest("pk").reason
        == "ben did not come to the table in time; alice did."
    )
    assert MatchLog.objects.get(pk=table.log_id).status == MatchLog.Status.VERIFIED


def test_no_forfeit_for_a_no_show_when_nobody_came(settings: Any) -> None:
    settings.SPEED_TABLE_SETTINGS = {**settings.SPEED_TABLE_SETTINGS, "no_show_ms": 500}
    table, _users = _open()
    opened = int(table.created_at.timestamp() * 1000)
    tables_sweep(now=opened + 500)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.settings["no_show_ms"] is None
    tables_sweep(now=opened + table.settings["abandon_ms"])
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED


def test_a_revoked_token_closes_its_seat_within_a_heartbeat() -> None:
    from rest_framework.authtoken.models import Token

    table, users = _open()
    token = Token.objects.create(user=users[0])

    async def scenario() -> dict[str, Any]:
        seat = Seat(table.pk, headers=[(b"authorization", f"Token {token.key}".encode())])
        assert (await seat.connect())["you"] == 0
        await sync_to_async(Token.objects.filter(pk=token.pk).delete)()
        while True:
            output = await seat.communicator.receive_output(timeout=3)
            if output["type"] == "websocket.close":
                return output

    closed = async_to_sync(scenario)()
    assert closed["code"] == 4003
    assert TableSeat.objects.get(table_id=table.pk, seat=0).channel == ""


# -- a tournament's own times (amendment L5) -----------------------------------


def _open_for_tournament(table_settings: dict[str, Any], *, called: bool = True) -> tuple[Table, list[Any]]:
    """The table of a two-player tournament final with these table settings; called to a station first."""
    from tests.factories import make_tournament, make_user, ready
    from tournaments.services.running import pairing_call

    organiser = make_user("orga", organiser=True)
    people = [make_player(handle) for handle in ("alice", "ben")]
    tournament = make_tournament(organiser, people, format="single_elimination", table_settings=table_settings)
    (final,) = ready(tournament)
    if called:
        pairing_call(tournament_id=tournament.pk, key=final.key, user=organiser, station="Table 1")
    game = Game.objects.get(match_id=final.match_id, number=1)
    table, _ = table_open_for_game(game_id=game.pk, user=organiser, deck=fixed_deck("speed"))
    by_handle = {person.handle: person.user for person in people}
    return table, [by_handle[handle] for handle in table.players]


TOURNAMENT_TIMES = {"claim_seconds": 20, "abandon_seconds": 300, "no_show_seconds": 90}


def test_a_tournament_matchs_table_carries_the_tournaments_times_in_its_state(settings: Any) -> None:
    settings.SPEED_TABLE_SETTINGS = {**settings.SPEED_TABLE_SETTINGS, "no_show_ms": 500}  # the site's: overridden
    table, users = _open_for_tournament(TOURNAMENT_TIMES)

    async def scenario() -> dict[str, Any]:
        one = Seat(table.pk, users[0])
        state = await one.connect()
        await one.close()
        return state

    shown = async_to_sync(scenario)()["settings"]
    assert (shown["claim_ms"], shown["abandon_ms"], shown["no_show_ms"]) == (20_000, 300_000, 90_000)
    # What the tournament left alone is the site's.
    assert shown["stall_ms"] == settings.SPEED_TABLE_SETTINGS["stall_ms"]
    current = Table.objects.get(pk=table.pk)
    opened = int(current.created_at.timestamp() * 1000)
    assert current.due_at == opened + 90_000  # the no-show's forfeit comes first, then the abort at 300 s


def test_a_no_show_forfeits_after_the_tournaments_no_show_time() -> None:
    table, users = _open_for_tournament(TOURNAMENT_TIMES)
    first, second = table.players

    async def scenario() -> None:
        one = Seat(table.pk, users[0])
        await one.connect()
        await one.close()

    async_to_sync(scenario)()
    opened = int(table.created_at.timestamp() * 1000)
    assert tables_sweep(now=opened + 89_999) == 0  # the site's abort (2 s in the tests) does not apply
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    tables_sweep(now=opened + 90_000)
    table.refresh_from_db()
    assert table.status == Table.Status.OVER and table.result == {"winner": 0, "by": "no_show"}
    game = Game.objects.get(pk=table.game_id)
    assert game.decided_by == Game.DecidedBy.FORFEIT and game.winner.handle == first
    assert ResultChange.objects.filter(game=game).latest("pk").reason == (
        f"{second} did not come to the table in time; {first} did."
    )


def test_no_forfeit_at_a_tournament_matchs_table_opened_before_its_call() -> None:
    table, _users = _open_for_tournament(TOURNAMENT_TIMES, called=False)
    assert table.settings["no_show_ms"] is None and table.settings["claim_ms"] == 20_000
    opened = int(table.created_at.timestamp() * 1000)
    assert table.due_at == opened + 300_000  # only the abort, at the tournament's abandon time


def test_a_tournament_that_says_a_no_show_counts_for_nothing_overrides_the_site(settings: Any) -> None:
    settings.SPEED_TABLE_SETTINGS = {**settings.SPEED_TABLE_SETTINGS, "no_show_ms": 500}
    table, _users = _open_for_tournament({"abandon_seconds": 300, "no_show_seconds": None})
    assert table.settings["no_show_ms"] is None and table.settings["abandon_ms"] == 300_000
    assert table.settings["claim_ms"] == settings.SPEED_TABLE_SETTINGS["claim_ms"]


def test_a_casual_matchs_table_keeps_the_site_times(settings: Any) -> None:
    table, users = _open()

    async def scenario() -> dict[str, Any]:
        one = Seat(table.pk, users[0])
        state = await one.connect()
        await one.close()
        return state

    shown = async_to_sync(scenario)()["settings"]
    site = settings.SPEED_TABLE_SETTINGS
    assert (shown["claim_ms"], shown["abandon_ms"]) == (site["claim_ms"], site["abandon_ms"])
    assert shown["no_show_ms"] is None
    assert Table.objects.get(pk=table.pk).settings == site


def test_a_seat_noticed_silent_is_shown_present_by_its_next_heartbeat_however_short_the_silence() -> None:
    """A sweep that judged ben's beats late (under load, or while the database was away) shows him away;
    his next beat, even one that came soon after his last (so his connection saw no silence of its own),
    shows him present again. Before, the connection judged its own silence and left him away for good."""
    table, users = _open()

    def notice_ben_silent() -> int | None:
        # Ben's last beat made older than a silence, and the table's clock fired at once: as a sweep
        # that ran while his beats were late would see it (a beat landing in between: try again).
        TableSeat.objects.filter(table_id=table.pk, seat=1).update(seen=F("seen") - stale_after_ms())
        reply = table_tick(table_id=table.pk)
        if not reply.changed:
            return None
        assert reply.table is not None and reply.table.away == [None, reply.table.away[1]] and reply.table.away[1]
        return reply.v

    async def scenario() -> dict[str, Any]:
        one, two = await _seated(table, users)
        for _ in range(20):
            if (noticed := await sync_to_async(notice_ben_silent)()) is not None:
                break
        else:
            raise AssertionError("ben's beats always landed first")
        await table_changed_notify(table.pk, -1)  # the tick above told no socket: tell them all
        back = await one.until(lambda state: state["v"] > noticed and state["away"][1] is None, timeout=3)
        row = await sync_to_async(TableSeat.objects.get)(table_id=table.pk, seat=1)
        assert row.away_since is None and row.channel  # his row says so too: present, held
        await one.close()
        await two.close()
        return back

    assert async_to_sync(scenario)()["connected"] == [True, True]
