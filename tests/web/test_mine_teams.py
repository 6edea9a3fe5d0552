"""My matches and the nav's count with Team Speed: a partner's claim waits on the other team, not on the partner.

The teams come from each match's ruleset: the preset pairs seats 1 and 3, a
custom ruleset may pair any two seats (listed in any order).
"""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Game, Match, Player
from matches.services import game_report_result, match_create
from speedrules import PRESETS
from tests.factories import make_player
from tests.queries import database_queries
from web.selectors.mine import games_waiting_for_confirmation, my_page, waiting_count

pytestmark = pytest.mark.django_db

FOUR = ["ann", "bo", "cy", "di"]


@pytest.fixture
def players(db: None) -> dict[str, Player]:
    return {handle: make_player(handle) for handle in FOUR}


def claimed_team_game(organiser: Any, players: dict[str, Player], ruleset: object, by: str) -> Game:
    match = match_create(players=FOUR, ruleset=ruleset, best_of=3, created_by=organiser)
    game = match.games.get()
    game_report_result(game_id=game.pk, user=players[by].user, winner=by)
    game.refresh_from_db()
    assert game.status == Game.Status.AWAITING_CONFIRMATION
    return game


def waiting_on(players: dict[str, Player], game: Game) -> list[str]:
    """Who sees the game among their results to confirm, and counts it in the nav."""
    seen = [h for h, p in players.items() if game in games_waiting_for_confirmation(player=p)]
    counted = [h for h, p in players.items() if waiting_count(user=p.user) > 0 and game in my_page(player=p).to_confirm]
    assert seen == counted
    return seen


@pytest.mark.parametrize(
    ("teams", "claimer", "others"),
    [
        (None, "ann", ["bo", "di"]),  # the preset: ann and cy v bo and di
        (None, "di", ["ann", "cy"]),
        ([[0, 1], [2, 3]], "ann", ["cy", "di"]),
        ([[3, 0], [2, 1]], "bo", ["ann", "di"]),  # ann and di v bo and cy, listed backwards
        ([[1, 2], [0, 3]], "cy", ["ann", "di"]),
    ],
)
def test_only_the_other_team_is_asked_to_confirm(
    organiser: Any, players: dict[str, Player], teams: list[list[int]] | None, claimer: str, others: list[str]
) -> None:
    ruleset: object = "team" if teams is None else {**PRESETS["team"].to_json(), "teams": teams}
    game = claimed_team_game(organiser, players, ruleset, claimer)
    assert waiting_on(players, game) == others
    # The partner's count has nothing from this game (it would be 1: no log is due at a claimed game).
    partner = next(h for h in FOUR if h != claimer and h not in others)
    assert waiting_count(user=players[partner].user) == 0


def test_tables_and_two_player_claims_still_wait_on_every_other_player(
    organiser: Any, players: dict[str, Player]
) -> None:
    """The partner clause is NULL for these matches (no teams, or no fourth seat); it must not drop them."""
    table = match_create(players=FOUR, ruleset="four-way", best_of=3, created_by=organiser).games.get()
    game_report_result(game_id=table.pk, user=players["ann"].user, places={"ann": 1, "bo": 2, "cy": 3, "di": 4})
    pair = match_create(players=["cy", "bo"], best_of=3, created_by=organiser).games.get()
    game_report_result(game_id=pair.pk, user=players["cy"].user, winner="cy")
    assert waiting_on(players, table) == ["bo", "cy", "di"]
    assert waiting_on(players, pair) == ["bo"]


def test_the_count_and_the_page_stay_a_fixed_number_of_queries(organiser: Any, players: dict[str, Player]) -> None:
    claimed_team_game(organiser, players, "team", "ann")

    def queries(read: Any) -> int:
        with database_queries() as seen:
            read()
        return len(seen)

    bo = players["bo"]
    count, page = queries(lambda: waiting_count(user=bo.user)), queries(lambda: my_page(player=bo))
    for _ in range(3):
        claimed_team_game(organiser, players, {**PRESETS["team"].to_json(), "teams": [[0, 1], [2, 3]]}, "cy")
        claimed_team_game(organiser, players, "team", "di")
    assert Match.objects.count() == 7
    assert (queries(lambda: waiting_count(user=bo.user)), queries(lambda: my_page(player=bo))) == (count, page)
    assert count == 3  # the player, games to log, results to confirm
