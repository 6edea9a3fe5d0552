"""`manage.py bench_replay`: a long log's steps in both forms, raw and gzipped, and the viewer's first frame."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from matches.models import Player
from replays.models import MatchLog

# The browser reads the log through a live server, so the command commits it (and deletes it after).
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def bytes_of(text: str, label: str) -> tuple[int, int]:
    found = re.search(rf"{re.escape(label)}: ([\d,]+) / ([\d,]+)", text)
    assert found, text
    raw, zipped = (int(group.replace(",", "")) for group in found.groups())
    return raw, zipped


def test_it_prints_both_forms_raw_and_gzipped_and_the_first_frame() -> None:
    out = StringIO()
    call_command("bench_replay", "--events", "600", "--runs", "2", stdout=out)
    text = out.getvalue()
    assert "log: 600 events" in text and "verified" in text
    assert "steps in 4 responses of up to 200 steps" in text  # 601 steps
    compact_raw, compact_gzip = bytes_of(text, "compact (speed-steps/1)")
    plain_raw, plain_gzip = bytes_of(text, "plain (the engine's steps)")
    assert compact_gzip < compact_raw and plain_gzip < plain_raw
    assert compact_raw < plain_raw
    first_frame = re.search(r"first frame of the replay page in Chromium: median ([\d.]+) ms of 2 loads", text)
    assert first_frame, text
    assert float(first_frame.group(1)) > 0
    assert not MatchLog.objects.exists() and not Player.objects.exists()  # nothing is left behind
