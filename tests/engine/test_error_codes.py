"""Every verdict code of speed-log/1, from hand-built logs, with the spec's precedence rules.

One class per error code. Each log is built from a table in `tables` (whose
docstrings say which card is where) and a few events from `logbuilder`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from speedrules import PRESETS, ErrorCode, Ruleset, Verdict, simulate, verify_bytes, verify_document

from .logbuilder import (
    card_named,
    collision,
    deal,
    log,
    pack,
    play,
    plays,
    reshuffle,
    run,
    speed,
    stall,
    verify,
)
from .tables import (
    ALICE,
    BARE,
    BARE_JOKERS,
    BEN,
    CHLOE,
    DOUBLES,
    DRAW_STALLS,
    JOKERS_WILD,
    LONE_JOKER_WALK,
    RUNS,
    SHORT,
    SHORT_JOKER_RUNS,
    SHORT_JOKERS,
    SPEED,
    STUCK_STACKS,
    THREE_WAY,
    TWO_DECK_RUNS,
    draw_stall_table,
    lone_joker_table,
    opening,
    reshuffle_table,
    short_win,
    stuck,
    three_way,
)

E = ErrorCode
DOCUMENT_LEVEL = (E.BAD_FORMAT, E.BAD_RULESET, E.BAD_DECK)


def rejected(
    document: dict[str, Any],
    code: ErrorCode,
    event: int | None,
    *,
    seat: int | None = None,
    card: str | None = None,
    pile: int | None = None,
) -> Verdict:
    """Assert the verdict, that the message names the seat, card and pile, and that steps stop where they must."""
    verdict = verify(document)
    assert (verdict.code, verdict.event) == (code, event), verdict.message
    assert verdict.winner is None and not verdict.valid
    assert verdict.cards_left is None
    message = verdict.message
    if seat is not None:
        assert f"seat {seat}" in message, message
    if card is not None:
        assert card_named(message, card), message
    if pile is not None:
        assert f"pile {pile}" in message, message
    assert verdict.steps is not None
    if event is None and code in DOCUMENT_LEVEL:
        assert verdict.steps == ()
    else:
        passed = len(document["events"]) if event is None else event
        assert [step.event for step in verdict.steps] == [None, *range(passed)]
        assert {step.total for step in verdict.steps} == {len(document["deck"])}
    return verdict


def passes(document: dict[str, Any]) -> Verdict:
    """Assert that every event passed (the game need not be played to its end, so the result may not match)."""
    verdict = verify(document)
    assert verdict.event is None and verdict.code in (E.OK, E.RESULT_MISMATCH), verdict.message
    assert verdict.steps is not None
    assert [step.event for step in verdict.steps] == [None, *range(len(document["events"]))]
    assert {step.total for step in verdict.steps} == {len(document["deck"])}
    return verdict


def accepted(document: dict[str, Any], winner: int | None) -> Verdict:
    verdict = verify(document)
    assert (verdict.code, verdict.event, verdict.winner) == (E.OK, None, winner), verdict.message
    assert verdict.valid and verdict.deadlock is (winner is None)
    assert verdict.steps is not None
    assert {step.total for step in verdict.steps} == {len(document["deck"])}
    assert verdict.cards_left == verdict.steps[-1].cards_left
    return verdict


def stalls(count: int, *, start: int, gap: int = 1000) -> list[dict[str, Any]]:
    return [stall(start + gap * index) for index in range(count)]


def short_game() -> list[dict[str, Any]]:
    """Alice's five plays up from 8S on `short_win`, and her Speed at t=3000."""
    return [*plays(ALICE, 0, ["9C", "10C", "JC", "QC", "KC"], start=1000), speed(3000, ALICE)]


def reshuffle_opening() -> list[dict[str, Any]]:
    """On `reshuffle_table`: Alice 9C, Ben 10D, Alice JC, all on pile 0; then nobody can move."""
    return [play(1000, ALICE, "9C", 0), play(1500, BEN, "10D", 0), play(2000, ALICE, "JC", 0)]


def draw_piles_dry() -> list[dict[str, Any]]:
    """On `draw_stall_table`: Alice's 7C, seventeen stalls flipping both draw piles onto pile 0, Ben's last flip."""
    events = [play(1000, ALICE, "7C", 1)]
    events += [stall(2000 + 100 * index, [0, 0]) for index in range(17)]
    events.append(stall(4000, [None, 0]))
    return events


# -- document level ---------------------------------------------------------


class TestBadFormat:
    @pytest.mark.parametrize("document", [[], "speed", None, 3])
    def test_a_document_that_is_not_an_object(self, document: object) -> None:
        verdict = verify(document)
        assert (verdict.code, verdict.event, verdict.steps) == (E.BAD_FORMAT, None, ())

    @pytest.mark.parametrize("data", [b"", b"{", b'{"format": "speed-log/1",}', b"\xff\xfe", b'{"t": NaN}'])
    def test_bytes_that_are_not_json(self, data: bytes) -> None:
        verdict = verify_bytes(data, steps=True)
        assert (verdict.code, verdict.event, verdict.steps) == (E.BAD_FORMAT, None, ())

    @pytest.mark.parametrize("key", ["format", "ruleset", "players", "deck", "events", "result"])
    def test_every_top_level_key_is_required(self, key: str) -> None:
        document = log(SPEED, opening(), [])
        del document[key]
        verdict = rejected(document, E.BAD_FORMAT, None)
        assert key in verdict.message

    @pytest.mark.parametrize("value", ["speed-log/2", "speed-log/1 ", "", None, 1])
    def test_format_must_be_exactly_speed_log_1(self, value: object) -> None:
        document = log(SPEED, opening(), [])
        document["format"] = value
        rejected(document, E.BAD_FORMAT, None)

    def test_unknown_keys_are_ignored_everywhere(self) -> None:
        document = log(SHORT, short_win(), short_game())
        document["recorded_at"] = "2026-01-01T00:00:00Z"
        document["ruleset"]["house_rule"] = "slap"
        document["events"][0]["note"] = "fast"
        document["result"]["score"] = [1, 0]
        accepted(document, ALICE)

    def test_an_empty_ruleset_is_the_standard_game(self) -> None:
        verdict = passes(log({}, opening(), [play(1000, ALICE, "9C", 0)]))
        assert verdict.steps is not None
        assert (verdict.steps[0].draws, verdict.steps[0].stacks) == ((15, 15), (5, 5))

    @pytest.mark.parametrize("ruleset", [[], "speed", None, 2])
    def test_the_ruleset_must_be_an_object(self, ruleset: object) -> None:
        rejected(log(SPEED, opening(), []) | {"ruleset": ruleset}, E.BAD_FORMAT, None)

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("players", 2.0),
            ("players", True),
            ("players", "2"),
            ("players", None),
            ("decks", 1.0),
            ("hand_size", False),
            ("stack_size", 5.5),
            ("center_piles", [2]),
            ("same_rank", 0),
            ("joker_on_joker", "false"),
            ("multi_card", None),
            ("stall_source", 1),
            ("stall_source", None),
        ],
    )
    def test_a_ruleset_field_of_the_wrong_json_type(self, field: str, value: object) -> None:
        document = log(SPEED, opening(), [])
        document["ruleset"][field] = value
        verdict = rejected(document, E.BAD_FORMAT, None)
        assert field in verdict.message

    @pytest.mark.parametrize("players", [["alice"], ["alice", "ben", "chloe"], []])
    def test_players_must_name_one_seat_each(self, players: list[str]) -> None:
        rejected(log(SPEED, opening(), [], players=players), E.BAD_FORMAT, None)

    @pytest.mark.parametrize("players", [["alice", 2], ["alice", None], "alice,ben", {"0": "alice"}])
    def test_players_are_a_list_of_strings(self, players: object) -> None:
        rejected(log(SPEED, opening(), []) | {"players": players}, E.BAD_FORMAT, None)

    @pytest.mark.parametrize("card", ["1S", "10s", "TS", "", "JOKER", 10, None, ["AS"]])
    def test_a_deck_entry_that_is_not_a_card(self, card: object) -> None:
        deck: list[object] = list(opening())
        deck[30] = card
        rejected(log(SPEED, deck, []), E.BAD_FORMAT, None)

    def test_the_deck_must_be_a_list(self) -> None:
        rejected(log(SPEED, opening(), []) | {"deck": " ".join(opening())}, E.BAD_FORMAT, None)

    @pytest.mark.parametrize("events", [{}, "play", None])
    def test_events_must_be_a_list(self, events: object) -> None:
        rejected(log(SPEED, opening(), []) | {"events": events}, E.BAD_FORMAT, None)

    @pytest.mark.parametrize(
        "result",
        [
            {},
            {"winner": 0, "deadlock": True},
            {"winner": "0"},
            {"winner": 0.0},
            {"winner": True},
            {"winner": None},
            {"deadlock": False},
            {"deadlock": "true"},
            {"deadlock": 1},
            {"winner": 2},
            {"winner": -1},
            [0],
            "alice",
            None,
        ],
    )
    def test_a_malformed_result(self, result: object) -> None:
        rejected(log(SPEED, opening(), []) | {"result": result}, E.BAD_FORMAT, None)


