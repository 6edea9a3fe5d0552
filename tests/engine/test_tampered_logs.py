"""Logs tampered with at random still get a verdict: one that names the first event at fault.

A key of one event set to an odd value or dropped, an event copied elsewhere (a
collision or a stall out of place, an event after the Speed call), or a value
that is no JSON object in an event's place: the verifier never raises, an
event-level fault names its event in the message, the events before it passed
(the steps replay them), and asking for steps changes nothing of the verdict.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speedrules import PRESETS, ErrorCode, simulate, verify_document

RULESETS = sorted(PRESETS)
ODD_VALUES = [None, True, False, -1, 0, 1, 2, 3, 9, 1.0, "0", "9C", "JK", "1S", [], {}, ["9C"]]
KEYS = ["t", "type", "player", "card", "pile", "cards", "piles", "order", "from", "to"]


def tamper(document: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    tampered = copy.deepcopy(document)
    events = tampered["events"]
    index = data.draw(st.integers(0, len(events) - 1))
    change = data.draw(st.sampled_from(["key", "key", "copy", "not an object"]))
    if change == "copy":
        events.insert(data.draw(st.integers(0, len(events))), copy.deepcopy(events[index]))
        return tampered
    if change == "not an object":
        events[index] = data.draw(st.sampled_from([None, 3, "play", [], [events[index]]]))
        return tampered
    event = events[index]
    key = data.draw(st.sampled_from(KEYS))
    if data.draw(st.booleans()):
        event.pop(key, None)
    else:
        event[key] = data.draw(st.sampled_from([*ODD_VALUES, *tampered["deck"][:8], "play", "stall", "speed"]))
    return tampered


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_tampered_log_gets_a_verdict_that_names_its_first_fault(name: str, seed: int, data: st.DataObject) -> None:
    document = tamper(simulate(name, seed=seed), data)
    verdict = verify_document(document)
    with_steps = verify_document(document, steps=True)

    assert (with_steps.code, with_steps.event, with_steps.message, with_steps.winner, with_steps.cards_left) == (
        verdict.code,
        verdict.event,
        verdict.message,
        verdict.winner,
        verdict.cards_left,
    )
    assert verdict.message
    assert with_steps.steps is not None
    if verdict.event is not None:
        assert verdict.code is not ErrorCode.OK
        assert verdict.message.startswith(f"Event {verdict.event}: ")
        assert 0 <= verdict.event < len(document["events"])
        # The deal, then each event before the one at fault.
        assert [step.event for step in with_steps.steps] == [None, *range(verdict.event)]
    if verdict.valid:
        assert verdict.cards_left == with_steps.steps[-1].cards_left
    else:
        assert verdict.cards_left is None and verdict.plays_by_seat is None
