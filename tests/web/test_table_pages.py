"""The table pages through Django's test client: the page's shell, "Play at a table", practice, a practice replay."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.test import Client

from matches.models import Player
from matches.services import match_create
from play.models import Table
from replays.models import MatchLog, ReplaySteps
from replays.services import log_submit, log_submit_practice
from speedrules import simulate
from tests.factories import PASSWORD, body, make_match, make_player, won_log

pytestmark = pytest.mark.django_db


def signed_in(player: Player) -> Client:
    client = Client()
    assert client.login(username=player.handle, password=PASSWORD)
    return client


def test_an_unknown_table_is_404(client: Client) -> None:
    assert client.get("/tables/999999/").status_code == 404


def test_play_at_a_table_is_offered_to_the_players_and_opens_one_table(alice: Player, ben: Player) -> None:
    match = make_match(alice, ben, best_of=3)
    game = match.games.get(number=1)
    page = signed_in(alice).get(f"/matches/{match.pk}/").content.decode()
    assert f'action="/games/{game.pk}/table/"' in page
    assert "Play at a table: game 1" in page
    assert "Play at a table" in signed_in(alice).get("/me/").content.decode()

    first = signed_in(alice).post(f"/games/{game.pk}/table/")
    table = Table.objects.get(game=game)
    assert first.status_code == 302 and first["Location"] == f"/tables/{table.pk}/"
    again = signed_in(ben).post(f"/games/{game.pk}/table/")
    assert again["Location"] == f"/tables/{table.pk}/"
    assert Table.objects.filter(game=game).count() == 1

    shell = signed_in(ben).get(f"/tables/{table.pk}/").content.decode()
    assert f'data-socket="/ws/tables/{table.pk}/"' in shell
    assert f'href="/matches/{match.pk}/"' in shell
    assert "js/table.js" in shell


def test_others_are_not_offered_the_table_and_are_refused_one(alice: Player, ben: Player, carol: Player) -> None:
    match = make_match(alice, ben, best_of=3)
    game = match.games.get(number=1)
    assert "Play at a table" not in signed_in(carol).get(f"/matches/{match.pk}/").content.decode()
    assert "Play at a table" not in Client().get(f"/matches/{match.pk}/").content.decode()
    refused = signed_in(carol).post(f"/games/{game.pk}/table/", follow=True)
    assert refused.redirect_chain[-1][0] == f"/matches/{match.pk}/"
    assert "Only the match&#x27;s players or an organiser can open its table." in refused.content.decode()
    assert not Table.objects.exists()
    assert Client().post(f"/games/{game.pk}/table/").status_code == 302  # to the login page
    assert not Table.objects.exists()


def test_a_team_match_is_not_offered_a_table() -> None:
    players = [make_player(handle) for handle in ("t1", "t2", "t3", "t4")]
    match = match_create(players=[p.handle for p in players], ruleset="team", best_of=1)
    assert "Play at a table" not in signed_in(players[0]).get(f"/matches/{match.pk}/").content.decode()


def test_practice_makes_a_table_against_bots_of_the_level_chosen(alice: Player) -> None:
    assert Client().get("/play/").status_code == 302  # sign in first
    client = signed_in(alice)
    form = client.get("/play/").content.decode()
    assert all(f'value="{name}"' in form for name in ("four-way", "team", "spit", "double-spit", "solitaire"))
    answer = client.post("/play/", {"ruleset": "three-way", "level": "hard"})
    table = Table.objects.get()
    assert answer["Location"] == f"/tables/{table.pk}/"
    assert table.game_id is None
    assert table.players[0] == "alice" and table.bots == [None, "hard", "hard"]
    shell = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-replay-url="/replays/0/"' in shell  # a practice game's replay is its log's, as any table's
    assert "Practice against bots" in shell

    bad = client.post("/play/", {"ruleset": "nonsense", "level": "hard"})
    assert bad.status_code == 200 and Table.objects.count() == 1


def _practice_over(table: Table, document: dict[str, Any], capture: Any, **fields: Any) -> MatchLog:
    """What the referee leaves at the end of a practice game: a practice log, verified after the commit."""
    with capture(execute=True):
        log = log_submit_practice(data=orjson.dumps(document))
    Table.objects.filter(pk=table.pk).update(status=Table.Status.OVER, log=log, result=document["result"], **fields)
    return MatchLog.objects.get(pk=log.pk)


def test_a_practice_replay_and_log_once_the_game_is_over(alice: Player, capture: Any) -> None:
    client = signed_in(alice)
    client.post("/play/", {"ruleset": "speed", "level": "easy"})
    table = Table.objects.get()
    assert client.get(f"/tables/{table.pk}/replay/").status_code == 404  # not over yet
    document: dict[str, Any] = simulate("speed", seed=4, players=list(table.players))
    log = _practice_over(table, document, capture)
    assert (log.game_id, log.provenance, log.status, log.code) == (None, "practice", "verified", "ok")
    moved = client.get(f"/tables/{table.pk}/replay/")
    assert moved.status_code == 302 and moved["Location"] == f"/replays/{log.pk}/"
    replay = client.get(f"/replays/{log.pk}/").content.decode()  # the page every log's replay is
    assert "data-replay" in replay and f'data-url="/api/logs/{log.pk}/steps/compact/"' in replay
    assert f'href="/api/logs/{log.pk}/document/"' in replay and f'href="/tables/{table.pk}/"' in replay
    assert "bot-easy-1" in replay and "practice, counts for nothing" in replay
    assert ReplaySteps.objects.filter(log=log).exists()  # kept: the next view reads them, not the engine
    assert client.get(f"/logs/{log.pk}/")["Location"] == f"/replays/{log.pk}/"  # no game's verdict to follow


def test_a_match_tables_replay_address_leads_to_its_logs_replay(alice: Player, ben: Player, organiser: Any) -> None:
    match = make_match(alice, ben, best_of=1)
    game = match.games.get(number=1)
    signed_in(alice).post(f"/games/{game.pk}/table/")
    table = Table.objects.get(game=game)
    assert Client().get(f"/tables/{table.pk}/replay/").status_code == 404  # nothing played yet
    # What the referee leaves when a match table's game ends: the game's stored log, named on the table.
    log, _ = log_submit(game_id=game.pk, data=body(won_log("speed", [alice.handle, ben.handle])), user=organiser)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.OVER, log=log)
    response = Client().get(f"/tables/{table.pk}/replay/")
    assert response.status_code == 302 and response["Location"] == f"/replays/{log.pk}/"


def test_a_practice_game_resigned_is_not_shown_as_a_speed_call(alice: Player, capture: Any) -> None:
    client = signed_in(alice)
    client.post("/play/", {"ruleset": "speed", "level": "easy"})
    table = Table.objects.get()
    document: dict[str, Any] = simulate("speed", seed=4, players=list(table.players))
    events = [event for event in document["events"] if event["type"] != "speed"][:8]
    t = int(events[-1]["t"])
    ended = {"by": "resign", "seat": 0, "t": t, "places": [2, 1]}
    document.update(events=events, result={"winner": 1, "by": "resign"}, table={"id": table.pk, "ended": ended})
    log = _practice_over(table, document, capture, ended={**ended, "at": 0})
    replay = client.get(f"/replays/{log.pk}/").content.decode()
    assert "alice resigned at 0:" in replay and "bot-easy-1 won by forfeit" in replay
    assert "called Speed" not in replay and "deadlock" not in replay