class TestBadRuleset:
    @pytest.mark.parametrize(
        "fields",
        [
            {"players": 1},
            {"players": 5},
            {"decks": 0},
            {"decks": 3},
            {"jokers": -1},
            {"jokers": 5},
            {"hand_size": 0},
            {"hand_size": 8},
            {"center_piles": 0, "stacks": 0, "stall_source": "draw_piles"},
            {"center_piles": 9, "stacks": 9},
            {"stack_size": -1},
            {"stack_size": 21},
            {"stacks": 1},
            {"stacks": 3},
            {"stacks": 0},
            {"stall_source": "draw_piles"},
            {"stall_source": "deck"},
            {"stall_source": "Stacks"},
            # 53 - 2 - 10 = 41 cards do not split between two players
            {"jokers": 1},
            # 52 - 8 - 40 = 4 cards: two each, fewer than a hand of seven
            {"center_piles": 8, "stacks": 8, "hand_size": 7},
        ],
        ids=repr,
    )
    def test_a_ruleset_out_of_range(self, fields: dict[str, Any]) -> None:
        rejected(log(fields, opening(), []), E.BAD_RULESET, None)

    @pytest.mark.parametrize(
        ("name", "draw"),
        [
            ("speed", 15),
            ("doubles", 15),
            ("jokers-wild", 16),
            ("three-card-hands", 17),
            ("seven-card-stacks", 13),
            ("runs-at-once", 15),
            ("california", 20),
            ("three-way", 7),
            ("four-way", 15),
        ],
    )
    def test_every_named_ruleset_deals_the_spec_draw_pile(self, name: str, draw: int) -> None:
        ruleset = PRESETS[name]
        verdict = verify(log(ruleset, pack(ruleset), [], result={"deadlock": True}))
        assert verdict.code in (E.OK, E.RESULT_MISMATCH), verdict.message
        assert verdict.steps is not None
        deal_step = verdict.steps[0]
        assert deal_step.draws == (draw,) * ruleset.players
        assert [len(hand) for hand in deal_step.hands] == [ruleset.hand_size] * ruleset.players
        assert deal_step.stacks == (ruleset.stack_size,) * ruleset.stacks

    def test_bad_format_beats_bad_ruleset(self) -> None:
        deck: list[str] = list(opening())
        deck[0] = "XX"
        rejected(log({"stack_size": 25}, deck, []), E.BAD_FORMAT, None)
        rejected(log({"stack_size": 25, "same_rank": "yes"}, opening(), []), E.BAD_FORMAT, None)
        rejected(log({"stack_size": 25}, opening(), [], result={}), E.BAD_FORMAT, None)
        rejected(log({"stack_size": 25}, opening(), []) | {"events": {}}, E.BAD_FORMAT, None)

    def test_players_length_is_checked_only_after_the_ruleset_ranges(self) -> None:
        rejected(log({"players": 5}, opening(), [], players=["a", "b"]), E.BAD_RULESET, None)
        rejected(log({"players": 2}, opening(), [], players=["a", "b", "c"]), E.BAD_FORMAT, None)

    def test_the_winner_seat_is_checked_only_after_the_ruleset_ranges(self) -> None:
        five = ["a", "b", "c", "d", "e"]
        rejected(log({"players": 5}, opening(), [], players=five, result={"winner": 4}), E.BAD_RULESET, None)
        rejected(log(SPEED, opening(), [], result={"winner": 2}), E.BAD_FORMAT, None)

    def test_bad_ruleset_beats_bad_deck(self) -> None:
        rejected(log({"stack_size": 25}, opening()[:-1], []), E.BAD_RULESET, None)


class TestBadDeck:
    def test_a_missing_card_is_named(self) -> None:
        deck = opening()
        verdict = rejected(log(SPEED, deck[:-1], []), E.BAD_DECK, None)
        assert deck[-1] in verdict.message

    def test_an_extra_card_is_named(self) -> None:
        verdict = rejected(log(SPEED, [*opening(), "5H"], []), E.BAD_DECK, None)
        assert "5H" in verdict.message

    def test_a_repeated_card_in_place_of_another(self) -> None:
        deck = opening()
        replaced = deck[40]
        deck[40] = deck[41]
        verdict = rejected(log(SPEED, deck, []), E.BAD_DECK, None)
        assert replaced in verdict.message and deck[41] in verdict.message

    def test_a_joker_in_a_pack_without_jokers(self) -> None:
        deck = opening()
        deck[45] = "JK"
        rejected(log(SPEED, deck, []), E.BAD_DECK, None)

    def test_the_jokers_of_a_pack_with_jokers_are_required(self) -> None:
        deck = [card for card in three_way() if card != "JK"] + ["AS", "AH"]
        rejected(log(THREE_WAY, deck, []), E.BAD_DECK, None)

    def test_two_decks_are_a_multiset(self) -> None:
        two = pack(TWO_DECK_RUNS)
        passes(log(TWO_DECK_RUNS, two, []))
        rejected(log(TWO_DECK_RUNS, pack(SPEED), []), E.BAD_DECK, None)
        rejected(log(TWO_DECK_RUNS, [*two[:-1], two[0]], []), E.BAD_DECK, None)

    def test_bad_format_beats_bad_deck(self) -> None:
        rejected(log(SPEED, opening()[:-1], [], players=["alice"]), E.BAD_FORMAT, None)
        rejected(log(SPEED, [*opening()[:-1], "5X"], []), E.BAD_FORMAT, None)


