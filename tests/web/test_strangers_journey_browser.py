"""Two strangers find each other and keep playing, in real browsers against Daphne.

The whole road a new player takes, as one story: amara and bruno sign up on the sign-up page; they
meet in the lobby (bruno posts a game, amara accepts it) and play it out; bruno then challenges
amara from her player page, she accepts, and when he sits at the match's table her page tells her
he is waiting; they play, both say "Play again", and play the rematch. The single steps have
their own tests (the lobby, challenges, the banner, play again); this one checks they join up.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from benchmarks.asgi_server import AsgiServer
from matches.models import Challenge, Game, Match
from play.models import Seek, TableAgain
from tests.web.test_lobby_browser import post_a_casual_game
from tests.web.test_table_browser import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "lantern-orchard-42"


def _sign_up(page: Page, server: AsgiServer, handle: str, name: str) -> None:
    page.goto(f"{server.url}/accounts/signup/")
    page.get_by_label("Handle").fill(handle)
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{server.url}/me/")


def _ready_and_play(pages: list[Page]) -> None:
    for page in pages:
        expect(page.locator("[data-role=link]")).to_have_text("Connected")
        page.get_by_role("button", name="I'm ready").click()
    for page in pages:
        expect(page.locator("[data-table]")).to_have_attribute("data-status", "playing", timeout=15_000)
    play_out(pages)
    for page in pages:
        expect(page.locator("[data-role=result]")).not_to_be_empty()


def _first_game_decided_at_its_table(match: Match) -> None:
    game = Game.objects.get(match=match, number=1)
    assert game.decided_by == Game.DecidedBy.TABLE, game.decided_by


def test_two_strangers_meet_in_the_lobby_then_by_a_challenge_and_play_again(
    asgi_server: AsgiServer, new_page: Callable[..., Page], shot: Callable[[Page, str], object]
) -> None:
    url = asgi_server.url
    amara, bruno = new_page(), new_page(width=390, height=844)  # bruno on a phone
    _sign_up(amara, asgi_server, "amara", "Amara")
    _sign_up(bruno, asgi_server, "bruno", "Bruno")

    # The lobby: bruno posts a casual game, amara (who has never played him) accepts it.
    post_a_casual_game(bruno, asgi_server)
    expect(bruno.locator("[data-role=my-seek]")).to_contain_text("Waiting for an opponent")
    amara.goto(f"{url}/play/")
    offer = amara.locator("[data-role=seeks] li", has_text="bruno")
    offer.get_by_role("button", name="Accept").click()
    amara.wait_for_url(f"{url}/tables/*/")
    bruno.wait_for_url(amara.url, timeout=20_000)  # his lobby hears of it at its next poll
    _ready_and_play([amara, bruno])
    lobby_match = Match.objects.get()
    assert Seek.objects.get().status == Seek.Status.TAKEN and not lobby_match.rated
    _first_game_decided_at_its_table(lobby_match)

    # The challenge: bruno finds amara's page and asks for a series; only her yes makes the match.
    bruno.goto(f"{url}/players/")
    bruno.get_by_role("link", name="Amara").first.click()
    bruno.locator("#main").get_by_role("link", name="Challenge", exact=True).click()
    expect(bruno.get_by_label("Player to challenge")).to_have_value("amara")
    bruno.get_by_label("Games").fill("1")
    bruno.get_by_role("button", name="Send the challenge").click()
    bruno.wait_for_url(f"{url}/me/")
    assert Match.objects.count() == 1, "a challenge makes no match before it is accepted"
    amara.goto(f"{url}/me/")
    amara.locator("[data-role=challenge-received]").get_by_role("button", name="Accept").click()
    challenged = Challenge.objects.get().match
    assert challenged is not None
    amara.wait_for_url(f"{url}/matches/{challenged.pk}/")

    # bruno sits down first; amara, still on the match page, is told without a reload.
    bruno.goto(f"{url}/matches/{challenged.pk}/")
    bruno.get_by_role("button", name="Play at a table: game 1").click()
    bruno.wait_for_url(f"{url}/tables/*/")
    banner = amara.locator("[data-role=tables-waiting]")
    expect(banner).to_contain_text("bruno is waiting at your table", timeout=15_000)
    expect(bruno.locator("[data-role=opponents]")).to_contain_text("told on their page", timeout=15_000)
    shot(amara, "journey-opponent-waiting")
    amara.locator("[data-role=table-waiting-link]").click()
    amara.wait_for_url(bruno.url)
    first_table_url = bruno.url
    _ready_and_play([amara, bruno])
    _first_game_decided_at_its_table(challenged)

    # Play again: the series of one is over, so both saying yes makes a casual rematch at a new table.
    amara.get_by_role("button", name="Play again").click()
    expect(bruno.locator("[data-role=again-words]")).to_have_text("amara would like to play again.")
    bruno.get_by_role("button", name="Play again").click()
    bruno.wait_for_url(lambda page_url: page_url != first_table_url)
    again = TableAgain.objects.get(table__game__match=challenged)
    assert again.next_table is not None
    rematch = again.next_table.game.match
    assert rematch.pk != challenged.pk and not rematch.rated
    assert {rematch.player_one.handle, rematch.player_two.handle} == {"amara", "bruno"}
    for page in (amara, bruno):
        page.wait_for_url(re.compile(rf"/tables/{again.next_table.pk}/$"))
        assert page.url != first_table_url
    _ready_and_play([amara, bruno])
    _first_game_decided_at_its_table(rematch)
    shot(bruno, "journey-rematch-over")
