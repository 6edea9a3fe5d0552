"""The tables over HTTP (speed-table/1 section 1)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Game
from play.models import Table
from tests.factories import make_match, make_player, make_user

pytestmark = pytest.mark.django_db


def _client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_player_opens_the_table_of_an_open_game_once() -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    game = match.games.get(number=1)
    first = _client(alice.user).post(f"/api/games/{game.pk}/table/")
    assert first.status_code == 201
    table = first.json()
    assert table["game"] == game.pk and table["status"] == "waiting" and table["players"] == ["alice", "ben"]
    assert table["socket"] == f"/ws/tables/{table['id']}/" and table["page"] == f"/tables/{table['id']}/"
    assert table["log"] is None and len(table["deck_sha256"]) == 64
    assert table["ruleset"]["center_piles"] == 2
    again = _client(ben.user).post(f"/api/games/{game.pk}/table/")
    assert (again.status_code, again.json()["id"]) == (200, table["id"])
    assert _client().get(f"/api/tables/{table['id']}/").json() == table | {"watching": 0}
    # The proof: the stored deck and salt give the hash shown from the start; neither is shown.
    row = Table.objects.get(pk=table["id"])
    assert hashlib.sha256(f"{row.salt}:{','.join(row.deck)}".encode()).hexdigest() == table["deck_sha256"]
    assert "deck" not in table and "salt" not in table
    # The salt is 128 bits of fresh randomness in hex, so the hash binds it: another table's salt
    # (drawn afresh, never the same) with this deck does not give the hash shown.
    other_game = make_match(alice, ben).games.get(number=1)
    other = Table.objects.get(pk=_client(alice.user).post(f"/api/games/{other_game.pk}/table/").json()["id"])
    assert re.fullmatch(r"[0-9a-f]{32}", row.salt) and re.fullmatch(r"[0-9a-f]{32}", other.salt)
    assert other.salt != row.salt
    assert hashlib.sha256(f"{other.salt}:{','.join(row.deck)}".encode()).hexdigest() != table["deck_sha256"]


def test_who_may_open_a_table_and_for_which_games() -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    game = match.games.get(number=1)
    assert _client().post(f"/api/games/{game.pk}/table/").status_code in (401, 403)
    stranger = make_user("stranger")
    refused = _client(stranger).post(f"/api/games/{game.pk}/table/")
    assert refused.status_code == 403 and "message" in refused.json()
    organiser = make_user("orga", organiser=True)
    assert _client(organiser).post(f"/api/games/{game.pk}/table/").status_code == 201
    assert _client(alice.user).post("/api/games/999999/table/").status_code == 404
    Game.objects.filter(pk=game.pk).update(status=Game.Status.DECIDED, winner=alice)
    Table.objects.filter(game=game).update(status=Table.Status.ABANDONED)
    decided = _client(alice.user).post(f"/api/games/{game.pk}/table/")
    assert decided.status_code == 400 and decided.json()["extra"]["game_status"] == "decided"


def test_a_practice_table_seats_the_caller_and_one_bot_per_other_seat() -> None:
    pat = make_player("pat")
    created = _client(pat.user).post("/api/tables/", {"ruleset": "three-way", "bots": ["easy", "hard"]}, format="json")
    assert created.status_code == 201
    table = created.json()
    assert table["game"] is None and table["players"] == ["pat", "bot-easy-1", "bot-hard-2"]
    assert table["ruleset"]["players"] == 3


@pytest.mark.parametrize(
    ("body", "players"),
    [
        ({"ruleset": "solitaire", "bots": []}, ["pat"]),
        ({"ruleset": "team", "bots": ["easy", "hard", "easy"]}, ["pat", "bot-easy-1", "bot-hard-2", "bot-easy-3"]),
        ({"ruleset": "spit", "bots": ["expert"]}, ["pat", "bot-expert-1"]),
    ],
)
def test_the_extensions_games_have_practice_tables(body: dict[str, Any], players: list[str]) -> None:
    created = _client(make_player("pat").user).post("/api/tables/", body, format="json")
    assert created.status_code == 201 and created.json()["players"] == players


@pytest.mark.parametrize(
    "body",
    [
        {"ruleset": "speed", "bots": ["easy", "hard"]},  # one seat too many
        {"ruleset": "speed", "bots": ["godlike"]},
        {"ruleset": "solitaire", "bots": ["easy"]},  # one seat: the player's alone
        {"ruleset": "team", "bots": ["easy", "easy"]},  # four seats
        {"ruleset": "nope", "bots": ["easy"]},
        {"ruleset": "speed", "bots": []},
        {"ruleset": "speed"},
    ],
)
def test_a_practice_table_refuses_what_it_cannot_seat(body: dict[str, Any]) -> None:
    pat = make_player("pat")
    answer = _client(pat.user).post("/api/tables/", body, format="json")
    assert answer.status_code == 400 and "message" in answer.json()


def test_practice_needs_a_signed_in_user_and_tables_are_public() -> None:
    assert _client().post("/api/tables/", {"ruleset": "speed", "bots": ["easy"]}, format="json").status_code in (
        401,
        403,
    )
    user = make_user("someone")  # no player: the username is the handle
    table = _client(user).post("/api/tables/", {"ruleset": "california", "bots": ["medium"]}, format="json").json()
    assert table["players"][0] == "someone"
    assert _client().get(f"/api/tables/{table['id']}/").status_code == 200
    assert _client().get("/api/tables/999999/").status_code == 404
    assert _client().get(f"/api/tables/{table['id']}/log/").status_code == 404  # not over yet
    assert _client().get(f"/api/tables/{table['id']}/log/document/").status_code == 404