class TestWholeNumbersBeyond64Bits:
    """JSON integers have no size limit: 2**64 is still a whole number (spec section 2), only out of range."""

    @staticmethod
    def read(document: dict[str, Any]) -> Verdict:
        # json.dumps writes a Python int exactly, digit for digit.
        return verify_bytes(json.dumps(document).encode(), steps=True)

    @pytest.mark.parametrize("big", [2**64, 2**70, 10**400], ids=["2**64", "2**70", "10**400"])
    def test_a_huge_ruleset_size_is_out_of_range(self, big: int) -> None:
        document = log(SPEED, opening(), [])
        document["ruleset"]["stack_size"] = big
        verdict = self.read(document)
        assert (verdict.code, verdict.event) == (E.BAD_RULESET, None), verdict.message

    @pytest.mark.parametrize("big", [2**64, 2**70, 10**400], ids=["2**64", "2**70", "10**400"])
    def test_a_huge_t_is_just_a_late_moment(self, big: int) -> None:
        verdict = self.read(log(SPEED, opening(), [play(big, ALICE, "9C", 0)]))
        # Every event passed; nobody called Speed.
        assert (verdict.code, verdict.event) == (E.RESULT_MISMATCH, None), verdict.message

    @pytest.mark.parametrize("big", [2**64, 2**70, 10**400], ids=["2**64", "2**70", "10**400"])
    def test_a_huge_negative_t_is_time_reversed(self, big: int) -> None:
        verdict = self.read(log(SPEED, opening(), [play(-big, ALICE, "9C", 0)]))
        assert (verdict.code, verdict.event) == (E.TIME_REVERSED, 0), verdict.message

    @pytest.mark.parametrize("big", [2**64, 10**400], ids=["2**64", "10**400"])
    def test_a_huge_seat_is_out_of_range(self, big: int) -> None:
        verdict = self.read(log(SPEED, opening(), [play(1000, big, "9C", 0)]))
        assert (verdict.code, verdict.event) == (E.BAD_FORMAT, 0), verdict.message


# -- per event: format, clock, game over ---------------------------------------


class TestBadFormatInEvents:
    @pytest.mark.parametrize(
        ("ruleset", "deck", "second"),
        [
            (SPEED, opening(), play(1000, BEN, "3Z", 0)),
            (SPEED, opening(), play(1000, BEN, "QC", 5)),
            (SPEED, opening(), {"t": 1000, "type": "pass"}),
            (RUNS, opening(RUNS), run(1000, BEN, ["QC", "3Z"], 1)),
            (SPEED, opening(), play(1000, BEN, "9C", 0)),
            (SPEED, opening(), stall(1000)),
        ],
        ids=["card", "pile", "type", "card in a run", "not in hand", "stall with move"],
    )
    def test_an_event_error_says_which_event(self, ruleset: Ruleset, deck: list[str], second: dict[str, Any]) -> None:
        verdict = verify(log(ruleset, deck, [play(500, ALICE, "9C", 0), second]))
        assert verdict.event == 1 and not verdict.valid
        assert verdict.message.startswith("Event 1:"), verdict.message

    def test_a_bad_card_in_a_reshuffle_order_says_which_event(self) -> None:
        verdict = verify(log(BARE, stuck(BARE), [reshuffle(500, ["8H", "8S"]), reshuffle(1000, ["8S", "8X"])]))
        assert (verdict.code, verdict.event) == (E.BAD_FORMAT, 1)
        assert verdict.message.startswith("Event 1:"), verdict.message

    @pytest.mark.parametrize("t", [1000.0, True, "1000", None])
    def test_t_must_be_an_integer(self, t: object) -> None:
        events = [play(500, ALICE, "9C", 0), play(1000, BEN, "QC", 1)]
        events[1]["t"] = t
        rejected(log(SPEED, opening(), events), E.BAD_FORMAT, 1)

    def test_t_is_required(self) -> None:
        event = play(1000, ALICE, "9C", 0)
        del event["t"]
        rejected(log(SPEED, opening(), [event]), E.BAD_FORMAT, 0)

    @pytest.mark.parametrize("event", [[], "play", None, 7])
    def test_an_event_must_be_an_object(self, event: object) -> None:
        rejected(log(SPEED, opening(), [play(500, ALICE, "9C", 0), event]), E.BAD_FORMAT, 1)

    @pytest.mark.parametrize("kind", ["pass", "Play", "", None, 1])
    def test_an_unknown_type(self, kind: object) -> None:
        rejected(log(SPEED, opening(), [{"t": 1000, "type": kind}]), E.BAD_FORMAT, 0)

    @pytest.mark.parametrize("seat", [2, -1, True, 1.0, "0", None])
    def test_a_seat_out_of_range_or_not_an_integer(self, seat: object) -> None:
        for event in (play(1000, ALICE, "9C", 0), collision(1000, ALICE, "9C", 0), speed(1000, ALICE)):
            event["player"] = seat
            rejected(log(SPEED, opening(), [event]), E.BAD_FORMAT, 0)

    @pytest.mark.parametrize("pile", [2, -1, True, 0.0, "0", None])
    def test_a_pile_out_of_range_or_not_an_integer(self, pile: object) -> None:
        for event in (play(1000, ALICE, "9C", 0), collision(1000, ALICE, "9C", 0)):
            event["pile"] = pile
            rejected(log(SPEED, opening(), [event]), E.BAD_FORMAT, 0)

    @pytest.mark.parametrize("card", ["3Z", "9c", "T9", "", 9, None, ["9C"]])
    def test_a_badly_spelled_card(self, card: object) -> None:
        for event in (play(1000, ALICE, "9C", 0), collision(1000, ALICE, "9C", 0)):
            event["card"] = card
            rejected(log(SPEED, opening(), [event]), E.BAD_FORMAT, 0)

    def test_a_play_needs_a_card(self) -> None:
        event = play(1000, ALICE, "9C", 0)
        del event["card"]
        rejected(log(SPEED, opening(), [event]), E.BAD_FORMAT, 0)

    def test_cards_without_multi_card(self) -> None:
        rejected(log(SPEED, opening(), [run(1000, ALICE, ["9C", "10C"], 0)]), E.BAD_FORMAT, 0)
        rejected(log(SPEED, opening(), [run(1000, ALICE, ["9C"], 0)]), E.BAD_FORMAT, 0)

    def test_a_play_with_both_card_and_cards(self) -> None:
        event = run(1000, ALICE, ["9C", "10C"], 0) | {"card": "9C"}
        rejected(log(RUNS, opening(RUNS), [event]), E.BAD_FORMAT, 0)

    @pytest.mark.parametrize("cards", [[], "9C", None, ["9C", "3Z"], ["9C", 10]])
    def test_cards_must_be_a_non_empty_list_of_cards(self, cards: object) -> None:
        event = run(1000, ALICE, ["9C"], 0) | {"cards": cards}
        rejected(log(RUNS, opening(RUNS), [event]), E.BAD_FORMAT, 0)

    def test_a_reshuffle_in_a_draw_piles_game(self) -> None:
        events = draw_piles_dry()
        events.append(reshuffle(5000, []))
        rejected(log(DRAW_STALLS, draw_stall_table(), events), E.BAD_FORMAT, len(events) - 1)

    @pytest.mark.parametrize("order", [None, "8S 8H", {"0": "8S"}, ["8S", "8X"]])
    def test_a_reshuffle_order_that_is_not_a_list_of_cards(self, order: object) -> None:
        event = reshuffle(1000, []) | {"order": order}
        rejected(log(BARE, stuck(BARE), [event]), E.BAD_FORMAT, 0)

    @pytest.mark.parametrize(
        "piles", [None, [0], [0, 0, 0], [0, None], [None, 0], [0, 2], [-1, 0], [True, 0], [0.0, 0], "0,0"]
    )
    def test_draw_pile_stall_piles_name_a_pile_for_each_seat_with_a_draw_pile(self, piles: object) -> None:
        events = [play(1000, ALICE, "7C", 1), stall(2000) | {"piles": piles}]
        rejected(log(DRAW_STALLS, draw_stall_table(), events), E.BAD_FORMAT, 1)

    def test_draw_pile_stall_piles_are_null_exactly_for_an_empty_draw_pile(self) -> None:
        events = draw_piles_dry()
        # Before the last stall Alice's draw pile is empty and Ben still has one card.
        passes(log(DRAW_STALLS, draw_stall_table(), events))
        for wrong in ([0, 0], [1, 0], [None, None], [False, 0]):
            events[-1] = stall(4000, wrong)
            rejected(log(DRAW_STALLS, draw_stall_table(), events), E.BAD_FORMAT, len(events) - 1)

    def test_a_stacks_game_stall_ignores_piles(self) -> None:
        # `piles` is not a field of a stacks stall; unknown keys inside an event are ignored.
        passes(log(SPEED, stuck(), [stall(1000) | {"piles": [0, 1]}]))

    def test_an_events_bad_format_waits_for_every_earlier_event(self) -> None:
        events = [play(1000, BEN, "9C", 0), play(2000, ALICE, "3Z", 0)]
        rejected(log(SPEED, opening(), events), E.NOT_IN_HAND, 0)


