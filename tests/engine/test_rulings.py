"""Rulings where speed-log/1 leaves room (see speedrules/README.md), pinned."""

from __future__ import annotations

import copy
from typing import Any

import orjson

from speedrules import PRESETS, ErrorCode, simulate, verify_bytes, verify_document
from speedrules.cards import CARD_ID, CARD_NAMES
from speedrules.state import GameState


def _first_seed_with(ruleset: str, wanted: Any) -> dict[str, Any]:
    for seed in range(500):
        document = simulate(ruleset, seed=seed)
        if wanted(document):
            return document
    raise AssertionError("no simulated game has what the test needs")


def test_cards_key_with_null_value_is_a_bad_format_play() -> None:
    document = simulate("runs-at-once", seed=1)
    tampered = copy.deepcopy(document)
    first_play = next(i for i, event in enumerate(tampered["events"]) if event["type"] == "play")
    tampered["events"][first_play]["cards"] = None
    verdict = verify_document(tampered)
    assert (verdict.code, verdict.event) == (ErrorCode.BAD_FORMAT, first_play)


def test_piles_on_a_stall_in_a_stacks_game_is_ignored() -> None:
    document = _first_seed_with("speed", lambda d: any(e["type"] == "stall" for e in d["events"]))
    for event in document["events"]:
        if event["type"] == "stall":
            event["piles"] = ["not", "read"]
    assert verify_document(document).code is ErrorCode.OK


def _after_a_run(document: dict[str, Any]) -> tuple[int, int, int, GameState]:
    """The first run in `document`: its index, the pile's top card before it, the other seat, the state after it."""
    ruleset = PRESETS["runs-at-once"]
    state = GameState(ruleset, _cards(document["deck"]))
    for index, event in enumerate(document["events"]):
        if event["type"] == "play":
            before = state.tops[event["pile"]]
            state.play(event["player"], _cards(event.get("cards") or [event["card"]]), event["pile"])
            if len(event.get("cards", ())) > 1:
                return index, before, 1 - event["player"], state
        elif event["type"] == "stall":
            state.flip_stacks()
        elif event["type"] == "reshuffle":
            state.reshuffle(_cards(event["order"]))
    raise AssertionError("no run")


def test_a_collision_with_a_run_is_judged_against_the_pile_before_the_whole_run() -> None:
    def has_collidable_run(document: dict[str, Any]) -> bool:
        try:
            _index, before, other, state = _after_a_run(document)
        except AssertionError:
            return False
        return any(state.fits_on[card][before] for card in state.hands[other])

    document = _first_seed_with("runs-at-once", has_collidable_run)
    index, before, other, state = _after_a_run(document)
    run = document["events"][index]
    card = next(card for card in state.hands[other] if state.fits_on[card][before])
    collision = {"t": run["t"], "type": "collision", "player": other, "card": CARD_NAMES[card], "pile": run["pile"]}
    document["events"].insert(index + 1, collision)
    assert verify_document(document).code is ErrorCode.OK


def test_integers_beyond_64_bits_are_still_json() -> None:
    document = simulate("speed", seed=3)
    data = orjson.dumps(document)[:-1] + b', "recorded_at": 100000000000000000000000000000}'
    assert verify_bytes(data).code is ErrorCode.OK


def test_nan_is_not_json() -> None:
    document = simulate("speed", seed=3)
    data = orjson.dumps(document)[:-1] + b', "recorded_at": NaN}'
    verdict = verify_bytes(data)
    assert (verdict.code, verdict.event) == (ErrorCode.BAD_FORMAT, None)


def _cards(names: list[str]) -> list[int]:
    return [CARD_ID[name] for name in names]
