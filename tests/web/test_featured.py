"""The home page features a bracket event and a table event, as their formats say (no format keys in the site)."""

import pytest

from tests.factories import make_players, make_tournament
from tournaments.formats import FORMATS
from web.selectors import tournaments as selectors

pytestmark = pytest.mark.django_db


def test_the_featured_bracket_and_table_follow_the_formats(organiser) -> None:
    assert {key for key, fmt in FORMATS.items() if fmt.all_bracket} == {"single_elimination", "double_elimination"}
    players = make_players(4, prefix="f")
    cup = make_tournament(organiser, players, format="single_elimination", name="Cup")
    make_tournament(organiser, players, format="round_robin", name="League")
    groups = make_tournament(organiser, players, format="groups_playoffs", name="Groups", group_count=1)
    assert selectors.tournament_featured(elimination=True) == cup
    assert selectors.tournament_featured(elimination=False) == groups  # the latest running table event