class TestTimeReversed:
    def test_the_first_event_before_the_start(self) -> None:
        rejected(log(SPEED, opening(), [play(-1, ALICE, "9C", 0)]), E.TIME_REVERSED, 0)

    def test_an_event_before_the_previous_one(self) -> None:
        events = [play(1000, ALICE, "9C", 0), play(999, BEN, "QC", 1)]
        rejected(log(SPEED, opening(), events), E.TIME_REVERSED, 1)

    def test_events_at_the_same_moment_are_fine(self) -> None:
        passes(log(SPEED, opening(), [play(0, ALICE, "9C", 0), play(0, BEN, "QC", 1), play(0, ALICE, "10C", 0)]))

    def test_bad_format_beats_time_reversed(self) -> None:
        events = [play(1000, ALICE, "9C", 0), play(500, BEN, "3Z", 1)]
        rejected(log(SPEED, opening(), events), E.BAD_FORMAT, 1)
        events = [play(1000, ALICE, "9C", 0), play(500, BEN, "QC", 1) | {"player": 7}]
        rejected(log(SPEED, opening(), events), E.BAD_FORMAT, 1)

    def test_time_reversed_beats_the_events_own_checks(self) -> None:
        events = [play(1000, ALICE, "9C", 0), play(500, BEN, "9C", 1)]  # also not in Ben's hand
        rejected(log(SPEED, opening(), events), E.TIME_REVERSED, 1)
        rejected(log(SPEED, stuck(), [stall(1000), stall(900)]), E.TIME_REVERSED, 1)

    def test_time_reversed_beats_game_over(self) -> None:
        events = [*short_game(), play(2999, BEN, "2D", 1)]
        rejected(log(SHORT, short_win(), events), E.TIME_REVERSED, 6)


class TestGameOver:
    def test_the_short_game_is_won(self) -> None:
        accepted(log(SHORT, short_win(), short_game()), ALICE)

    @pytest.mark.parametrize(
        "after",
        [
            play(4000, BEN, "2D", 0),
            collision(3000, BEN, "7D", 0),
            stall(4000),
            reshuffle(4000, []),
            speed(4000, ALICE),
            speed(4000, BEN),
        ],
        ids=["play", "collision", "stall", "reshuffle", "speed", "speed by the other"],
    )
    def test_any_event_after_speed(self, after: dict[str, Any]) -> None:
        verdict = rejected(log(SHORT, short_win(), [*short_game(), after]), E.GAME_OVER, 6, seat=ALICE)
        assert verdict.steps is not None and verdict.steps[-1].event == 5

    def test_bad_format_beats_game_over(self) -> None:
        rejected(log(SHORT, short_win(), [*short_game(), play(4000, BEN, "2X", 0)]), E.BAD_FORMAT, 6)


# -- per event: the event's own checks --------------------------------------


class TestNotInHand:
    def test_a_card_in_the_other_players_hand(self) -> None:
        rejected(log(SPEED, opening(), [play(1000, BEN, "9C", 0)]), E.NOT_IN_HAND, 0, seat=BEN, card="9C")

    def test_a_card_still_in_the_draw_pile(self) -> None:
        rejected(log(SPEED, opening(), [play(1000, ALICE, "AS", 0)]), E.NOT_IN_HAND, 0, seat=ALICE, card="AS")

    def test_a_card_already_played(self) -> None:
        events = [play(1000, ALICE, "9C", 0), play(2000, ALICE, "9C", 0)]
        rejected(log(SPEED, opening(), events), E.NOT_IN_HAND, 1, seat=ALICE, card="9C")

    def test_a_starter(self) -> None:
        rejected(log(SPEED, opening(), [play(1000, ALICE, "8S", 1)]), E.NOT_IN_HAND, 0, seat=ALICE, card="8S")

    def test_the_refill_puts_the_draw_piles_top_in_hand(self) -> None:
        # Alice's draw pile starts AS 2S. After her 9C she holds the AS (not yet the 2S), and once Ben has
        # put QC and KC on the jack, the AS fits the king.
        events = [play(1000, ALICE, "9C", 0), play(2000, BEN, "QC", 1), play(3000, BEN, "KC", 1)]
        passes(log(SPEED, opening(), [*events, play(4000, ALICE, "AS", 1)]))
        rejected(log(SPEED, opening(), [*events, play(4000, ALICE, "2S", 1)]), E.NOT_IN_HAND, 3, card="2S")

    def test_not_in_hand_beats_no_fit(self) -> None:
        # Ben's KC is neither in Alice's hand nor fits the 8.
        rejected(log(SPEED, opening(), [play(1000, ALICE, "KC", 0)]), E.NOT_IN_HAND, 0, seat=ALICE, card="KC")

    def test_a_run_card_not_in_hand(self) -> None:
        events = [run(1000, ALICE, ["9C", "10C", "QC"], 0)]  # QC is Ben's, and would not fit the 10 either
        rejected(log(RUNS, opening(RUNS), events), E.NOT_IN_HAND, 0, seat=ALICE, card="QC")

    def test_a_run_using_a_card_twice(self) -> None:
        rejected(log(RUNS, opening(RUNS), [run(1000, ALICE, ["9C", "10C", "9C"], 0)]), E.NOT_IN_HAND, 0, card="9C")


