"""Property tests over simulated games of every ruleset (hypothesis).

The engine's perft: every simulated game verifies, the pack is conserved at
every step, and tampering with a log (a card moved to another place, two
events swapped, a card of the deck replaced) is always caught.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from speedrules import PRESETS, ErrorCode, simulate, verify_document
from speedrules.cards import CARD_ID, CARD_NAMES, build_pack
from speedrules.events import event_parser
from speedrules.state import GameState

RULESETS = sorted(PRESETS)
#: The presets of speed-log/1 before the extension: a hand, a draw pile per seat, no stock piles.
CLASSIC = sorted(name for name, ruleset in PRESETS.items() if not ruleset.teams and not ruleset.tableau)
seeds = st.integers(min_value=0, max_value=2**32)
quick = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _zones(document: dict[str, Any]) -> list[tuple[str, int]]:
    """For each deck position, the place the deal puts it: (kind, owner)."""
    ruleset = PRESETS_BY_JSON[tuple(sorted(document["ruleset"].items()))]
    zones: list[tuple[str, int]] = []
    for seat in range(ruleset.players):
        zones += [("hand", seat)] * ruleset.hand_size + [("draw", seat)] * ruleset.draw_size
    zones += [("starter", pile) for pile in range(ruleset.center_piles)]
    for stack in range(ruleset.stacks):
        zones += [("stack", stack)] * ruleset.stack_size
    return zones


PRESETS_BY_JSON = {tuple(sorted(PRESETS[name].to_json().items())): PRESETS[name] for name in CLASSIC}


@pytest.mark.parametrize("name", RULESETS)
@quick
@given(seed=seeds)
def test_simulated_games_are_valid_and_conserve_the_pack(name: str, seed: int) -> None:
    document = simulate(name, seed=seed)
    verdict = verify_document(document, steps=True)
    assert verdict.code is ErrorCode.OK, verdict.message
    assert verdict.steps is not None
    assert len(verdict.steps) == len(document["events"]) + 1
    pack = PRESETS[name].pack_size
    assert all(step.total == pack for step in verdict.steps)
    result = document["result"]
    if "deadlock" in result:
        assert verdict.winner is None and verdict.winner_team is None
    else:
        assert verdict.winner is not None
        assert verdict.steps[-1].cards_left[verdict.winner] == 0
        assert verdict.winner == result.get("winner", verdict.winner)
        assert verdict.winner_team == result.get("winner_team")
    # Every card that a play put down, per seat, with its time.
    assert verdict.plays_by_seat is not None
    for seat, times in enumerate(verdict.plays_by_seat):
        cards = [len(e.get("cards", [None])) for e in document["events"] if e["type"] == "play" and e["player"] == seat]
        assert len(times) == sum(cards) and list(times) == sorted(times)
    # The final counts come with the verdict, with or without steps.
    assert verdict.cards_left == verdict.steps[-1].cards_left
    assert verify_document(document).cards_left == verdict.cards_left


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_every_card_is_somewhere_after_every_event(name: str, seed: int) -> None:
    """Stronger than counts: replaying through GameState, the multiset of cards is the pack."""
    document = simulate(name, seed=seed)
    ruleset = PRESETS[name]
    pack = Counter(build_pack(decks=ruleset.decks, jokers=ruleset.jokers))
    state = GameState(ruleset, [CARD_ID[name] for name in document["deck"]])
    parse = event_parser(ruleset, document["players"], state.draws)
    for index, event in enumerate(document["events"]):
        state.apply(parse(event, index))
        places = [*state.hands, *state.draws, *state.piles, *state.stacks, *(p for s in state.stock for p in s)]
        assert Counter(CARD_NAMES[card] for place in places for card in place) == pack


@pytest.mark.parametrize("name", CLASSIC)
@quick
@given(seed=seeds, data=st.data())
def test_a_played_card_moved_to_another_place_is_caught(name: str, seed: int, data: st.DataObject) -> None:
    """Swap a card some seat plays with a card the deal puts outside that seat's hand and draw pile."""
    document = simulate(name, seed=seed)
    zones = _zones(document)
    deck = document["deck"]

    def first_card(play: dict[str, Any]) -> str:
        return str((play.get("cards") or [play["card"]])[0])

    def owned_copies(play: dict[str, Any]) -> list[int]:
        """Where the deal puts the played card in its seat's hand and draw pile."""
        seat_zones = (("hand", play["player"]), ("draw", play["player"]))
        return [i for i, zone in enumerate(zones) if zone in seat_zones and deck[i] == first_card(play)]

    # With two decks, or two jokers, the seat may hold a twin of the card, and moving one copy proves
    # nothing: only plays of a card the seat was dealt once are tampered with (chosen, not filtered out).
    plays = [event for event in document["events"] if event["type"] == "play" and len(owned_copies(event)) == 1]
    assume(plays)
    play = data.draw(st.sampled_from(plays))
    card, seat, (origin,) = first_card(play), play["player"], owned_copies(play)
    elsewhere = [i for i, zone in enumerate(zones) if zone[1] != seat or zone[0] in ("starter", "stack")]
    elsewhere = [i for i in elsewhere if zones[i] not in (("hand", seat), ("draw", seat)) and deck[i] != card]
    target = data.draw(st.sampled_from(elsewhere))
    tampered = copy.deepcopy(document)
    tampered["deck"][origin], tampered["deck"][target] = deck[target], deck[origin]
    verdict = verify_document(tampered)
    assert not verdict.valid
    assert verdict.event is not None and verdict.event <= document["events"].index(play)


