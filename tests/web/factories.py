"""Data for the site's tests, made through the apps' services as the pages would make it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from django.contrib.auth.models import AbstractBaseUser

from matches.models import Match, Player
from matches.selectors import player_get
from replays.engine import verify_bytes
from replays.models import MatchLog
from replays.services import log_submit
from tests.matches.factories import make_match, make_player, won_log

DATA = Path(__file__).resolve().parent / "data"


def load(name: str) -> bytes:
    """A log document from tests/web/data, byte for byte."""
    return (DATA / name).read_bytes()


def player(handle: str) -> Player:
    return player_get(handle=handle) or make_player(handle)


def match_for(document: dict[str, Any], **series: int) -> Match:
    """A match between the log's two players, under the log's ruleset."""
    one, two = (player(name) for name in document["players"])
    return make_match(one, two, ruleset=document["ruleset"] or "speed", **series)


def submit(data: bytes, *, user: AbstractBaseUser, match: Match | None = None) -> MatchLog:
    """Submit a log for the match's open game (verified in-process: eager Celery)."""
    document = orjson.loads(data)
    match = match or match_for(document)
    game = match.games.order_by("-number").first()
    assert game is not None
    log, _ = log_submit(game_id=game.pk, data=data, user=user)  # verified when this commits: use transactional tests
    log.refresh_from_db()
    return log


def engine_steps(data: bytes) -> list[dict[str, Any]]:
    """What the replay must show: the engine's own steps for the document."""
    verdict = verify_bytes(data, steps=True)
    assert verdict.steps is not None
    return [step.to_dict() for step in verdict.steps]


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