class TestNoFit:
    def test_a_card_that_does_not_fit(self) -> None:
        verdict = rejected(
            log(SPEED, opening(), [play(1000, ALICE, "4D", 0)]), E.NO_FIT, 0, seat=ALICE, card="4D", pile=0
        )
        assert card_named(verdict.message, "8S")

    def test_a_card_that_fits_the_other_pile_only(self) -> None:
        rejected(log(SPEED, opening(), [play(1000, ALICE, "10C", 0)]), E.NO_FIT, 0, seat=ALICE, card="10C", pile=0)

    def test_ranks_wrap_both_ways(self) -> None:
        # Ben: QC on the jack, KC on the queen, then AC on the king (A on K); then Alice's KD on the ace (K on A).
        events = [play(1000, BEN, "QC", 1), play(2000, BEN, "KC", 1), play(3000, BEN, "AC", 1)]
        passes(log(SPEED, opening(), [*events, play(4000, ALICE, "KD", 1)]))
        rejected(log(SPEED, opening(), [*events[:3], play(4000, BEN, "6D", 1)]), E.NO_FIT, 3, card="6D", pile=1)

    def test_same_rank_only_with_doubles(self) -> None:
        alice = ["8C", "2C", "3C", "4C", "5C"]
        rejected(log(SPEED, stuck(alice=alice), [play(1000, ALICE, "8C", 0)]), E.NO_FIT, 0, card="8C", pile=0)
        passes(log(DOUBLES, stuck(DOUBLES, alice=alice), [play(1000, ALICE, "8C", 0)]))

    def test_a_joker_fits_any_card_and_any_card_fits_a_joker(self) -> None:
        deck = deal(
            JOKERS_WILD, hands=[["JK", "2C", "3C", "4C", "5C"], ["JK", "2D", "3D", "4D", "5D"]], starters=["8S", "8H"]
        )
        events = [play(1000, ALICE, "JK", 0), play(2000, ALICE, "2C", 0), play(3000, BEN, "JK", 1)]
        passes(log(JOKERS_WILD, deck, events))

    def test_a_joker_on_a_joker_only_with_joker_on_joker(self) -> None:
        deck = deal(
            JOKERS_WILD, hands=[["JK", "2C", "3C", "4C", "5C"], ["JK", "2D", "3D", "4D", "5D"]], starters=["8S", "8H"]
        )
        events = [play(1000, ALICE, "JK", 0), play(2000, BEN, "JK", 0)]
        rejected(log(JOKERS_WILD, deck, events), E.NO_FIT, 1, seat=BEN, card="JK", pile=0)
        both = Ruleset(jokers=2, joker_on_joker=True)
        passes(log(both, deck, events))

    def test_a_run_whose_first_card_does_not_fit_the_pile(self) -> None:
        rejected(log(RUNS, opening(RUNS), [run(1000, ALICE, ["10C", "9C"], 0)]), E.NO_FIT, 0, card="10C", pile=0)

    def test_a_run_that_breaks(self) -> None:
        # 7H fits the 8, but the 9C does not fit the 7H.
        verdict = rejected(log(RUNS, opening(RUNS), [run(1000, ALICE, ["7H", "9C"], 0)]), E.NO_FIT, 0, card="9C")
        assert card_named(verdict.message, "7H")

    def test_no_fit_beats_joker_last(self) -> None:
        # Alice's last card is a joker and pile 1 shows a joker: it does not fit, which is reported first.
        deck = deal(
            SHORT_JOKERS,
            hands=[["9C", "10C", "JC", "QC", "KC", "JK"], ["2D", "3D", "4D", "5D", "6D", "2H"]],
            starters=["8S", "JK"],
        )
        events = [*plays(ALICE, 0, ["9C", "10C", "JC", "QC", "KC"], start=1000), play(2000, ALICE, "JK", 1)]
        rejected(log(SHORT_JOKERS, deck, events), E.NO_FIT, 5, seat=ALICE, card="JK", pile=1)
        both = Ruleset(jokers=2, stack_size=20, hand_size=6, joker_on_joker=True)
        rejected(log(both, deck, events), E.JOKER_LAST, 5, seat=ALICE)


def lone_joker_deck(ruleset: Ruleset = SHORT_JOKERS) -> list[str]:
    """Alice holds 9C-KC and a joker with nothing to draw; Ben holds 2D-6D and 2H. Piles 8S and 8H."""
    return deal(
        ruleset,
        hands=[["9C", "10C", "JC", "QC", "KC", "JK"], ["2D", "3D", "4D", "5D", "6D", "2H"]],
        starters=["8S", "8H"],
        stacks=[["5S"], ["5H"]],
    )


ALICE_UP_TO_THE_JOKER = plays(ALICE, 0, ["9C", "10C", "JC", "QC", "KC"], start=1000)


class TestJokerLast:
    def test_a_joker_as_the_last_card(self) -> None:
        events = [*ALICE_UP_TO_THE_JOKER, play(2000, ALICE, "JK", 1)]
        verdict = rejected(log(SHORT_JOKERS, lone_joker_deck(), events), E.JOKER_LAST, 5, seat=ALICE)
        assert "joker" in verdict.message.lower()

    def test_a_joker_that_is_not_the_last_card(self) -> None:
        events = [*ALICE_UP_TO_THE_JOKER[:4], play(2000, ALICE, "JK", 1), play(3000, ALICE, "KC", 1)]
        accepted(log(SHORT_JOKERS, lone_joker_deck(), [*events, speed(4000, ALICE)]), ALICE)

    def test_a_lone_last_joker_cannot_move_so_a_stall_is_legal(self) -> None:
        # Piles show KC and 8H; Ben's 2-6 fit neither; Alice holds only the joker.
        events = [*ALICE_UP_TO_THE_JOKER, stall(2000)]
        passes(log(SHORT_JOKERS, lone_joker_deck(), events))
        # With a second card beside it the joker could move, and the stall is not legal.
        rejected(log(SHORT_JOKERS, lone_joker_deck(), [*events[:4], stall(2000)]), E.STALL_WITH_MOVE, 4, seat=ALICE)

    def test_joker_last_applies_to_the_last_card_of_a_run(self) -> None:
        deck = lone_joker_deck(SHORT_JOKER_RUNS)
        rejected(
            log(SHORT_JOKER_RUNS, deck, [run(1000, ALICE, ["9C", "10C", "JC", "QC", "KC", "JK"], 0)]),
            E.JOKER_LAST,
            0,
            seat=ALICE,
        )
        # A joker inside the run is fine: the king fits on it, and it is the last card.
        events = [run(1000, ALICE, ["9C", "10C", "JC", "QC", "JK", "KC"], 0), speed(2000, ALICE)]
        accepted(log(SHORT_JOKER_RUNS, deck, events), ALICE)


class TestRuns:
    def test_a_run_goes_down_in_order_and_the_hand_is_refilled_once(self) -> None:
        verdict = passes(
            log(RUNS, opening(RUNS), [run(1000, ALICE, ["9C", "10C"], 0), run(2000, BEN, ["QC", "KC", "AC"], 1)])
        )
        assert verdict.steps is not None
        after_alice, after_ben = verdict.steps[1], verdict.steps[2]
        assert after_alice.pile_tops == ("10C", "JS") and after_alice.piles == (3, 1)
        assert sorted(after_alice.hands[ALICE]) == sorted(["7H", "KD", "4D", "AS", "2S"])
        assert after_alice.draws == (13, 15)
        assert after_ben.pile_tops == ("10C", "AC") and after_ben.piles == (3, 4)
        assert after_ben.draws == (13, 12)

    def test_a_run_of_one_card(self) -> None:
        passes(log(RUNS, opening(RUNS), [run(1000, ALICE, ["9C"], 0), play(2000, ALICE, "10C", 0)]))

    def test_duplicates_in_a_two_deck_game(self) -> None:
        hands = [["9C", "10C", "9C", "2D", "3D"], ["2H", "3H", "4H", "5H", "6H"]]
        deck = deal(TWO_DECK_RUNS, hands=hands, starters=["8S", "8S"])
        passes(log(TWO_DECK_RUNS, deck, [run(1000, ALICE, ["9C", "10C", "9C"], 0)]))
        hands[ALICE][2] = "9H"
        deck = deal(TWO_DECK_RUNS, hands=hands, starters=["8S", "8S"])
        rejected(log(TWO_DECK_RUNS, deck, [run(1000, ALICE, ["9C", "10C", "9C"], 0)]), E.NOT_IN_HAND, 0, card="9C")


