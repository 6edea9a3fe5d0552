"""The verifier's two lanes, and the parser's two paths, agree.

The verifier takes a well-formed, legal one-card play straight from its JSON
object (the fast lane) and everything else through the parser and the typed
checks (the careful lane). The parser reads common events on a short path and
hands the rest to `_careful_parse`. Each shortcut must give exactly what the
careful way gives, on valid logs and on tampered ones.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from speedrules import PRESETS, LogError, simulate
from speedrules.events import _careful_parse, event_parser
from speedrules.verify import _Verifier

RULESETS = sorted(PRESETS)
ODD_VALUES = [None, True, False, -1, 0, 1, 2, 3, 9, 1.0, "0", "9C", "JK", "1S", [], {}, ["9C"]]
KEYS = ["t", "type", "player", "card", "pile", "cards", "piles", "order"]


def tamper(document: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """Change one key of one event to an odd value, or drop it; or copy an event elsewhere (a
    collision or a stall out of place, an event after the Speed call); or put a value that is
    no JSON object in an event's place."""
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


def both_lanes(document: object) -> tuple[Any, Any]:
    fast = _Verifier(document, record_steps=False).run()
    careful = _Verifier(document, record_steps=False, fast_lane=False).run()
    return fast, careful


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_both_lanes_give_the_same_verdict(name: str, seed: int, data: st.DataObject) -> None:
    document = simulate(name, seed=seed)
    fast, careful = both_lanes(document)
    assert fast == careful and fast.valid
    fast, careful = both_lanes(tamper(document, data))
    assert (fast.code, fast.event, fast.message, fast.winner, fast.cards_left) == (
        careful.code,
        careful.event,
        careful.message,
        careful.winner,
        careful.cards_left,
    )


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_the_parsers_short_path_reads_as_the_careful_one(name: str, seed: int, data: st.DataObject) -> None:
    document = tamper(simulate(name, seed=seed), data)
    ruleset = PRESETS[name]
    draws = [[0]] * ruleset.players  # every draw pile has a card
    parse = event_parser(ruleset, document["players"], draws)
    for index, raw in enumerate(document["events"]):
        try:
            want: object = _careful_parse(raw, index, ruleset, players=document["players"], draws=draws)
        except LogError as error:
            want = (error.code, error.event, error.message)
        try:
            got: object = parse(raw, index)
        except LogError as error:
            got = (error.code, error.event, error.message)
        assert got == want, raw
