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


def _forfeit_log(names: list[str], *, resigned: int, cards: int = 12) -> tuple[dict[str, Any], int]:
    """A table's log of a game ended early by a resign: the first cards of a real game, no Speed call."""
    document = won_log("speed", names, winner_seat=1 - resigned)
    events = [event for event in document["events"] if event["type"] != "speed"][:cards]
    t = int(events[-1]["t"])
    places = [2, 1] if resigned == 0 else [1, 2]
    document.update(
        events=events,
        result={"winner": 1 - resigned, "by": "resign"},
        table={
            "id": 9,
            "deck_sha256": "0" * 64,
            "salt": "1" * 32,
            "ended": {"by": "resign", "seat": resigned, "t": t, "places": places},
        },
    )
    return document, t


def test_a_forfeit_reads_as_one_on_the_match_log_replay_and_home_pages(
    client: Client, alice: Any, ben: Any, capture: Any
) -> None:
    from matches.services import game_forfeit
    from replays.models import MatchLog
    from replays.services import log_submit_from_table
    from speedrules.text import clock

    game = make_match(alice, ben, best_of=1).games.get()
    document, t = _forfeit_log(["alice", "ben"], resigned=0)
    with capture(execute=True):
        log = log_submit_from_table(game_id=game.pk, data=body(document), provenance=MatchLog.Provenance.FORFEIT)
        game_forfeit(game_id=game.pk, places=(2, 1), by="resign", seat=0, t=t, table_id=9)
    log.refresh_from_db()
    assert log.status == MatchLog.Status.VERIFIED, log.message
    reason = f"alice resigned at the table at {clock(t)}"

    for path in (f"/logs/{log.pk}/", f"/replays/{log.pk}/"):
        page = client.get(path).content.decode()
        assert f"Decided: ben won the game by forfeit ({reason})." in page, path
        assert "The game ended early at the table: the log holds every card played until then." in page, path
        # Its verdict names no winner on purpose; that is no deadlock, and nobody called Speed.
        assert "deadlock" not in page and "called Speed" not in page, path
    match_page = client.get(f"/matches/{game.match_id}/").content.decode()
    assert f'data-role="forfeit">By forfeit: {reason}.</div>' in match_page
    assert f"log {log.pk}, ended early at the table" in match_page
    assert home_summary(client, log.pk) == "ben won by forfeit"


def test_forfeit_words_name_who_and_how_for_each_ending(alice: Any, ben: Any) -> None:
    from web.presenters.results import forfeit_words, game_result_words, practice_result_words

    game = make_match(alice, ben, best_of=1).games.get()
    game.status, game.winner, game.decided_by, game.reason = Game.Status.DECIDED, alice, Game.DecidedBy.FORFEIT, ""
    assert forfeit_words(game) == "The table ended the game early."
    game.reason = "alice claimed the game at the table at 1:02.0: ben had left."
    assert forfeit_words(game) == game.reason
    words = game_result_words(game)
    assert words.summary == "alice won by forfeit"
    assert (
        words.sentence
        == "Decided: alice won the game by forfeit (alice claimed the game at the table at 1:02.0: ben had left)."
    )
    game.decided_by = Game.DecidedBy.TABLE
    assert forfeit_words(game) == ""
    assert game_result_words(game).sentence == "Decided: alice won the game (recorded at the service's table)."

    players = ["chloe", "Easy bot"]
    resigned = practice_result_words(
        result={"winner": 1, "by": "resign"}, players=players, ended={"by": "resign", "seat": 0, "t": 42300}
    )
    assert resigned is not None
    assert resigned.sentence == "chloe resigned at 0:42.3: Easy bot won by forfeit. A practice game counts for nothing."
    three = practice_result_words(
        result={"places": [1, 3, 2], "by": "resign"},
        players=["chloe", "Easy bot", "Hard bot"],
        ended={"by": "resign", "seat": 2, "t": 5000},
    )
    assert three is not None and three.sentence.startswith(
        "Hard bot resigned at 0:05.0: places: 1st chloe, 2nd Hard bot"
    )
    assert practice_result_words(result={"winner": 0}, players=players, ended=None) is None
