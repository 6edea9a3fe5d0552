"""The extension's public examples (Speed Solitaire, Team Speed, Spit, Double Spit).

Every log gets exactly the verdict its manifest line names, through the
library and through `python -m speedrules verify`; the public examples of
speed-log/1 keep theirs through the command line too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from speedrules import PRESETS, verify_bytes

DATA = Path(__file__).resolve().parent.parent / "data"
EXAMPLES = DATA / "spec-examples-ext"
ROOT = Path(__file__).resolve().parents[2]


def manifest(folder: Path = EXAMPLES) -> list[dict[str, Any]]:
    lines = (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_the_manifest_covers_every_example_file() -> None:
    listed = {entry["file"] for entry in manifest()}
    assert listed == {path.name for path in EXAMPLES.glob("*.json")}
    assert len(listed) == 22
    assert {entry["ruleset"] for entry in manifest()} == {"solitaire", "team", "spit", "double-spit"}


@pytest.mark.parametrize("entry", manifest(), ids=lambda entry: entry["file"])
def test_example_gets_its_manifest_verdict(entry: dict[str, Any]) -> None:
    verdict = verify_bytes((EXAMPLES / entry["file"]).read_bytes())

    assert (verdict.code, verdict.event, verdict.winner) == (entry["code"], entry["event"], entry["winner"]), (
        verdict.message
    )
    assert verdict.valid is (entry["code"] == "ok")
    if "winner_team" in entry:
        assert verdict.winner_team == entry["winner_team"]
    if entry.get("cards_left") is not None:  # a one-player game's score
        assert verdict.cards_left == (entry["cards_left"],)


@pytest.mark.parametrize("entry", manifest(), ids=lambda entry: entry["file"])
def test_example_steps_account_for_every_card(entry: dict[str, Any]) -> None:
    data = (EXAMPLES / entry["file"]).read_bytes()
    document = json.loads(data)
    verdict = verify_bytes(data, steps=True)
    assert verdict.steps is not None

    if entry["code"] in ("bad_format", "bad_ruleset", "bad_deck") and entry["event"] is None:
        assert verdict.steps == ()
        return
    passed = len(document["events"]) if entry["event"] is None else entry["event"]
    assert [step.event for step in verdict.steps] == [None, *range(passed)]
    assert {step.total for step in verdict.steps} == {len(document["deck"])}
    ruleset = PRESETS[entry["ruleset"]]
    counts = verdict.steps[0].to_counts()
    assert len(counts["draws"]) == (len(ruleset.teams) or ruleset.players)
    # `stock` only in a tableau game, one list of stock pile counts per seat.
    assert ("stock" in counts) is bool(ruleset.tableau)
    if ruleset.tableau:
        assert counts["stock"] == [list(ruleset.tableau)] * ruleset.players
    if verdict.valid:
        assert verdict.cards_left == verdict.steps[-1].cards_left


@pytest.mark.parametrize("folder", ["spec-examples-ext", "spec-examples"])
def test_the_command_line_gives_every_example_its_manifest_verdict(folder: str) -> None:
    entries = manifest(DATA / folder)
    files = [str(DATA / folder / entry["file"]) for entry in entries]
    result = subprocess.run(
        [sys.executable, "-m", "speedrules", "verify", *files], cwd=ROOT, capture_output=True, check=False
    )
    lines = {Path(line["file"]).name: line for line in map(json.loads, result.stdout.splitlines())}
    got = {name: (line["code"], line["event"], line["winner"]) for name, line in lines.items()}
    want = {entry["file"]: (entry["code"], entry["event"], entry["winner"]) for entry in entries}
    assert got == want
    assert result.returncode == 1  # some examples are invalid
    assert all(list(line) == ["file", "valid", "code", "event", "message", "winner"] for line in lines.values())


def test_the_command_line_prints_the_stock_counts_of_a_spit_game() -> None:
    path = EXAMPLES / "valid-spit-1015.json"
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
