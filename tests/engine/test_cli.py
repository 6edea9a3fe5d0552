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
    assert list(line) == [
        "file",
        "valid",
        "code",
        "event",
        "message",
        "winner",
        "winner_team",
        "cards_left",
        "cards_left_by_seat",
    ]
    assert (line["valid"], line["code"], line["event"], line["winner"]) == (True, "ok", None, 0)
    assert (line["winner_team"], line["cards_left"]) == (None, None)  # two seats, no teams
    assert line["cards_left_by_seat"][0] == 0 < line["cards_left_by_seat"][1]


def test_verify_prints_the_cards_left_of_a_one_player_deadlock() -> None:
    """A stuck Speed Solitaire run has no winner: its cards left are its score, so the line must carry them."""
    path = EXAMPLES.parent / "spec-examples-ext" / "valid-solitaire-stuck-1005.json"
    declared = json.loads(path.read_bytes())["result"]["cards_left"]
    (line,) = lines(run_engine("verify", str(path)))
    assert (line["valid"], line["winner"]) == (True, None)
    assert line["cards_left"] == declared > 0  # the number the log's own result key holds
    assert line["cards_left_by_seat"] == [declared]


def test_verify_prints_the_winning_team_of_a_team_game() -> None:
    path = next(
        path
        for path in sorted((EXAMPLES.parent / "spec-examples-ext").glob("valid-team*.json"))
        if "winner_team" in json.loads(path.read_bytes())["result"]
    )
    declared = json.loads(path.read_bytes())["result"]["winner_team"]
    (line,) = lines(run_engine("verify", str(path)))
    assert (line["valid"], line["winner_team"]) == (True, declared)
    teams = json.loads(path.read_bytes())["ruleset"]["teams"]
    assert line["winner"] in teams[declared]  # the seat that called Speed, of that team


def test_verify_prints_no_cards_left_for_an_invalid_log() -> None:
    (line,) = lines(run_engine("verify", str(EXAMPLES / "invalid-no_fit-1012.json")))
    assert (line["cards_left"], line["cards_left_by_seat"], line["winner_team"]) == (None, None, None)


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


BENCH_LINES = ("parse+verify", "verify only", "parse+verify+steps", "+Step objects")


def has_commit(commit: str) -> bool:
    try:
        found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"], check=False)
    except FileNotFoundError:
        return False
    return found.returncode == 0


def bench_lines(out: str) -> dict[str, str]:
    """Each bench line by its name (the line's first words, up to the figures)."""
    found = {}
    for line in out.splitlines():
        for name in BENCH_LINES:
            if line.strip().startswith(f"{name} ") and name not in found:
                found[name] = line
    return found


@pytest.mark.skipif(not has_commit("b54e23b"), reason="needs git and the commit b54e23b")
def test_bench_prints_every_line_against_the_engine_at_b54e23b() -> None:
    result = run_engine("bench", "--games", "10", "--rounds", "1")
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "against the engine at b54e23b" in out
    printed = bench_lines(out)
    assert list(printed) == list(BENCH_LINES)
    for line in printed.values():
        assert line.count("games/s") == 2 and "b54e23b:" in line and "ratio" in line
    assert "goal >= 1.0" in printed["parse+verify"]
    assert "goal >= 3.0" in printed["parse+verify+steps"]
    assert "goal" not in printed["verify only"]


@pytest.mark.parametrize(
    ("against", "says"),
    [("0000000", "the engine at 0000000 cannot be extracted"), ("", "no older engine to compare with")],
)
def test_bench_without_the_older_engine_says_so_and_prints_its_own_figures(against: str, says: str) -> None:
    result = run_engine("bench", "--games", "10", "--rounds", "1", "--against", against)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert says in out
    printed = bench_lines(out)
    assert list(printed) == list(BENCH_LINES)
    assert all(line.count("games/s") == 1 and "ratio" not in line for line in printed.values())