class TestBadCollision:
    def test_a_legal_collision_moves_nothing(self) -> None:
        # Alice's 9C lands on the 8; Ben's 7D, which fitted the 8, is taken back.
        verdict = passes(log(SPEED, opening(), [play(1000, ALICE, "9C", 0), collision(1000, BEN, "7D", 0)]))
        assert verdict.steps is not None
        after_collision = verdict.steps[2]
        assert after_collision.pile_tops == ("9C", "JS") and after_collision.piles == (2, 1)
        assert after_collision.hands[BEN] == ("QC", "7D", "KC", "AC", "6D")
        assert after_collision.draws == (14, 15) and after_collision.stacks == (5, 5)

    def test_a_collision_first(self) -> None:
        rejected(
            log(SPEED, opening(), [collision(1000, BEN, "7D", 0)]), E.BAD_COLLISION, 0, seat=BEN, card="7D", pile=0
        )

    def test_a_collision_after_a_stall(self) -> None:
        rejected(log(SPEED, stuck(), [stall(1000), collision(1000, BEN, "2D", 0)]), E.BAD_COLLISION, 1, seat=BEN)

    def test_a_collision_on_another_pile(self) -> None:
        events = [play(1000, ALICE, "9C", 0), collision(1000, BEN, "QC", 1)]
        rejected(log(SPEED, opening(), events), E.BAD_COLLISION, 1, seat=BEN, card="QC", pile=1)
        # 7D did fit the 8 under Alice's 9C: only the pile is wrong.
        events = [play(1000, ALICE, "9C", 0), collision(1000, BEN, "7D", 1)]
        verdict = rejected(log(SPEED, opening(), events), E.BAD_COLLISION, 1, seat=BEN, card="7D", pile=1)
        assert "does not match the play it follows (pile 0" in verdict.message

    def test_a_collision_at_another_moment(self) -> None:
        events = [play(1000, ALICE, "9C", 0), collision(1001, BEN, "7D", 0)]
        rejected(log(SPEED, opening(), events), E.BAD_COLLISION, 1, seat=BEN, card="7D", pile=0)

    def test_a_collision_with_ones_own_play(self) -> None:
        events = [play(1000, ALICE, "9C", 0), collision(1000, ALICE, "7H", 0)]
        rejected(log(SPEED, opening(), events), E.BAD_COLLISION, 1, seat=ALICE, card="7H", pile=0)

    def test_the_taken_back_card_must_be_in_the_players_hand(self) -> None:
        events = [play(1000, ALICE, "9C", 0), collision(1000, BEN, "7H", 0)]  # 7H is Alice's
        rejected(log(SPEED, opening(), events), E.BAD_COLLISION, 1, seat=BEN, card="7H", pile=0)

    def test_the_taken_back_card_must_have_fitted_the_pile_before_the_standing_play(self) -> None:
        # Ben's QC lands on the jack; Alice's KD fits the queen but did not fit the jack.
        events = [play(1000, BEN, "QC", 1), collision(1000, ALICE, "KD", 1)]
        rejected(log(SPEED, opening(), events), E.BAD_COLLISION, 1, seat=ALICE, card="KD", pile=1)
        # Her 10C did fit the jack.
        passes(log(SPEED, opening(), [events[0], collision(1000, ALICE, "10C", 1)]))

    def test_a_collision_with_a_run(self) -> None:
        # Alice's run 9C 10C stands on the 8; Ben's 7D fitted the 8 as it was before the run.
        passes(log(RUNS, opening(RUNS), [run(1000, ALICE, ["9C", "10C"], 0), collision(1000, BEN, "7D", 0)]))

    def test_a_chain_of_collisions(self) -> None:
        events = [play(1000, ALICE, "9C", 0), collision(1000, BEN, "7D", 0), collision(1000, CHLOE, "9H", 0)]
        passes(log(THREE_WAY, three_way(), events))

    def test_a_chain_must_share_the_pile(self) -> None:
        events = [play(1000, ALICE, "9C", 0), collision(1000, BEN, "7D", 0), collision(1000, CHLOE, "10H", 1)]
        rejected(log(THREE_WAY, three_way(), events), E.BAD_COLLISION, 2, seat=CHLOE, card="10H", pile=1)

    def test_a_chain_must_share_the_moment(self) -> None:
        events = [play(1000, ALICE, "9C", 0), collision(1000, BEN, "7D", 0), collision(1001, CHLOE, "9H", 0)]
        rejected(log(THREE_WAY, three_way(), events), E.BAD_COLLISION, 2, seat=CHLOE, card="9H", pile=0)

    def test_the_standing_play_is_the_nearest_preceding_non_collision(self) -> None:
        # Alice lands on pile 0 and Ben on pile 1 at the same moment: a collision now refers to Ben's play.
        events = [play(1000, ALICE, "9C", 0), play(1000, BEN, "QD", 1)]
        rejected(
            log(THREE_WAY, three_way(), [*events, collision(1000, CHLOE, "9H", 0)]),
            E.BAD_COLLISION,
            2,
            seat=CHLOE,
            card="9H",
            pile=0,
        )
        passes(log(THREE_WAY, three_way(), [*events, collision(1000, CHLOE, "10H", 1)]))


class TestStallWithMove:
    def test_a_stall_while_someone_can_move(self) -> None:
        verdict = rejected(log(SPEED, opening(), [stall(1000)]), E.STALL_WITH_MOVE, 0, seat=ALICE)
        # It names a card Alice could play and where.
        assert any(card_named(verdict.message, card) for card in ("9C", "10C", "7H"))
        assert "pile 0" in verdict.message or "pile 1" in verdict.message

    def test_it_names_the_player_who_can_move(self) -> None:
        ben = ["9D", "2D", "3D", "4D", "5D"]
        rejected(log(SPEED, stuck(ben=ben), [stall(1000)]), E.STALL_WITH_MOVE, 0, seat=BEN, card="9D")

    def test_a_stall_when_nobody_can_move(self) -> None:
        verdict = passes(log(SPEED, stuck(), [stall(1000)]))
        assert verdict.steps is not None
        assert verdict.steps[1].pile_tops == ("10S", "10H")
        assert verdict.steps[1].stacks == (4, 4) and verdict.steps[1].piles == (2, 2)

    def test_same_rank_counts_as_a_move_with_doubles(self) -> None:
        alice = ["8C", "2C", "3C", "4C", "5C"]
        passes(log(SPEED, stuck(alice=alice), [stall(1000)]))
        rejected(log(DOUBLES, stuck(DOUBLES, alice=alice), [stall(1000)]), E.STALL_WITH_MOVE, 0, seat=ALICE)

    def test_a_joker_that_is_not_the_last_card_can_move(self) -> None:
        ben = ["JK", "2D", "3D", "4D", "5D"]
        rejected(
            log(JOKERS_WILD, stuck(JOKERS_WILD, ben=ben), [stall(1000)]), E.STALL_WITH_MOVE, 0, seat=BEN, card="JK"
        )

    def test_stall_with_move_beats_stacks_empty(self) -> None:
        rejected(log(BARE, opening(BARE), [stall(1000)]), E.STALL_WITH_MOVE, 0, seat=ALICE)

    def test_a_draw_pile_stall_while_someone_can_move(self) -> None:
        rejected(
            log(DRAW_STALLS, draw_stall_table(), [stall(1000, [0, 0])]), E.STALL_WITH_MOVE, 0, seat=ALICE, card="7C"
        )

    def test_a_reshuffle_while_someone_can_move(self) -> None:
        # Stacks are full and the order is wrong too: the move is reported first.
        rejected(log(SPEED, opening(), [reshuffle(1000, ["8S"])]), E.STALL_WITH_MOVE, 0, seat=ALICE)
        rejected(log(BARE, opening(BARE), [reshuffle(1000, ["8S", "JS"])]), E.STALL_WITH_MOVE, 0, seat=ALICE)


class TestStacksEmpty:
    def test_five_stalls_empty_the_stacks_and_a_sixth_is_stacks_empty(self) -> None:
        verdict = passes(log(SPEED, stuck(), stalls(5, start=1000)))
        assert verdict.steps is not None
        assert [step.stacks for step in verdict.steps] == [(5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0)]
        assert [step.pile_tops for step in verdict.steps[1:]] == [(s, h) for s, h in zip(*STUCK_STACKS, strict=True)]
        verdict = rejected(log(SPEED, stuck(), stalls(6, start=1000)), E.STACKS_EMPTY, 5)
        assert "reshuffle" in verdict.message

    def test_a_stall_with_no_stacks_at_all(self) -> None:
        rejected(log(BARE, stuck(BARE), [stall(1000)]), E.STACKS_EMPTY, 0)

    def test_a_draw_pile_stall_with_every_draw_pile_empty(self) -> None:
        events = [*draw_piles_dry(), stall(5000, [None, None])]
        rejected(log(DRAW_STALLS, draw_stall_table(), events), E.STACKS_EMPTY, len(events) - 1)


