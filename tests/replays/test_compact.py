"""The compact steps (`replays.compact`): exactly the engine's steps, in a fraction of the bytes."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from benchmarks.long_log import long_log
from replays import compact
from speedrules import PRESETS, simulate, verify_bytes
from tests.factories import SPEC_EXAMPLES


def engine_steps_and_moves(data: bytes) -> tuple[list[dict[str, Any]], list[compact.Move]]:
    verdict = verify_bytes(data, steps=True)
    assert verdict.steps is not None
    return [step.to_dict() for step in verdict.steps], compact.moves_from_document(data)


def documents() -> list[tuple[str, bytes]]:
    examples = [(path.name, path.read_bytes()) for path in sorted(SPEC_EXAMPLES.glob("*.json"))]
    simulated = [(f"{name}-{seed}", orjson.dumps(simulate(name, seed=seed))) for name in PRESETS for seed in (1, 2)]
    return examples + simulated


@pytest.mark.parametrize(("name", "data"), documents(), ids=[name for name, _ in documents()])
def test_the_compact_form_reads_back_as_the_engines_steps(name: str, data: bytes) -> None:
    steps, moves = engine_steps_and_moves(data)
    encoded = compact.encode(steps, moves)
    assert len(encoded) == len(steps)
    assert compact.decode(encoded) == steps
    # Stored as JSON and read back, it still is.
    stored = compact.CompactSteps(orjson.loads(orjson.dumps(encoded.legend)), orjson.loads(orjson.dumps(encoded.rows)))
    assert compact.decode(stored) == steps
    series = compact.cards_left_series(encoded)
    assert [[step["cards_left"][seat] for seat in range(len(series))] for step in steps] == [
        list(column) for column in zip(*series, strict=True)
    ]


@pytest.mark.parametrize("size", [1, 7, 50])
def test_every_chunk_reads_on_its_own_as_the_engines_steps(size: int) -> None:
    steps, moves = engine_steps_and_moves((SPEC_EXAMPLES / "valid-speed-1001.json").read_bytes())
    encoded = compact.encode(steps, moves)
    for start in range(0, len(steps), size):
        part = compact.chunk(encoded, start=start, count=size)
        assert (part["from"], part["total"]) == (start, len(steps))
        assert part["count"] == len(part["rows"]) == min(size, len(steps) - start)
        assert (part["base"] is None) == (start == 0)
        assert compact.decode_chunk(orjson.loads(orjson.dumps(part))) == steps[start : start + size]
    # Past the end: an empty chunk, not an error.
    assert compact.chunk(encoded, start=len(steps) + 5, count=10)["rows"] == []


def test_rows_record_the_move_of_each_event() -> None:
    data = (SPEC_EXAMPLES / "valid-speed-1001.json").read_bytes()
    steps, moves = engine_steps_and_moves(data)
    encoded = compact.encode(steps, moves)
    cards = encoded.legend["cards"]
    events = orjson.loads(data)["events"]
    assert encoded.rows[0][2] == compact.DEAL
    for event, row in zip(events, encoded.rows[1:], strict=True):
        assert row[2] == compact.KIND_OF_EVENT[event["type"]]
        if event["type"] == "play":
            assert (row[3], row[4], cards[row[5]]) == (event["player"], event["pile"], event["card"])
        if event["type"] == "speed":
            assert row[3] == event["player"]


def test_a_description_without_the_clock_is_kept_whole() -> None:
    steps, moves = engine_steps_and_moves((SPEC_EXAMPLES / "valid-speed-1001.json").read_bytes())
    steps[3] = {**steps[3], "description": "Something said otherwise"}
    encoded = compact.encode(steps, moves)
    assert encoded.rows[3][1] < 0
    assert compact.decode(encoded)[3]["description"] == "Something said otherwise"
    assert (
        compact.decode_chunk(compact.chunk(encoded, start=2, count=3))[1]["description"] == "Something said otherwise"
    )


def test_steps_out_of_order_are_refused() -> None:
    steps, moves = engine_steps_and_moves((SPEC_EXAMPLES / "valid-speed-1001.json").read_bytes())
    with pytest.raises(ValueError, match="step 2"):
        compact.encode([steps[0], steps[1], steps[3]], moves)


def test_a_5000_event_log_is_legal_and_its_steps_are_small() -> None:
    document = long_log(5000)
    data = orjson.dumps(document)
    assert len(document["events"]) == 5000
    verdict = verify_bytes(data)
    assert verdict.valid and verdict.winner is not None
    steps, moves = engine_steps_and_moves(data)
    encoded = compact.encode(steps, moves)
    assert compact.decode(encoded) == steps
    # The bound the viewer is built for (issue 13): every chunk of the whole replay, 300 KB in all.
    chunks = [compact.chunk(encoded, start=start, count=500) for start in range(0, len(steps), 500)]
    assert sum(len(orjson.dumps(part)) for part in chunks) <= 300_000
    assert [step for part in chunks for step in compact.decode_chunk(part)] == steps
