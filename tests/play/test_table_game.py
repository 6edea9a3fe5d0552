"""Whole games at a table over its sockets: the Speed call, a stall, a reshuffle, a deadlock, the decided match."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from matches.models import Game
from matches.services import match_create
from play.models import Table, TableEvent
from play.services import table_open_for_game, table_practice_create
from replays.models import MatchLog, ReplaySteps
from speedrules import PRESETS
from tests.factories import make_player
from tournaments.audit import audit_records

from .conftest import Seat, assert_no_leak, dealt_to, find_deck, only_seat_zero, play_match, play_out

ROOT = Path(__file__).resolve().parents[2]


def _verify_with_cli(data: bytes, tmp_path: Path) -> dict:
    path = tmp_path / "table.json"
    path.write_bytes(data)
    out = subprocess.run(
        [sys.executable, "-m", "replays.engine", "verify", str(path)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return json.loads(out.stdout.splitlines()[0])


def _play_match_game(ruleset: str, deck: list[str]) -> tuple[Table, list[Seat], Seat, object]:
    seats_count = PRESETS[ruleset].players
    players = [make_player(name) for name in ("alice", "ben", "chloe", "dev")[:seats_count]]
    match = match_create(
        players=[player.handle for player in players],
        ruleset=ruleset,
        best_of=3,
        **({"points_per_place": [3, 1, 0][:seats_count] + [0] * (seats_count - 3)} if seats_count > 2 else {}),
    )
    game = match.games.get(number=1)
    table, _ = table_open_for_game(game_id=game.pk, user=players[0].user, deck=deck)

    seats, watcher = play_match(table.pk, [player.user for player in players])
    return Table.objects.get(pk=table.pk), seats, watcher, match


@pytest.mark.django_db(transaction=True)
def test_a_won_game_is_called_stored_verified_and_decides_the_match(tmp_path: Path) -> None:
    deck = find_deck(
        "speed", lambda types, result, deck: result is not None and "winner" in result and "stall" in types
    )
    table, seats, watcher, match = _play_match_game("speed", deck)

    assert table.status == Table.Status.OVER and "winner" in table.result
    events = list(TableEvent.objects.filter(table=table).order_by("index").values_list("data", flat=True))
    assert events[-1] == {"t": events[-1]["t"], "type": "speed", "player": table.result["winner"]}
    assert any(event["type"] == "stall" for event in events)
    # Every connection saw the end: the result, the salt and the log; the deal's proof checks out.
    final = seats[0].state
    assert (
        final["result"] == table.result and final["salt"] == table.salt and final["log"] == f"/api/logs/{table.log_id}/"
    )
    assert hashlib.sha256(f"{final['salt']}:{','.join(table.deck)}".encode()).hexdigest() == final["deck_sha256"]
    # No message before the end showed anyone a card they may not see.
    for index, seat in enumerate(seats):
        assert_no_leak(seat.received, seat=index, own=dealt_to("speed", deck, index))
    assert_no_leak(watcher.received, seat=None, own=set())

    log = MatchLog.objects.get(pk=table.log_id)
    assert log.provenance == MatchLog.Provenance.TABLE and log.status == MatchLog.Status.VERIFIED
    assert APIClient().get(final["log"]).json()["provenance"] == "table"  # and the log's JSON says so
    document = json.loads(bytes(log.data))
    assert document["table"] == {"id": table.pk, "deck_sha256": table.deck_sha256, "salt": table.salt}
    assert document["events"] == events
    assert _verify_with_cli(bytes(log.data), tmp_path)["valid"] is True

    game = Game.objects.get(match=match, number=1)
    winner = match.players[table.result["winner"]]
    assert (game.status, game.decided_by, game.winner_id) == (Game.Status.DECIDED, Game.DecidedBy.TABLE, winner.pk)
    assert Game.objects.filter(match=match, number=2, status=Game.Status.OPEN).exists()  # the series moved on
    assert audit_records().differences == []

    # A decided game opens no table; its finished table still answers.

    client = APIClient()
    client.force_authenticate(match.players[0].user)
    assert client.post(f"/api/games/{game.pk}/table/").status_code == 400
    assert APIClient().get(f"/api/tables/{table.pk}/").json()["log"] == f"/api/logs/{table.log_id}/"


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_is_recorded_and_voids_the_game(tmp_path: Path) -> None:
    deck = find_deck("california", lambda types, result, deck: result == {"deadlock": True} and "stall" in types)
    table, _seats, _watcher, match = _play_match_game("california", deck)
    assert table.result == {"deadlock": True}
    stalls = TableEvent.objects.filter(table=table, data__type="stall").count()
    assert stalls > 0  # the draw piles flipped (default flips after stall_ms)
    log = MatchLog.objects.get(pk=table.log_id)
    assert _verify_with_cli(bytes(log.data), tmp_path)["winner"] is None
    game = Game.objects.get(match=match, number=1)
    assert (game.status, game.decided_by) == (Game.Status.VOID, Game.DecidedBy.TABLE)


@pytest.mark.django_db(transaction=True)
def test_stacks_run_out_and_the_centre_is_reshuffled(tmp_path: Path) -> None:
    deck = find_deck("speed", lambda types, result, deck: types[-1] == "reshuffle")
    table, seats, watcher, _match = _play_match_game("speed", deck)
    reshuffles = list(TableEvent.objects.filter(table=table, data__type="reshuffle").values_list("data", flat=True))
    assert reshuffles and all(len(event["order"]) > 0 for event in reshuffles)
    # The order was never shown before the end (assert_no_leak checks each message).
    for index, seat in enumerate(seats):
        assert_no_leak(seat.received, seat=index, own=dealt_to("speed", deck, index))
    assert_no_leak(watcher.received, seat=None, own=set())
    assert _verify_with_cli(bytes(MatchLog.objects.get(pk=table.log_id).data), tmp_path)["valid"] is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("ruleset", "bots"), [("speed", ["hard"]), ("three-way", ["hard", "medium"])])
def test_a_practice_game_against_bots_is_played_and_its_log_kept(tmp_path: Path, ruleset: str, bots: list[str]) -> None:
    me = make_player("pat")
    table = table_practice_create(user=me.user, ruleset=ruleset, bots=bots)
    assert table.players == ["pat", *(f"bot-{level}-{seat}" for seat, level in enumerate(bots, start=1))]
    assert table.ready == [False, *([True] * len(bots))]

    async def scenario() -> None:
        seat = Seat(table.pk, me.user)
        await seat.connect()
        await seat.send({"type": "ready"})
        await seat.until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
        await play_out({0: seat}, table.pk, hook=only_seat_zero)
        await seat.until(lambda state: state["status"] == "over", timeout=5)
        await seat.close()

    async_to_sync(scenario)()
    table.refresh_from_db()
    log = MatchLog.objects.get(pk=table.log_id)  # stored verbatim, then verified by the task after the commit
    assert table.status == Table.Status.OVER and (log.game_id, log.provenance) == (None, "practice")
    assert (log.status, log.code, log.judgements, log.winner_seat) == ("verified", "ok", 1, table.result["winner"])
    bots_played = TableEvent.objects.filter(table=table, data__type="play", data__player=1).count()
    assert bots_played > 0
    assert _verify_with_cli(bytes(log.data), tmp_path)["valid"] is True
    # Its log and replay are a log's, through the API: the table's own addresses answer the same.

    client = APIClient()
    shown = client.get(f"/api/tables/{table.pk}/").json()
    # speed-table/1: `log` is the log's URL, and its bytes are at `log` + `document/`.
    assert shown["game"] is None and shown["log"] == f"/api/logs/{log.pk}/"
    assert client.get(shown["log"] + "document/").content == bytes(log.data)
    assert client.get(f"/api/tables/{table.pk}/log/document/").content == bytes(log.data)
    about = client.get(shown["log"]).json()
    assert about == client.get(f"/api/tables/{table.pk}/log/").json()
    assert (about["provenance"], about["status"], about["code"], about["game"]) == ("practice", "verified", "ok", None)
    assert about["size"] == len(bytes(log.data)) and about["winner"] == table.result["winner"]
    assert not ReplaySteps.objects.filter(log=log).exists()  # built on first view, not by the verification
    steps = client.get(f"/api/logs/{log.pk}/steps/compact/").json()
    assert steps["format"] == "speed-steps/1" and steps["total"] == table.event_count + 1
    kept = ReplaySteps.objects.get(log=log)
    assert client.get(f"/api/tables/{table.pk}/steps/compact/").json() == steps
    assert ReplaySteps.objects.get(log=log).created_at == kept.created_at  # read from the cache, not rebuilt


@pytest.mark.django_db(transaction=True)
def test_a_table_of_three_decides_its_game_with_places(tmp_path: Path) -> None:
    deck = find_deck("three-way", lambda types, result, deck: result is not None and "winner" in result)
    table, seats, watcher, match = _play_match_game("three-way", deck)
    for index, seat in enumerate(seats):
        assert_no_leak(seat.received, seat=index, own=dealt_to("three-way", deck, index))
    assert_no_leak(watcher.received, seat=None, own=set())
    game = Game.objects.get(match=match, number=1)
    assert (game.status, game.decided_by) == (Game.Status.DECIDED, Game.DecidedBy.TABLE)
    assert game.winner_id == match.players[table.result["winner"]].pk and game.places is not None
    assert audit_records().differences == []
