"""The demo's records agree with each other: a timed game is announced for its winner, and the audit is clean."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from matches.models import Game
from replays.models import MatchLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> None:
    call_command("seed_demo", stdout=StringIO())


def test_the_audit_stays_clean_after_the_demo(demo: None) -> None:
    out = StringIO()
    call_command("audit_records", stdout=out)
    assert "No differences" in out.getvalue()


def test_a_timed_game_won_on_cards_is_announced_for_its_winner(demo: None, client: Client) -> None:
    """Match 38 of the demo: emma called Speed, but hugo played 6 cards against 3 by the limit and won."""
    log = next(
        log
        for log in MatchLog.objects.filter(
            status=MatchLog.Status.VERIFIED, game__match__time_limit_ms__isnull=False
        ).select_related("game", "winner")
        if log.winner_id != log.game.winner_id
    )
    game = log.game
    assert game.status == Game.Status.DECIDED
    caller, winner = log.winner.handle, game.winner.handle
    page = client.get(f"/replays/{log.pk}/")
    html = page.content.decode()
    assert f"Decided: {winner} won the game" in html
    assert f"{caller} called Speed." in html
    assert f"{caller}</strong> called Speed and won" not in html

    # The cards played by the limit follow the step: none at the deal, the score at the limit.
    limit = page.context["replay"].time_limit
    assert limit.played_by_step(0) == (0, 0)
    assert limit.played_by_name == [(name, 0) for name in limit.names]
    last = page.context["replay"].last_step
    assert limit.played_by_step(last) == limit.played
    assert len({limit.played_by_step(step) for step in range(last + 1)}) > 2
    assert page.context["replay"].data["timeLimit"]["playedAt"] == [list(steps) for steps in limit.played_at]

    # The home page's latest replays name the game's winner too.
    home = client.get("/")
    summaries = {entry.pk: result.summary for entry, result in home.context["latest_replays"]}
    assert summaries[log.pk] == f"{winner} won"
