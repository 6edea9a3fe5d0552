"""A result's wording comes from the game's state, not from the log alone: the same words on every page.

A verified log is one side's word. While the game waits for the other side, or
is disputed, no page may announce the log's winner as the game's winner.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import Game
from matches.services import match_create
from tests.factories import body, make_match, make_player, won_log

pytestmark = pytest.mark.django_db


def post_log(client: Any, game: Game, document: dict[str, Any], capture: Any) -> int:
    with capture(execute=True):
        response = client.post(f"/api/games/{game.pk}/logs/", data=body(document), content_type="application/json")
    assert response.status_code == 202, response.json()
    return int(response.json()["id"])


def home_summary(client: Client, log_id: int) -> str:
    """What the home page's latest replays say of this log's game."""
    page = client.get("/").content.decode()
    entry = page[page.index(f'href="/replays/{log_id}/"') :]
    return entry[entry.index('class="list__sub"') :].split(">", 1)[1].split(" · ", 1)[0].strip()


def test_a_claim_is_no_win_on_any_page(client: Client, client_for: Any, alice: Any, ben: Any, capture: Any) -> None:
    game = make_match(alice, ben, best_of=1).games.get()
    log_id = post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture)
    assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION

    assert home_summary(client, log_id) == "Awaiting confirmation (alice says alice won)"
    for path in (f"/logs/{log_id}/", f"/replays/{log_id}/"):
        page = client.get(path).content.decode()
        assert "alice called Speed." in page, path
        assert "Awaiting confirmation: alice says alice won." in page, path
        assert "won the game" not in page and "called Speed and won" not in page, path

    # Once ben confirms, every page says the game is decided.
    with capture(execute=True):  # the site's lists are outdated when the change commits
        client_for(ben.user).post(f"/api/games/{game.pk}/confirm/")
    assert home_summary(client, log_id) == "alice won"
    assert "Decided: alice won the game" in client.get(f"/logs/{log_id}/").content.decode()


def test_a_disputed_game_is_no_win_on_any_page(
    client: Client, client_for: Any, alice: Any, ben: Any, capture: Any
) -> None:
    game = make_match(alice, ben, best_of=1).games.get()
    log_id = post_log(client_for(alice.user), game, won_log("speed", ["alice", "ben"], winner_seat=0), capture)
    with capture(execute=True):
        client_for(ben.user).post(f"/api/games/{game.pk}/dispute/", {"reason": "I won"}, format="json")
    assert home_summary(client, log_id) == "Disputed"
    for path in (f"/logs/{log_id}/", f"/replays/{log_id}/"):
        page = client.get(path).content.decode()
        assert "Disputed: the evidence disagrees." in page, path
        assert "won the game" not in page, path


def test_the_submit_page_promises_no_result_to_a_log_alone(client: Client, alice: Any, ben: Any) -> None:
    make_match(alice, ben, best_of=1)
    client.force_login(alice.user)
    page = client.get("/submit/").content.decode()
    assert "goes to the winner" not in page
    assert "your side's word" in page


def test_a_team_game_is_announced_for_the_team(client: Client, organiser: Any, capture: Any) -> None:
    for handle in ("ann", "bo", "cy", "di"):
        make_player(handle)
    match = match_create(players=["ann", "bo", "cy", "di"], ruleset="team", best_of=1)
    game = match.games.get()
    api = APIClient()
    api.force_authenticate(organiser)
    log_id = post_log(api, game, won_log("team", ["ann", "bo", "cy", "di"], winner_seat=0), capture)
    game.refresh_from_db()
    assert game.status == Game.Status.DECIDED  # an organiser's log decides at once
    page = client.get(f"/replays/{log_id}/").content.decode()
    assert "Decided: ann and cy won the game" in page
    assert home_summary(client, log_id) == "ann and cy won"
