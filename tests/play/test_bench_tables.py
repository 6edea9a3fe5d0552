"""bench_tables runs its tables through a real Daphne and reports what it measured (behaviour, not timing)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from matches.models import Match, Player

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_tables_of_client_bots_play_and_report_then_clean_up() -> None:
    out = StringIO()
    call_command("bench_tables", "--tables", "2", "--seconds", "8", "--reaction-ms", "150", stdout=out)
    text = out.getvalue()
    assert "2 tables of 2 client bots" in text
    plays = re.search(r"plays (\d+) \(", text)
    assert plays is not None and int(plays.group(1)) > 0, text
    assert re.search(r"play -> its state +\d+\.\dms +\d+\.\dms", text), text
    assert re.search(r"ping -> pong +\d+\.\dms +\d+\.\dms", text), text
    assert re.search(r"referee adds -?\d+\.\d ms at p50 .*: (met|NOT met) \(measured at 2 tables\)", text), text
    assert not Match.objects.exists()
    assert not Player.objects.exists()
