"""The public examples of the spec and of its extension: every log gets exactly the verdict its manifest names.

`spec-examples/` holds speed-log/1's examples, `spec-examples-ext/` the
extension's (Speed Solitaire, Team Speed, Spit, Double Spit); each test runs
every example of both manifests, through the library and through
`python -m speedrules verify`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from speedrules import PRESETS, ErrorCode, verify_bytes

DATA = Path(__file__).resolve().parent.parent / "data"
ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = ("spec-examples", "spec-examples-ext")


def manifest(folder: str) -> list[dict[str, Any]]:
    lines = (DATA / folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


EXAMPLES = [
    pytest.param(folder, entry, id=f"{folder}/{entry['file']}") for folder in MANIFESTS for entry in manifest(folder)
]


@pytest.mark.parametrize("folder", MANIFESTS)
def test_the_manifest_covers_every_example_file(folder: str) -> None:
    listed = {entry["file"] for entry in manifest(folder)}
    assert listed == {path.name for path in (DATA / folder).glob("*.json")}
    assert len(listed) == 22


def test_the_spec_examples_cover_every_error_code() -> None:
    assert {entry["code"] for entry in manifest("spec-examples")} == {code.value for code in ErrorCode}


def test_the_extension_examples_cover_its_four_games() -> None:
    rulesets = {entry["ruleset"] for entry in manifest("spec-examples-ext")}
    assert rulesets == {"solitaire", "team", "spit", "double-spit"}


@pytest.mark.parametrize(("folder", "entry"), EXAMPLES)
def test_example_gets_its_manifest_verdict(folder: str, entry: dict[str, Any]) -> None:
    data = (DATA / folder / entry["file"]).read_bytes()
    verdict = verify_bytes(data)

    assert (verdict.code, verdict.event, verdict.winner) == (entry["code"], entry["event"], entry["winner"]), (
        verdict.message
    )
    assert verdict.valid is (entry["code"] == "ok")
    assert verdict.message
    if "winner_team" in entry:
        assert verdict.winner_team == entry["winner_team"]
    if entry.get("cards_left") is not None:  # a one-player game's score
        assert verdict.cards_left == (entry["cards_left"],)
    # Asking for steps changes nothing of the verdict.
    with_steps = verify_bytes(data, steps=True)
    assert (with_steps.code, with_steps.event, with_steps.message, with_steps.winner) == (
        verdict.code,
        verdict.event,
        verdict.message,
        verdict.winner,
    )
    assert (with_steps.winner_team, with_steps.cards_left) == (verdict.winner_team, verdict.cards_left)


@pytest.mark.parametrize(("folder", "entry"), EXAMPLES)
def test_example_steps_account_for_every_card(folder: str, entry: dict[str, Any]) -> None:
    data = (DATA / folder / entry["file"]).read_bytes()
    document = json.loads(data)
    verdict = verify_bytes(data, steps=True)
    assert verdict.steps is not None

    if entry["code"] in ("bad_format", "bad_ruleset", "bad_deck") and entry["event"] is None:
        assert verdict.steps == ()
        return
    assert verdict.steps, "a log that got past the deal has at least the deal as a step"
    assert {step.total for step in verdict.steps} == {len(document["deck"])}
    # The deal, then one step per event that passed.
    passed = len(document["events"]) if entry["event"] is None else entry["event"]
    assert [step.event for step in verdict.steps] == [None, *range(passed)]
    ruleset = PRESETS[entry["ruleset"]]
    counts = verdict.steps[0].to_counts()
    assert len(counts["draws"]) == (len(ruleset.teams) or ruleset.players)
    # `stock` only in a tableau game, one list of stock pile counts per seat.
    assert ("stock" in counts) is bool(ruleset.tableau)
    if ruleset.tableau:
        assert counts["stock"] == [list(ruleset.tableau)] * ruleset.players
    if verdict.valid:
        assert verdict.cards_left == verdict.steps[-1].cards_left


@pytest.mark.parametrize("folder", MANIFESTS)
def test_the_command_line_gives_every_example_its_manifest_verdict(folder: str) -> None:
    entries = manifest(folder)
    files = [str(DATA / folder / entry["file"]) for entry in entries]
    result = subprocess.run(
        [sys.executable, "-m", "speedrules", "verify", *files], cwd=ROOT, capture_output=True, check=False
    )
    lines = {Path(line["file"]).name: line for line in map(json.loads, result.stdout.splitlines())}
    got = {name: (line["code"], line["event"], line["winner"]) for name, line in lines.items()}
    want = {entry["file"]: (entry["code"], entry["event"], entry["winner"]) for entry in entries}
    assert got == want
    assert result.returncode == 1  # some examples are invalid
    keys = ["file", "valid", "code", "event", "message", "winner", "winner_team", "cards_left", "cards_left_by_seat"]
    assert all(list(line) == keys for line in lines.values())
    for entry in entries:  # the result keys a manifest names, as the line prints them
        for key in ("winner_team", "cards_left"):
            if key in entry:
                assert lines[entry["file"]][key] == entry[key], entry


def test_the_command_line_prints_the_stock_counts_of_a_spit_game() -> None:
    path = DATA / "spec-examples-ext" / "valid-spit-1015.json"
    result = subprocess.run(
        [sys.executable, "-m", "speedrules", "verify", "--steps", str(path)],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    (line,) = map(json.loads, result.stdout.splitlines())
    assert line["steps"][0] == {
        "hands": [0, 0],
        "draws": [10, 10],
        "piles": [1, 1],
        "stacks": [],
        "stock": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]],
        "total": 52,
    }