class TestStacksNotEmpty:
    def test_a_reshuffle_with_full_stacks(self) -> None:
        rejected(log(SPEED, stuck(), [reshuffle(1000, ["8S", "8H"])]), E.STACKS_NOT_EMPTY, 0)

    def test_stacks_not_empty_beats_bad_shuffle(self) -> None:
        rejected(log(SPEED, stuck(), [reshuffle(1000, ["AS"])]), E.STACKS_NOT_EMPTY, 0)

    def test_every_stack_must_be_empty(self) -> None:
        # After the reshuffle of five cards the stacks hold 2 and 1; after one stall, 1 and 0.
        events = [*reshuffle_opening(), reshuffle(3000, ["10D", "8S", "JC", "9C", "8H"]), stall(4000)]
        verdict = passes(log(BARE, reshuffle_table(), events))
        assert verdict.steps is not None and verdict.steps[-1].stacks == (1, 0)
        gathered = ["8S", "8H", "10D", "9C"]
        rejected(log(BARE, reshuffle_table(), [*events, reshuffle(5000, gathered)]), E.STACKS_NOT_EMPTY, 5)


class TestBadShuffle:
    GATHERED = ["10D", "8S", "JC", "9C", "8H"]

    @pytest.mark.parametrize(
        "order",
        [
            [],
            ["10D", "8S", "JC", "9C"],  # one missing
            ["10D", "8S", "JC", "9C", "8H", "2C"],  # one from Alice's hand
            ["10D", "8S", "JC", "9C", "2C"],  # one swapped for a hand card
            ["10D", "8S", "JC", "9C", "9C"],  # one twice
            ["10D", "8S", "JC", "9C", "8H", "8H"],  # one twice, extra
        ],
        ids=["empty", "missing", "extra", "swapped", "repeated", "repeated extra"],
    )
    def test_the_order_must_hold_exactly_the_gathered_cards(self, order: list[str]) -> None:
        events = [*reshuffle_opening(), reshuffle(3000, order)]
        rejected(log(BARE, reshuffle_table(), events), E.BAD_SHUFFLE, 3)

    def test_the_split_is_contiguous_first_stacks_take_one_more_and_each_stack_flips(self) -> None:
        events = [*reshuffle_opening(), reshuffle(3000, self.GATHERED), stall(4000), stall(5000)]
        verdict = passes(log(BARE, reshuffle_table(), events))
        assert verdict.steps is not None
        shuffled, first_stall, second_stall = verdict.steps[4], verdict.steps[5], verdict.steps[6]
        # Stack 0 gets 10D 8S JC (top 10D), stack 1 gets 9C 8H (top 9C); each flips its top at once.
        assert shuffled.pile_tops == ("10D", "9C")
        assert (shuffled.piles, shuffled.stacks) == ((1, 1), (2, 1))
        assert first_stall.pile_tops == ("8S", "8H") and first_stall.stacks == (1, 0)
        # Stack 1 is empty: only stack 0 flips.
        assert second_stall.pile_tops == ("JC", "8H") and second_stall.stacks == (0, 0)
        assert second_stall.piles == (3, 2)
        # Now the stacks are gone again and a reshuffle is due.
        rejected(log(BARE, reshuffle_table(), [*events, stall(6000)]), E.STACKS_EMPTY, 6)
        passes(log(BARE, reshuffle_table(), [*events, reshuffle(6000, ["JC", "8S", "10D", "8H", "9C"])]))

    def test_an_uneven_split_over_four_stacks(self) -> None:
        # BARE with four piles: a reshuffle of 4 starters + 3 plays = 7 cards splits 2, 2, 2, 1.
        four = Ruleset(center_piles=4, stacks=4, stack_size=0)
        deck = deal(
            four,
            hands=[["9C", "10C", "JC", "2C", "3C"], ["2D", "3D", "4D", "5D", "6D"]],
            starters=["8S", "8H", "8D", "8C"],
            draws=[["4C", "5C", "6C"]],
        )
        events = plays(ALICE, 0, ["9C", "10C", "JC"], start=1000)
        order = ["JC", "8H", "10C", "8D", "9C", "8C", "8S"]
        verdict = passes(log(four, deck, [*events, reshuffle(3000, order), stall(4000)]))
        assert verdict.steps is not None
        shuffled, stalled = verdict.steps[4], verdict.steps[5]
        assert shuffled.pile_tops == ("JC", "10C", "9C", "8S")
        assert shuffled.stacks == (1, 1, 1, 0)
        assert stalled.pile_tops == ("8H", "8D", "8C", "8S")
        assert stalled.stacks == (0, 0, 0, 0) and stalled.piles == (2, 2, 2, 1)


class TestNotFinished:
    def test_speed_with_cards_in_hand(self) -> None:
        events = [*plays(ALICE, 0, ["9C", "10C", "JC", "QC"], start=1000), speed(3000, ALICE)]
        rejected(log(SHORT, short_win(), events), E.NOT_FINISHED, 4, seat=ALICE)

    def test_speed_by_a_player_who_has_not_finished(self) -> None:
        events = [*plays(ALICE, 0, ["9C", "10C", "JC", "QC", "KC"], start=1000), speed(3000, BEN)]
        rejected(log(SHORT, short_win(), events), E.NOT_FINISHED, 5, seat=BEN)

    def test_speed_at_the_start(self) -> None:
        rejected(log(SPEED, opening(), [speed(1000, ALICE)]), E.NOT_FINISHED, 0, seat=ALICE)


