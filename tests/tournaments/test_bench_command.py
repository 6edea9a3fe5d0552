"""The bench_tournaments command: standings queries do not grow with the field, and nothing is left behind."""

from io import StringIO

import pytest
from django.core.management import call_command

from matches.models import Player
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_reports_the_standings_query_count_and_rolls_back() -> None:
    out = StringIO()
    call_command("bench_tournaments", "--players", "64", "--rounds", "4", "--skip-generators", stdout=out)
    assert "64 players, 4 Swiss rounds: 2 SQL queries (8 players: 2)" in out.getvalue()
    assert not Tournament.objects.exists()
    assert not Player.objects.exists()
