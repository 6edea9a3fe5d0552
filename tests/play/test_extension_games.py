"""The extension's games at a table, over its sockets: Spit, Team Speed, Double Spit and Speed Solitaire.

Each is played to its end through the protocol (docs/table-protocol.md), and
every log a table makes verifies and decides its game as the extension's logs do.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from matches.models import Game
from matches.services import match_create
from play.models import Table, TableEvent
from play.services import table_open_for_game, table_practice_create
from replays.models import MatchLog, SolitaireRun
from speedrules import PRESETS, verify_bytes
from tests.factories import make_player

from .conftest import Seat, driver_intent, fixed_deck, game_now, only_seat_zero, play_match, play_out


def _verified(data: bytes) -> Any:
    verdict = verify_bytes(data)
    assert verdict.code == "ok", verdict
    return verdict


def _match_table(ruleset: str, seed: int = 1) -> tuple[Table, list[Any], Any]:
    seats = PRESETS[ruleset].players
    players = [make_player(name) for name in ("alice", "ben", "chloe", "dev")[:seats]]
    match = match_create(players=[player.handle for player in players], ruleset=ruleset, best_of=1)
    game = match.games.get(number=1)
    table, _ = table_open_for_game(game_id=game.pk, user=players[0].user, deck=fixed_deck(ruleset, seed))
    return table, players, match


def _play_match(table: Table, players: list[Any]) -> tuple[list[Seat], Seat]:
    return play_match(table.pk, [player.user for player in players], max_moves=4000)


@pytest.mark.django_db(transaction=True)
def test_a_spit_match_is_played_from_the_stock_piles_and_decides_its_game() -> None:
    table, players, match = _match_table("spit")
    seats, watcher = _play_match(table, players)
    table.refresh_from_db()
    types = list(TableEvent.objects.filter(table=table).values_list("data__type", flat=True))
    assert {"play", "stall", "speed"} <= set(types)
    assert all("from" in event.data for event in TableEvent.objects.filter(table=table, data__type="play"))
    verdict = _verified(bytes(MatchLog.objects.get(pk=table.log_id).data))
    assert table.result == {"winner": verdict.winner}
    game = Game.objects.get(match=match, number=1)
    assert (game.status, game.decided_by, game.winner_id) == ("decided", "table", players[verdict.winner].pk)
    # Face-up stock tops lie open: the spectator saw every seat's stock, and no hand.
    playing = [state for state in watcher.received if state["type"] == "state" and state["status"] == "playing"]
    assert playing and all(state["hand"] is None for state in playing)
    first = playing[0]["stock"]
    assert [len(piles) for piles in first] == [5, 5]
    assert [[pile["down"] for pile in piles] for piles in first] == [[0, 1, 2, 3, 4]] * 2
    assert all(pile["top"] for piles in first for pile in piles)
    assert seats[0].state is not None and seats[0].state["hand"] == []


@pytest.mark.django_db(transaction=True)
def test_a_team_speed_match_is_won_by_a_team_with_hands_kept_from_partners() -> None:
    table, players, match = _match_table("team")
    seats, _watcher = _play_match(table, players)
    table.refresh_from_db()
    verdict = _verified(bytes(MatchLog.objects.get(pk=table.log_id).data))
    assert table.result == {"winner_team": verdict.winner_team}
    team = PRESETS["team"].teams[verdict.winner_team]
    game = Game.objects.get(match=match, number=1)
    assert game.status == "decided" and game.winner_id == players[team[0]].pk
    # A seat is shown its own hand, never its partner's: its hand is always a subset of what it held.
    for index, seat in enumerate(seats):
        states = [state for state in seat.received if state["type"] == "state" and state["hand"]]
        assert states
        for state in states:
            assert len(state["hand"]) == state["hand_counts"][index]
        partner = next(other for other in PRESETS["team"].teams[index % 2] if other != index)
        assert all(state["draw_counts"][index] == state["draw_counts"][partner] for state in states)


@pytest.mark.django_db(transaction=True)
def test_a_team_resign_loses_for_the_team_at_once() -> None:
    table, players, match = _match_table("team")

    async def scenario() -> None:
        seats = [Seat(table.pk, player.user) for player in players]
        for seat in seats:
            await seat.connect()
            await seat.send({"type": "ready"})
        await seats[0].until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
        game = await game_now(table.pk)
        move = driver_intent(game.state)
        assert move is not None
        await seats[move[0]].send({**move[1], "ref": "first"})
        await seats[0].until(lambda state: any(state["hand_counts"]) and state["last"] is not None, timeout=5)
        await seats[1].send({"type": "resign"})
        await seats[0].until(lambda state: state["status"] == "over", timeout=5)
        for seat in seats:
            await seat.close()

    async_to_sync(scenario)()
    table.refresh_from_db()
    assert table.result == {"by": "resign", "winner_team": 0}  # seat 1 plays for team 1 ([1, 3])
    game = Game.objects.get(match=match, number=1)
    assert (game.status, game.decided_by, game.winner_id) == ("decided", "forfeit", players[0].pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("ruleset", "bots"), [("spit", ["hard"]), ("double-spit", ["expert"]), ("team", ["hard"] * 3)])
def test_bots_play_the_extensions_games_at_a_practice_table(ruleset: str, bots: list[str]) -> None:
    me = make_player("pat")
    table = table_practice_create(user=me.user, ruleset=ruleset, bots=bots)

    async def scenario() -> None:
        seat = Seat(table.pk, me.user)
        await seat.connect()
        await seat.send({"type": "ready"})
        await seat.until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
        await play_out({0: seat}, table.pk, hook=only_seat_zero, max_moves=20_000)
        await seat.close()

    async_to_sync(scenario)()
    table.refresh_from_db()
    log = MatchLog.objects.get(pk=table.log_id)
    assert table.status == Table.Status.OVER and (log.status, log.code) == ("verified", "ok")
    bot_seats = range(1, len(bots) + 1)
    kinds = set(
        TableEvent.objects.filter(table=table, data__player__in=list(bot_seats)).values_list("data__type", flat=True)
    )
    assert "play" in kinds


@pytest.mark.django_db(transaction=True)
def test_a_solitaire_run_at_a_table_goes_to_the_leaderboard_verified() -> None:
    me = make_player("sol")
    table = table_practice_create(user=me.user, ruleset="solitaire", bots=[], deck=fixed_deck("solitaire", 3))
    assert table.players == ["sol"]

    async def scenario() -> None:
        seat = Seat(table.pk, me.user)
        await seat.connect()
        await seat.send({"type": "ready"})
        await seat.until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
        await play_out({0: seat}, table.pk, max_moves=4000)
        await seat.close()

    async_to_sync(scenario)()
    table.refresh_from_db()
    run = SolitaireRun.objects.get(pk=table.solitaire_run_id)
    assert run.player_id == me.pk and bytes(run.data) == bytes(MatchLog.objects.get(pk=table.log_id).data)
    assert run.status == "verified"
    if "winner" in table.result:
        assert (run.cleared, run.finished_ms) == (
            True,
            TableEvent.objects.get(table=table, data__type="speed").data["t"],
        )
    else:
        assert table.result == {"deadlock": True, "cards_left": run.cards_left} and run.cleared is False
    client = APIClient()
    assert client.get(f"/api/tables/{table.pk}/").json()["solitaire_run"] == run.pk
    board = client.get("/api/solitaire/leaderboard/").json()
    assert [(row["id"], row["player"]) for row in board["results"]] == [(run.pk, "sol")]


@pytest.mark.django_db(transaction=True)
def test_spit_intents_are_judged_by_the_engine_and_read_before_any_query() -> None:
    table, players, _match = _match_table("spit")

    async def scenario() -> list[dict[str, Any]]:
        seat = Seat(table.pk, players[0].user)
        other = Seat(table.pk, players[1].user)
        for each in (seat, other):
            await each.connect()
            await each.send({"type": "ready"})
        state = await seat.until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
        top0 = state["stock"][0][0]["top"]
        top4 = state["stock"][0][4]["top"]
        refusals = []
        for message in (
            {"type": "play", "card": top0, "pile": 0},  # no `from`
            {"type": "move", "card": top4, "from": 4, "to": 9},  # no such stock position
            {"type": "move", "card": top4, "from": 4, "to": 0},  # position 0 holds a card
            {"type": "move", "card": top0, "from": 4, "to": 0},  # not the top of pile 4
            {"type": "play", "card": top4, "from": 4, "pile": 5},
        ):
            await seat.send({**message, "ref": f"r{len(refusals)}"})
            refusals.append(await seat.refusal())
        for each in (seat, other):
            await each.close()
        return refusals

    refusals = async_to_sync(scenario)()
    assert [refusal["code"] for refusal in refusals] == [
        "bad_message",
        "bad_message",
        "no_fit",
        "not_in_hand",
        "bad_message",
    ]
    assert not TableEvent.objects.filter(table=table, data__type="move").exists()


@pytest.mark.django_db(transaction=True)
def test_a_move_or_a_from_outside_a_tableau_game_is_a_bad_message() -> None:
    table, players, _match = _match_table("speed")

    async def scenario() -> list[str]:
        seat = Seat(table.pk, players[0].user)
        await seat.connect()
        codes = []
        for message in (
            {"type": "move", "card": "AS", "from": 0, "to": 1},
            {"type": "play", "card": "AS", "from": 0, "pile": 0},
        ):
            await seat.send(message)
            codes.append((await seat.refusal())["code"])
        await seat.close()
        return codes

    assert async_to_sync(scenario)() == ["bad_message", "bad_message"]


@pytest.mark.django_db(transaction=True)
def test_a_card_of_the_partners_hand_is_not_in_hand() -> None:
    table, players, _match = _match_table("team")

    async def scenario() -> dict[str, Any]:
        seats = [Seat(table.pk, player.user) for player in players]
        for seat in seats:
            await seat.connect()
            await seat.send({"type": "ready"})
        await seats[0].until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
        partners_card = seats[2].state["hand"][0] if seats[2].state and seats[2].state["hand"] else None
        if partners_card is None:
            partners_card = (await seats[2].until(lambda state: bool(state["hand"]), timeout=5))["hand"][0]
        await seats[0].send({"type": "play", "card": partners_card, "pile": 0, "ref": "theirs"})
        refusal = await seats[0].refusal()
        for seat in seats:
            await seat.close()
        return refusal

    refusal = async_to_sync(scenario)()
    assert refusal["code"] == "not_in_hand"
    assert not TableEvent.objects.filter(table=table, data__type="play").exists()