@pytest.mark.parametrize("name", RULESETS)
@quick
@given(seed=seeds, data=st.data())
def test_two_events_swapped_are_caught(name: str, seed: int, data: st.DataObject) -> None:
    document = simulate(name, seed=seed)
    events = document["events"]
    first = data.draw(st.integers(0, len(events) - 2))
    later = [i for i in range(first + 1, len(events)) if events[i]["t"] != events[first]["t"]]
    assume(later)
    second = data.draw(st.sampled_from(later))
    tampered = copy.deepcopy(document)
    tampered["events"][first], tampered["events"][second] = events[second], events[first]
    verdict = verify_document(tampered)
    assert not verdict.valid
    assert verdict.event is not None and first <= verdict.event <= second


@pytest.mark.parametrize("name", RULESETS)
@quick
@given(seed=seeds, data=st.data())
def test_a_replaced_deck_card_is_a_bad_deck(name: str, seed: int, data: st.DataObject) -> None:
    document = simulate(name, seed=seed)
    deck = document["deck"]
    position = data.draw(st.integers(0, len(deck) - 1))
    replacement = data.draw(st.sampled_from(sorted({card for card in deck if card != deck[position]})))
    tampered = copy.deepcopy(document)
    tampered["deck"][position] = replacement
    verdict = verify_document(tampered)
    assert (verdict.code, verdict.event) == (ErrorCode.BAD_DECK, None)


@pytest.mark.parametrize("name", RULESETS)
def test_the_same_seed_gives_the_same_log(name: str) -> None:
    assert simulate(name, seed=7) == simulate(name, seed=7)
    assert simulate(name, seed=7) != simulate(name, seed=8)


def test_simulated_games_show_every_kind_of_event() -> None:
    """Across a few games the bots collide, run, stall, reshuffle and deadlock as at a table."""
    seen: Counter[str] = Counter()
    for name in RULESETS:
        for seed in range(60):
            document = simulate(name, seed=seed)
            seen.update(event["type"] for event in document["events"])
            seen.update("run" for event in document["events"] if len(event.get("cards", ())) > 1)
            seen.update("deadlock" for _ in [document["result"]] if "deadlock" in document["result"])
    for kind in ("play", "collision", "stall", "reshuffle", "speed", "run", "deadlock", "move"):
        assert seen[kind] > 0, kind


def test_steps_are_built_once_when_first_read() -> None:
    document = simulate("speed", seed=3)
    verdict = verify_document(document, steps=True)
    first = verdict.steps
    assert first is not None and len(first) == len(document["events"]) + 1
    assert verdict.steps is first
    assert verify_document(document).steps is None
