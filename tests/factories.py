"""Test data for every suite, made through the apps' services the way the API and the pages make it.

The fixtures built on these live in tests/conftest.py. Log documents come from
the one copy of the spec's examples in tests/data/spec-examples.
"""

from __future__ import annotations

import inspect
import itertools
from pathlib import Path
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from matches.models import Game, Match, Player
from matches.selectors import player_get
from matches.services import game_set_result, match_create, organiser_grant, player_create
from replays.models import MatchLog
from replays.services import log_submit
from speedrules import simulate, verify_bytes, verify_document
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import entrant_add, tournament_create, tournament_start

PASSWORD = "pw-for-tests"
SPEC_EXAMPLES = Path(__file__).resolve().parent / "data" / "spec-examples"
_seq = itertools.count(1)


# Users, players and matches.


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


def make_players(count: int, prefix: str = "p") -> list[Player]:
    return [make_player(f"{prefix}{index:02d}") for index in range(1, count + 1)]


def player(handle: str) -> Player:
    """The player with this handle, made if there is none yet."""
    return player_get(handle=handle) or make_player(handle)


def make_match(one: Player, two: Player, *, ruleset: object = "speed", **series: int) -> Match:
    return match_create(players=[one.handle, two.handle], ruleset=ruleset, **(series or {"best_of": 3}))


def match_for(document: dict[str, Any], **series: int) -> Match:
    """A match between the log's players (two to four, seated as in the log), under the log's ruleset."""
    handles = [player(name).handle for name in document["players"]]
    return match_create(players=handles, ruleset=document["ruleset"] or "speed", **(series or {"best_of": 3}))


# Log documents.


def load(name: str) -> bytes:
    """One of the spec's example logs, byte for byte."""
    return (SPEC_EXAMPLES / name).read_bytes()


def won_log(ruleset: str, names: list[str], *, winner_seat: int | None = None, start: int = 0) -> dict[str, Any]:
    """A simulated, valid log of a won game (the first seed from `start` that is not a deadlock).

    With `winner_seat`, the first such game that seat wins (in Team Speed: that team, by its index).
    """
    for seed in range(start, start + 500):
        document = simulate(ruleset, seed=seed, players=names)
        winner = document["result"].get("winner", document["result"].get("winner_team"))
        if winner is not None and (winner_seat is None or winner == winner_seat):
            return document
    raise AssertionError("no simulated game with that winner in 500 seeds")


def deadlock_log(names: list[str]) -> dict[str, Any]:
    """The spec's valid deadlock example (a void game: no winner), seated with these names."""
    document = orjson.loads(load("valid-speed-deadlock-1100.json"))
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


def engine_steps(data: bytes) -> list[dict[str, Any]]:
    """What a replay must show: the engine's own steps for the document."""
    verdict = verify_bytes(data, steps=True)
    assert verdict.steps is not None
    return [step.to_dict() for step in verdict.steps]


# Playing games and matches.


def submit(data: bytes, *, user: AbstractBaseUser, match: Match | None = None) -> MatchLog:
    """Submit a log for the match's open game (verified in-process: eager Celery)."""
    document = orjson.loads(data)
    match = match or match_for(document)
    game = match.games.order_by("-number").first()
    assert game is not None
    log, _ = log_submit(game_id=game.pk, data=data, user=user)  # verified when this commits: use transactional tests
    log.refresh_from_db()
    return log


def win_match(match: Match, *, winner: Player, user: AbstractBaseUser) -> None:
    """Play a match out with simulated, verified logs until `winner` has won it."""
    names = [match.player_one.handle, match.player_two.handle]
    seat = names.index(winner.handle)
    seed = 0
    match.refresh_from_db()
    while match.status == Match.Status.IN_PROGRESS:
        game = match.games.filter(status="open").order_by("number").first()
        assert game is not None
        document = won_log(match.ruleset_name or "speed", names, winner_seat=seat, start=seed)
        log_submit(game_id=game.pk, data=orjson.dumps(document), user=user)
        match.refresh_from_db()
        seed += 500


# Tournaments.


def make_tournament(
    organiser: AbstractBaseUser,
    players: list[Player],
    *,
    format: str,
    name: str | None = None,
    start: bool = True,
    **options: object,
) -> Tournament:
    """A tournament of these players, seeded in order, started unless `start=False` (best of 1 by default).

    Keyword arguments `tournament_create` takes go to it; the rest are the format's options.
    """
    shared = {name for name in inspect.signature(tournament_create).parameters if name != "options"}
    fields = {key: value for key, value in options.items() if key in shared}
    fields.setdefault("best_of", 1)
    format_options = {key: value for key, value in options.items() if key not in shared}
    tournament = tournament_create(
        name=name or f"{format} cup",
        format=format,
        user=organiser,
        options=format_options,
        **fields,  # type: ignore[arg-type]
    )
    for seed, entrant in enumerate(players, start=1):
        entrant_add(tournament_id=tournament.pk, handle=entrant.handle, seed=seed, user=organiser)
    if start:
        tournament = tournament_start(tournament_id=tournament.pk, user=organiser)
    return tournament


def play(organiser: AbstractBaseUser, pairing: TournamentMatch, winner: Player) -> None:
    """Decide a pairing's match by having an organiser set each game's result to `winner`."""
    assert pairing.match_id is not None, f"{pairing.key} has no match yet"
    while True:
        match = Match.objects.get(pk=pairing.match_id)
        if match.status == Match.Status.FINISHED:
            return
        game = Game.objects.filter(match=match, status=Game.Status.OPEN).order_by("number").first()
        assert game is not None
        game_set_result(game_id=game.pk, user=organiser, winner=winner.handle)


def ready(tournament: Tournament) -> list[TournamentMatch]:
    return list(
        TournamentMatch.objects.filter(tournament=tournament, status=TournamentMatch.Status.READY)
        .select_related("player_one", "player_two")
        .order_by("id")
    )


def play_table(organiser: AbstractBaseUser, pairing: TournamentMatch, order: list[Player]) -> None:
    """Decide a table's match by an organiser setting each game's places: `order` first to last, every game."""
    assert pairing.match_id is not None, f"{pairing.key} has no match yet"
    places = {seated.handle: place for place, seated in enumerate(order, start=1)}
    while True:
        match = Match.objects.get(pk=pairing.match_id)
        if match.status == Match.Status.FINISHED:
            return
        game = Game.objects.filter(match=match, status=Game.Status.OPEN).order_by("number").first()
        assert game is not None
        if match.is_table:
            game_set_result(game_id=game.pk, user=organiser, winner=None, places=places)
        else:
            game_set_result(game_id=game.pk, user=organiser, winner=order[0].handle)
