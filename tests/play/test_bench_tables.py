"""bench_tables runs its tables through real Daphne processes and reports what it measured (behaviour, not timing)."""

from __future__ import annotations

import json
import math
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from matches.models import Match, Player
from tests.play.servers import LAYER_URL

pytestmark = pytest.mark.django_db(transaction=True)

MS = r"(-?\d+\.\d) ?ms"


def test_two_tables_on_two_processes_at_human_pace_play_and_report_then_clean_up() -> None:
    out = StringIO()
    call_command(
        "bench_tables",
        *("--tables", "2", "--processes", "2", "--pace", "human", "--seconds", "12"),
        *("--channel-layer-url", LAYER_URL),
        stdout=out,
    )
    text = out.getvalue()
    assert "2 tables of 2 client bots (speed), pace human" in text, text
    assert "2 server processes" in text, text
    urls = re.findall(r"server \d: (ws://127\.0\.0\.1:\d+) \(Daphne started by this command\): 1 table$", text, re.M)
    assert len(set(urls)) == 2, text
    assert f"channel layer: {LAYER_URL}" in text, text

    plays = re.search(r"plays (\d+) \(", text)
    assert plays is not None and int(plays.group(1)) > 0, text
    # Each server refereed its own table's plays: both really served.
    for url in urls:
        served = re.search(rf"server \d {re.escape(url)}: plays (\d+), play p50 {MS}, p99 {MS}", text)
        assert served is not None and int(served.group(1)) > 0, text

    play = re.search(rf"play -> its state +{MS} +{MS} +(\d+)", text)
    ping = re.search(rf"ping -> pong +{MS} +{MS} +(\d+)", text)
    assert play is not None and ping is not None, text
    assert 0 < float(play.group(1)) <= float(play.group(2))
    assert 0 < float(ping.group(1)) <= float(ping.group(2))
    assert int(play.group(3)) == int(plays.group(1))

    cpu = re.search(r"server CPU per play: daphne (\d+\.\d) ms, postgres (\d+\.\d) ms", text)
    assert cpu is not None, text
    assert float(cpu.group(1)) > 0, text  # two servers answering sockets for seconds spend something
    assert math.isfinite(float(cpu.group(2))), text
    assert re.search(r"daphne: 2 processes, \d+ ms in all", text), text
    assert re.search(r"bench client CPU per play: \d+\.\d ms", text), text

    measured = r" \(measured at 2 tables, 2 processes, pace human\)"
    assert re.search(
        r"goal: 100 human-paced tables on 2 Daphne processes: every game over and play p99 <= 100 ms: "
        rf"(met|NOT met){measured}$",
        text,
        re.MULTILINE,
    ), text
    assert re.search(rf"goal: 1 table: the referee adds <= 8 ms at p50 .*: (met|NOT met){measured}$", text, re.M), text

    row = re.search(
        rf"^\| 2 \| 2 \| human \| ([0-2])/2 \| (\d+\.\d) \| {MS} \| {MS} \| {MS} \| {MS} \| {MS} \| (\d+\.\d) \| (\d+\.\d) \|$",
        text,
        re.MULTILINE,
    )
    assert row is not None, text
    assert float(row.group(2)) > 0
    assert [row.group(n) for n in (3, 4, 5, 6)] == [play.group(1), play.group(2), ping.group(1), ping.group(2)]
    assert float(row.group(7)) == pytest.approx(float(play.group(1)) - float(ping.group(1)), abs=0.11)
    assert (row.group(8), row.group(9)) == (cpu.group(1), cpu.group(2))

    assert not Match.objects.exists()
    assert not Player.objects.exists()


def test_processes_and_urls_do_not_mix() -> None:
    with pytest.raises(CommandError, match="--url"):
        call_command("bench_tables", "--url", "ws://127.0.0.1:1", "--processes", "2", stdout=StringIO())


def test_the_spectator_attack_connects_every_socket_has_each_intent_refused_and_cleans_up() -> None:
    out = StringIO()
    call_command(
        "bench_tables",
        *("--tables", "1", "--pace", "human", "--seconds", "6"),
        *("--spectators", "40", "--spectator-every-ms", "100"),
        stdout=out,
    )
    text = out.getvalue()
    attack = re.search(
        r"spectator attack on one more table: (\d+)/40 anonymous sockets connected, each sending `ready` every "
        r"100 ms; sent (\d+) \(\d+/s\), answered refused (\{.*\}); sockets closed by the server (\{.*\})$",
        text,
        re.MULTILINE,
    )
    assert attack is not None, text
    # More sockets than the site's per-address cap (32): the bench raises it for its one address.
    assert int(attack.group(1)) == 40, text
    refused = json.loads(attack.group(3))
    assert set(refused) == {"not_seated"}, text
    assert 0 < refused["not_seated"] <= int(attack.group(2)), text
    assert json.loads(attack.group(4)) == {}, text  # the throttle's rate is kept: nobody is closed
    assert not Match.objects.exists()


def test_spectators_are_bounded() -> None:
    with pytest.raises(CommandError, match="--spectators"):
        call_command("bench_tables", "--spectators", "5000", stdout=StringIO())
