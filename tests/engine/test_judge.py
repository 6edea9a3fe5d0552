"""`Judge`: the verifier's own checks, one event at a time, as a table's referee asks them."""

from __future__ import annotations

import copy

import pytest

from speedrules import PRESETS, Judge, LogError, simulate, verify_document


@pytest.mark.parametrize("ruleset", ["speed", "california", "three-way", "runs-at-once", "jokers-wild"])
def test_every_event_of_a_valid_log_is_accepted_in_turn(ruleset: str) -> None:
    log = simulate(ruleset, seed=3)
    game = Judge(PRESETS[ruleset], tuple(log["players"]), log["deck"])
    for event in log["events"]:
        game.push(event)
    assert game.events == log["events"]
    winner = log["result"].get("winner")
    assert game.state.winner == winner


@pytest.mark.parametrize("seed", range(6))
def test_a_broken_event_is_refused_as_the_verifier_refuses_it(seed: int) -> None:
    log = simulate("speed", seed=seed)
    plays = [index for index, event in enumerate(log["events"]) if event["type"] == "play"]
    index = plays[len(plays) // 2]
    broken = copy.deepcopy(log)
    broken["events"][index]["pile"] = 1 - broken["events"][index]["pile"]
    verdict = verify_document(broken)
    game = Judge(PRESETS["speed"], tuple(log["players"]), log["deck"])
    for event in broken["events"][:index]:
        game.push(event)
    before = len(game.events)
    if verdict.event == index:
        with pytest.raises(LogError) as error:
            game.check(broken["events"][index])
        # The same refusal as the verdict's: the code, the event and the words.
        assert (error.value.code, error.value.event, error.value.message) == (
            verdict.code,
            verdict.event,
            verdict.message,
        )
        assert len(game.events) == before  # a check changes nothing
    else:  # the other pile fitted as well
        game.push(broken["events"][index])


def test_a_collision_is_judged_against_the_standing_play() -> None:
    logs = (simulate("speed", seed=seed) for seed in range(200))
    log = next(document for document in logs if any(event["type"] == "collision" for event in document["events"]))
    game = Judge(PRESETS["speed"], tuple(log["players"]), log["deck"])
    for event in log["events"]:
        if event["type"] == "collision":
            moved = dict(event, t=event["t"] + 1)
            with pytest.raises(LogError) as error:
                game.check(moved)
            assert error.value.code == "bad_collision"
        game.push(event)
