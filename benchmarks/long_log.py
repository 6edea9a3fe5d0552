"""A legal speed-log/1 document of any length: a simulated game with one collision repeated.

A real game has a few dozen events; a log thousands of events long is legal
only through events that move nothing. A collision does: two players land on
the same pile at the same moment and the later one takes the card back, and
any number of collisions may follow the same play (same pile, same `t`). So a
simulated, verified game with N collisions after one of its plays is a valid
log of the length asked, won as the simulated game was.
"""

from __future__ import annotations

from typing import Any

from speedrules import simulate, verify_document


def long_log(events: int, *, ruleset: str = "speed", players: tuple[str, str] = ("alice", "ben")) -> dict[str, Any]:
    """A valid, won log of exactly `events` events (at least one game's worth)."""
    for seed in range(200):
        document = simulate(ruleset, seed=seed, players=list(players))
        if document["result"].get("winner") is None or len(document["events"]) > events:
            continue
        built = _with_collisions(document, events - len(document["events"]))
        if built is not None:
            return built
    raise RuntimeError(f"no simulated {ruleset} game takes a collision after any of its plays")


def _with_collisions(document: dict[str, Any], count: int) -> dict[str, Any] | None:
    """The document with `count` collisions after the first play that another seat could have collided with."""
    verdict = verify_document(document, steps=True)
    assert verdict.valid and verdict.steps is not None, verdict.message
    steps = [step.to_dict() for step in verdict.steps]
    events = document["events"]
    for index, event in enumerate(events):
        if event["type"] != "play" or "card" not in event:
            continue
        other = 1 - event["player"]
        # The table just before the play: steps[index] (step 0 is the deal).
        for card in steps[index]["hand_cards"][other]:
            collision = {"t": event["t"], "type": "collision", "player": other, "card": card, "pile": event["pile"]}
            trial = {**document, "events": [*events[: index + 1], collision, *events[index + 1 :]]}
            if verify_document(trial).valid:
                many = [dict(collision) for _ in range(count)]
                return {**document, "events": [*events[: index + 1], *many, *events[index + 1 :]]}
    return None
