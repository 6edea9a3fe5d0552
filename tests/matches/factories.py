"""Test data made through the services, the way the API makes it."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from matches.models import Match, Player
from matches.services import match_create, organiser_grant, player_create
from replays.engine import simulate, verify_document

PASSWORD = "pw-for-tests"
SPEC_EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "spec-examples"
_seq = itertools.count(1)


def make_user(username: str | None = None, *, organiser: bool = False, superuser: bool = False) -> AbstractBaseUser:
    user_model = get_user_model()
    username = username or f"user{next(_seq)}"
    if superuser:
        return user_model.objects.create_superuser(username=username, password=PASSWORD)
    user = user_model.objects.create_user(username=username, password=PASSWORD)
    if organiser:
        organiser_grant(user=user)
    return user


def make_player(handle: str | None = None) -> Player:
    handle = handle or f"player{next(_seq)}"
    return player_create(handle=handle, display_name=handle.title(), password=PASSWORD)


def make_match(one: Player, two: Player, *, ruleset: object = "speed", **series: int) -> Match:
    return match_create(players=[one.handle, two.handle], ruleset=ruleset, **(series or {"best_of": 3}))


def won_log(ruleset: str, names: list[str], *, winner_seat: int | None = None, start: int = 0) -> dict[str, Any]:
    """A simulated, valid log of a won game (the first seed from `start` that is not a deadlock).

    With `winner_seat`, the first such game that seat wins.
    """
    for seed in range(start, start + 500):
        document = simulate(ruleset, seed=seed, players=names)
        winner = document["result"].get("winner")
        if winner is not None and (winner_seat is None or winner == winner_seat):
            return document
    raise AssertionError("no simulated game with that winner in 500 seeds")


def deadlock_log(names: list[str]) -> dict[str, Any]:
    """The spec's valid deadlock example (a void game: no winner), seated with these names."""
    document = orjson.loads((SPEC_EXAMPLES / "valid-speed-deadlock-1100.json").read_bytes())
    document["players"] = names
    assert verify_document(document).code == "ok"
    return document


def tampered(document: dict[str, Any]) -> dict[str, Any]:
    """The same game with its result claimed for the other seat: `result_mismatch`."""
    bad = orjson.loads(orjson.dumps(document))
    bad["result"] = {"winner": 1 - document["result"]["winner"]}
    assert verify_document(bad).code == "result_mismatch"
    return bad


def body(document: object) -> bytes:
    return orjson.dumps(document)