class TestResultMismatch:
    def test_a_winner_without_speed(self) -> None:
        events = plays(ALICE, 0, ["9C", "10C", "JC", "QC", "KC"], start=1000)
        rejected(log(SHORT, short_win(), events), E.RESULT_MISMATCH, None, seat=ALICE)

    def test_the_wrong_winner(self) -> None:
        rejected(log(SHORT, short_win(), short_game(), result={"winner": BEN}), E.RESULT_MISMATCH, None, seat=BEN)

    def test_laying_every_card_is_not_winning_until_speed(self) -> None:
        # Alice lays all five but does not call Speed: nobody can move, the stacks flip, and Ben plays on.
        events = [*plays(ALICE, 0, ["9C", "10C", "JC", "QC", "KC"], start=1000), stall(3000)]
        verdict = passes(log(SHORT, short_win(), events))
        assert verdict.steps is not None and verdict.steps[-1].pile_tops == ("AS", "10H")
        events.append(play(4000, BEN, "2D", 0))
        rejected(log(SHORT, short_win(), events), E.RESULT_MISMATCH, None, seat=ALICE)

    def test_a_deadlock_claimed_for_a_won_game(self) -> None:
        rejected(log(SHORT, short_win(), short_game(), result={"deadlock": True}), E.RESULT_MISMATCH, None)

    def test_a_deadlock_claimed_while_someone_can_move(self) -> None:
        rejected(log(SPEED, opening(), [], result={"deadlock": True}), E.RESULT_MISMATCH, None, seat=ALICE)

    def test_a_deadlock_claimed_while_stacks_remain(self) -> None:
        rejected(log(SPEED, stuck(), [], result={"deadlock": True}), E.RESULT_MISMATCH, None)
        rejected(log(SPEED, stuck(), stalls(4, start=1000), result={"deadlock": True}), E.RESULT_MISMATCH, None)

    def test_a_deadlock_when_every_stack_is_empty_and_no_centre_card_could_take_a_hand_card(self) -> None:
        accepted(log(BARE, stuck(BARE), [], result={"deadlock": True}), None)
        accepted(log(SPEED, stuck(), stalls(5, start=1000), result={"deadlock": True}), None)

    def test_a_buried_centre_card_that_a_hand_card_fits_is_no_deadlock(self) -> None:
        # Piles 8S and KH. Alice's 9C goes on the 8S; Ben's 7D fits the buried 8S, so a reshuffle could free it.
        deck = deal(
            BARE,
            hands=[["9C", "2C", "3C", "4C", "5C"], ["7D", "2D", "3D", "4D", "5D"]],
            starters=["8S", "KH"],
            draws=[["6C"]],
        )
        events = [play(1000, ALICE, "9C", 0)]
        rejected(log(BARE, deck, events, result={"deadlock": True}), E.RESULT_MISMATCH, None)
        # Indeed: the reshuffle is legal and brings the 8S back up for Ben.
        events += [reshuffle(2000, ["8S", "9C", "KH"]), play(3000, BEN, "7D", 0)]
        passes(log(BARE, deck, events))

    def test_a_lone_last_joker_never_frees_a_deadlock(self) -> None:
        walk = plays(ALICE, 0, LONE_JOKER_WALK, start=1000)
        document = log(BARE_JOKERS, lone_joker_table(), walk, result={"deadlock": True})
        # Alice is left with the joker; Ben never played: 5 in hand and 21 to draw.
        assert accepted(document, None).cards_left == (1, 26)
        # One play earlier she holds a 2 beside the joker, and can move.
        document["events"] = walk[:-1]
        rejected(document, E.RESULT_MISMATCH, None, seat=ALICE)

    def test_a_draw_piles_deadlock_needs_every_draw_pile_empty(self) -> None:
        events = draw_piles_dry()
        accepted(log(DRAW_STALLS, draw_stall_table(), events, result={"deadlock": True}), None)
        rejected(log(DRAW_STALLS, draw_stall_table(), events[:-1], result={"deadlock": True}), E.RESULT_MISMATCH, None)

    def test_result_mismatch_is_checked_after_every_event(self) -> None:
        rejected(log(SHORT, short_win(), [play(1000, BEN, "9C", 0)], result={"winner": BEN}), E.NOT_IN_HAND, 0)


# -- the replay's steps ----------------------------------------------------------


class TestSteps:
    def test_the_deal(self) -> None:
        verdict = passes(log(SPEED, opening(), []))
        assert verdict.steps is not None and len(verdict.steps) == 1
        dealt = verdict.steps[0]
        assert dealt.event is None and dealt.t == 0
        assert dealt.hands == (("9C", "10C", "7H", "KD", "4D"), ("QC", "7D", "KC", "AC", "6D"))
        assert dealt.draws == (15, 15) and dealt.stacks == (5, 5) and dealt.piles == (1, 1)
        assert dealt.pile_tops == ("8S", "JS")
        assert dealt.cards_left == (20, 20) and dealt.total == 52

    def test_a_one_card_play_is_on_the_pile_and_the_hand_is_refilled_in_its_step(self) -> None:
        verdict = passes(log(SPEED, opening(), [play(1000, ALICE, "9C", 0)]))
        assert verdict.steps is not None
        after = verdict.steps[1]
        assert after.event == 0 and after.t == 1000
        assert after.pile_tops == ("9C", "JS") and after.piles == (2, 1)
        assert sorted(after.hands[ALICE]) == sorted(["10C", "7H", "KD", "4D", "AS"])
        assert after.draws == (14, 15) and after.cards_left == (19, 20)

    def test_every_step_of_a_long_log_counts_the_whole_pack(self) -> None:
        walk = plays(ALICE, 0, LONE_JOKER_WALK, start=1000)
        verdict = verify(log(BARE_JOKERS, lone_joker_table(), walk, result={"deadlock": True}))
        assert verdict.steps is not None and len(verdict.steps) == len(walk) + 1
        assert {step.total for step in verdict.steps} == {54}
        # Alice sheds one card per play.
        assert [step.cards_left[ALICE] for step in verdict.steps] == list(range(26, 0, -1))

    def test_a_draw_pile_stall_flips_in_seat_order(self) -> None:
        verdict = passes(log(DRAW_STALLS, draw_stall_table(), draw_piles_dry()[:3]))
        assert verdict.steps is not None
        first = verdict.steps[2]
        # Alice flips 3S onto pile 0 and Ben covers it with 8H: only Ben's card shows.
        assert first.pile_tops == ("8H", "7C") and first.piles == (3, 2)
        assert first.draws == (16, 17)

    def test_steps_stop_at_the_last_event_that_passed(self) -> None:
        events = [play(1000, ALICE, "9C", 0), play(2000, BEN, "QC", 1), play(3000, BEN, "9C", 1)]
        verdict = rejected(log(SPEED, opening(), events), E.NOT_IN_HAND, 2)
        assert verdict.steps is not None and verdict.steps[-1].event == 1

    def test_no_steps_without_asking(self) -> None:
        assert verify_document(log(SPEED, opening(), [])).steps is None


def test_every_error_code_has_a_test_class() -> None:
    names = {name for name, value in globals().items() if isinstance(value, type) and name.startswith("Test")}
    for code in ErrorCode:
        if code is not ErrorCode.OK:
            assert "Test" + code.value.title().replace("_", "") in names, code


def test_json_round_trip_through_verify_bytes() -> None:
    document = log(SHORT, short_win(), short_game())
    verdict = verify_bytes(json.dumps(document).encode(), steps=True)
    assert (verdict.code, verdict.winner) == (E.OK, ALICE)
    assert verdict.steps is not None and len(verdict.steps) == 7


class TestPlaysBySeat:
    """`Verdict.plays_by_seat`: when each card reached a centre pile, per seat."""

    def test_a_collision_takes_no_card_to_the_centre(self) -> None:
        document = next(
            document
            for document in (simulate("speed", seed=seed) for seed in range(200))
            if any(event["type"] == "collision" for event in document["events"])
        )
        verdict = verify(document)
        assert verdict.plays_by_seat is not None
        for seat, times in enumerate(verdict.plays_by_seat):
            assert list(times) == [e["t"] for e in document["events"] if e["type"] == "play" and e["player"] == seat]
        # A collision adds nothing: the same log without its collisions has the same plays.
        document["events"] = [event for event in document["events"] if event["type"] != "collision"]
        assert verify(document).plays_by_seat == verdict.plays_by_seat

    def test_an_invalid_log_carries_none(self) -> None:
        verdict = verify(log(SPEED, opening(), [play(1000, ALICE, "9C", 0)]))
        assert verdict.code is E.RESULT_MISMATCH
        assert (verdict.plays_by_seat, verdict.cards_played_by(5000)) == (None, None)

    def test_a_run_counts_each_card(self) -> None:
        deck = deal(
            SHORT_JOKER_RUNS,
            hands=[["9C", "10C", "JC", "QC", "KC", "AC"], ["2D", "3D", "4D", "5D", "6D", "7H"]],
            starters=["8S", "8H"],
        )
        events = [run(1000, ALICE, ["9C", "10C", "JC"], 0), run(2000, ALICE, ["QC", "KC", "AC"], 0), speed(2500, ALICE)]
        verdict = verify(log(SHORT_JOKER_RUNS, deck, events))
        assert verdict.valid, verdict.message
        assert verdict.plays_by_seat == ((1000, 1000, 1000, 2000, 2000, 2000), ())
        assert verdict.cards_played_by(1500) == (3, 0)
        assert verdict.to_dict()["plays_by_seat"] == [[1000, 1000, 1000, 2000, 2000, 2000], []]
