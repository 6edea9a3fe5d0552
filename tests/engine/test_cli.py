"""The command line is a contract other tools parse: its lines and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "spec-examples"
ROOT = Path(__file__).resolve().parents[2]


def run_engine(*args: str, stdin: bytes = b"", module: str = "speedrules") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", module, *args], cwd=ROOT, input=stdin, capture_output=True, check=False
    )


def lines(result: subprocess.CompletedProcess[bytes]) -> list[dict[str, object]]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_verify_prints_one_line_per_file_with_the_stable_keys() -> None:
    result = run_engine("verify", str(EXAMPLES / "valid-speed-1001.json"))
    assert result.returncode == 0
    (line,) = lines(result)
    assert list(line) == ["file", "valid", "code", "event", "message", "winner"]
    assert (line["valid"], line["code"], line["event"], line["winner"]) == (True, "ok", None, 0)


def test_the_old_name_replays_engine_runs_the_same_command_line() -> None:
    """Scripts written against `python -m replays.engine` keep working after the engine moved."""
    new = run_engine("verify", str(EXAMPLES / "invalid-no_fit-1012.json"))
    old = run_engine("verify", str(EXAMPLES / "invalid-no_fit-1012.json"), module="replays.engine")
    assert (old.returncode, old.stdout) == (new.returncode, new.stdout) == (1, new.stdout)
    assert lines(old)[0]["code"] == "no_fit"


def test_verify_exits_1_when_any_file_is_invalid() -> None:
    result = run_engine("verify", str(EXAMPLES / "valid-speed-1001.json"), str(EXAMPLES / "invalid-no_fit-1012.json"))
    assert result.returncode == 1
    assert [(line["code"], line["event"]) for line in lines(result)] == [("ok", None), ("no_fit", 16)]


@pytest.mark.parametrize("payload", [b"{not json", b"", b'{"t": NaN}'])
def test_verify_exits_2_for_input_that_is_not_json(payload: bytes) -> None:
    result = run_engine("verify", "-", str(EXAMPLES / "invalid-no_fit-1012.json"), stdin=payload)
    assert result.returncode == 2
    first, second = lines(result)
    assert (first["file"], first["code"], first["event"], first["valid"]) == ("-", "bad_format", None, False)
    assert second["code"] == "no_fit"


def test_verify_exits_2_for_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    result = run_engine("verify", str(tmp_path / "missing.json"))
    assert result.returncode == 2
    assert lines(result)[0]["code"] == "bad_format"


def test_verify_steps_prints_counts_after_the_deal_and_each_passing_event() -> None:
    path = EXAMPLES / "invalid-no_fit-1012.json"
    result = run_engine("verify", "--steps", str(path))
    (line,) = lines(result)
    steps = line["steps"]
    assert isinstance(steps, list)
    assert len(steps) == 1 + 16  # the deal, then events 0..15; event 16 failed
    assert steps[0] == {"hands": [5, 5], "draws": [15, 15], "piles": [1, 1], "stacks": [5, 5], "total": 52}
    assert all(step["total"] == 52 for step in steps)
    assert set(steps[-1]) == {"hands", "draws", "piles", "stacks", "total"}


def test_simulate_prints_a_valid_log_that_verify_accepts() -> None:
    simulated = run_engine("simulate", "--ruleset", "four-way", "--seed", "11", "--players", "a,b,c,d")
    assert simulated.returncode == 0
    assert json.loads(simulated.stdout)["players"] == ["a", "b", "c", "d"]
    verified = run_engine("verify", "-", stdin=simulated.stdout)
    assert verified.returncode == 0, verified.stdout


def test_simulate_refuses_the_wrong_number_of_players() -> None:
    result = run_engine("simulate", "--ruleset", "three-way", "--seed", "1", "--players", "a,b")
    assert result.returncode == 2
    assert b"3 players" in result.stderr


def test_bench_prints_games_per_second() -> None:
    result = run_engine("bench", "--games", "20", "--rounds", "1")
    assert result.returncode == 0
    out = result.stdout.decode()
    assert "parse+verify" in out and "verify only" in out and "games/s" in out
