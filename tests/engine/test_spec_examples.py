"""The spec's public examples: every log gets exactly the verdict its manifest line names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from speedrules import ErrorCode, verify_bytes

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "spec-examples"


def manifest() -> list[dict[str, Any]]:
    lines = (EXAMPLES / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_the_manifest_covers_every_example_file() -> None:
    listed = {entry["file"] for entry in manifest()}
    on_disk = {path.name for path in EXAMPLES.glob("*.json")}
    assert listed == on_disk
    assert len(listed) == 22


def test_the_manifest_covers_every_error_code() -> None:
    codes = {entry["code"] for entry in manifest()}
    assert codes == {code.value for code in ErrorCode}


@pytest.mark.parametrize("entry", manifest(), ids=lambda entry: entry["file"])
def test_example_gets_its_manifest_verdict(entry: dict[str, Any]) -> None:
    verdict = verify_bytes((EXAMPLES / entry["file"]).read_bytes(), steps=True)

    assert (verdict.code, verdict.event, verdict.winner) == (entry["code"], entry["event"], entry["winner"]), (
        verdict.message
    )
    assert verdict.valid is (entry["code"] == "ok")
    assert verdict.message


@pytest.mark.parametrize("entry", manifest(), ids=lambda entry: entry["file"])
def test_example_steps_account_for_every_card(entry: dict[str, Any]) -> None:
    data = (EXAMPLES / entry["file"]).read_bytes()
    document = json.loads(data)
    verdict = verify_bytes(data, steps=True)
    assert verdict.steps is not None

    if entry["code"] in ("bad_format", "bad_ruleset", "bad_deck") and entry["event"] is None:
        assert verdict.steps == ()
        return
    pack = len(document["deck"])
    assert verdict.steps, "a log that got past the deal has at least the deal as a step"
    assert all(step.total == pack for step in verdict.steps)
    # The deal, then one step per event that passed.
    passed = len(document["events"]) if entry["event"] is None else entry["event"]
    assert len(verdict.steps) == passed + 1
    assert [step.event for step in verdict.steps] == [None, *range(passed)]
