"""`manage.py bench_verify`: one verification's cost in-process, on the real PostgreSQL."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from replays.models import MatchLog

pytestmark = pytest.mark.django_db(transaction=True)  # the command vacuums its tables


def per_log(text: str, label: str) -> float:
    match = re.search(rf"{label}:\s+([\d.]+) ms", text)
    assert match, text
    return float(match.group(1))


def test_it_verifies_the_logs_it_makes_and_prints_the_cost_of_each() -> None:
    out = StringIO()
    call_command("bench_verify", "--logs", "4", stdout=out)
    text = out.getvalue()
    assert "verifications:  4 " in text
    assert per_log(text, "wall time") > 0
    assert per_log(text, "this process") > 0
    assert per_log(text, "PostgreSQL") >= 0  # the server runs on this machine in the tests
    assert not MatchLog.objects.exists()  # it cleans up after itself


def test_logs_made_first_are_verified_from_their_file(tmp_path: Path) -> None:
    ids = tmp_path / "ids"
    call_command("bench_verify", "--logs", "2", "--make-only", str(ids), stdout=StringIO())
    listed = [int(word) for word in ids.read_text().split()]
    assert len(listed) == 52  # and 50 to warm up
    assert MatchLog.objects.filter(pk__in=listed, status=MatchLog.Status.PENDING).count() == 52

    call_command("bench_verify", "--ids", str(ids), "--logs", "2", stdout=StringIO())
    assert not MatchLog.objects.filter(pk__in=listed, status=MatchLog.Status.PENDING).exists()
    with pytest.raises(CommandError, match="not pending"):  # a file's logs are verified once
        call_command("bench_verify", "--ids", str(ids), "--logs", "2", stdout=StringIO())
