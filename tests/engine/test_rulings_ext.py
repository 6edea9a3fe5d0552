"""The extension (Speed Solitaire, Team Speed, Spit, Double Spit): its rules, and rulings where it leaves room.

Each ruling is listed in speedrules/README.md.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from speedrules import PRESETS, ErrorCode, LogError, ruleset_from_json, simulate, verify_document

E = ErrorCode


def first_game(name: str, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for seed in range(400):
        document = simulate(name, seed=seed)
        if wanted(document):
            return document
    raise AssertionError("no simulated game has what the test needs")


class TestRulesets:
    def test_the_presets_deal_the_draw_piles_of_the_extensions_table(self) -> None:
        sizes = {name: (PRESETS[name].draw_piles, PRESETS[name].draw_size) for name in PRESETS}
        assert sizes["solitaire"] == (1, 44)
        assert sizes["team"] == (2, 16)
        assert sizes["spit"] == (2, 10)
        assert sizes["double-spit"] == (2, 44)

    def test_a_ruleset_without_teams_or_tableau_keeps_its_json(self) -> None:
        assert list(PRESETS["speed"].to_json()) == [
            "players",
            "decks",
            "jokers",
            "hand_size",
            "center_piles",
            "stacks",
            "stack_size",
            "stall_source",
            "same_rank",
            "joker_on_joker",
            "multi_card",
        ]
        assert PRESETS["team"].to_json()["teams"] == [[0, 2], [1, 3]]
        assert PRESETS["spit"].to_json()["tableau"] == [1, 2, 3, 4, 5]
        for ruleset in PRESETS.values():
            assert ruleset_from_json(ruleset.to_json()) == ruleset

    def test_empty_teams_and_tableau_are_todays_game(self) -> None:
        assert ruleset_from_json({"teams": [], "tableau": []}) == PRESETS["speed"]

    @pytest.mark.parametrize(
        "fields",
        [{"teams": None}, {"teams": [0, 1]}, {"teams": [[0, True]]}, {"tableau": [1.0]}, {"tableau": "12345"}],
    )
    def test_teams_and_tableau_of_the_wrong_json_type_are_bad_format(self, fields: dict[str, Any]) -> None:
        with pytest.raises(LogError) as caught:
            ruleset_from_json(fields)
        assert caught.value.code is E.BAD_FORMAT

    @pytest.mark.parametrize(
        "fields",
        [
            {"players": 1},  # one player only with draw-pile stalls
            {"hand_size": 0},  # no hand only with a tableau
            {"players": 4, "teams": [[0, 1, 2], [3]]},
            {"players": 4, "teams": [[0, 1], [2, 2]]},
            {"players": 4, "teams": [[0, 1, 2, 3]]},
            {"teams": [[0, 1], [2, 3]]},  # seats 2 and 3 do not exist
            {"hand_size": 0, "tableau": [1, 2, 3, 4, 5], "stacks": 0, "stall_source": "draw_piles"},
            {"stacks": 0, "stall_source": "spit_cards"},
            {"hand_size": 0, "tableau": [1, 2, 3, 4, 5, 6, 7, 8, 9], "stacks": 0, "stall_source": "spit_cards"},
            {"hand_size": 0, "tableau": [21], "stacks": 0, "stall_source": "spit_cards"},
            {"hand_size": 0, "tableau": [5, 5, 5, 5, 5, 1], "stacks": 0, "stall_source": "spit_cards"},
        ],
    )
    def test_an_impossible_extension_ruleset_is_bad_ruleset(self, fields: dict[str, Any]) -> None:
        with pytest.raises(LogError) as caught:
            ruleset_from_json(fields)
        assert caught.value.code is E.BAD_RULESET


class TestTeamSpeed:
    def test_the_deal_counts_of_the_extensions_section_8(self) -> None:
        verdict = verify_document(simulate("team", seed=1), steps=True)
        assert verdict.steps is not None
        assert verdict.steps[0].to_counts() == {
            "hands": [4, 4, 4, 4],
            "draws": [16, 16],
            "piles": [1, 1, 1, 1],
            "stacks": [],
            "total": 52,
        }

    def test_the_winner_is_the_seat_that_called_and_winner_team_its_team(self) -> None:
        document = first_game(
            "team", lambda d: d["events"][-1].get("player") in (2, 3) and "winner_team" in d["result"]
        )
        seat = document["events"][-1]["player"]
        verdict = verify_document(document)
        assert (verdict.winner, verdict.winner_team) == (seat, document["result"]["winner_team"])
        assert verdict.winner_team == PRESETS["team"].side_of(seat)

    def test_partners_have_the_same_cards_left(self) -> None:
        verdict = verify_document(simulate("team", seed=2), steps=True)
        assert verdict.steps is not None
        for step in verdict.steps:
            left = step.cards_left
            assert left[0] == left[2] and left[1] == left[3]
            assert left[0] == len(step.hands[0]) + len(step.hands[2]) + step.draws[0]

    def test_a_seat_in_a_team_games_result_is_bad_format(self) -> None:
        document = simulate("team", seed=3)
        document["result"] = {"winner": 0}
        assert (verify_document(document).code, verify_document(document).event) == (E.BAD_FORMAT, None)

    def test_the_wrong_team_is_a_result_mismatch(self) -> None:
        document = first_game("team", lambda d: "winner_team" in d["result"])
        document["result"] = {"winner_team": 1 - document["result"]["winner_team"]}
        assert verify_document(document).code is E.RESULT_MISMATCH


class TestSpit:
    def test_cards_left_counts_the_stock_and_not_the_spit_cards(self) -> None:
        verdict = verify_document(simulate("spit", seed=4), steps=True)
        assert verdict.steps is not None
        dealt = verdict.steps[0]
        assert dealt.cards_left == (15, 15)
        assert dealt.to_dict()["stock_tops"] == [[top for top in tops] for tops in dealt.stock_tops]
        assert all(len(tops) == 5 for tops in dealt.stock_tops)
        assert verdict.cards_left is not None and verdict.winner is not None
        assert verdict.cards_left[verdict.winner] == 0

    def test_a_move_into_a_filled_position_is_no_fit(self) -> None:
        document = first_game("spit", lambda d: any(e["type"] == "move" for e in d["events"]))
        index = next(i for i, e in enumerate(document["events"]) if e["type"] == "move")
        tampered = copy.deepcopy(document)
        move = tampered["events"][index]
        move["to"] = move["from"]  # `from` equal to `to` is `no_fit`
        verdict = verify_document(tampered)
        assert (verdict.code, verdict.event) == (E.NO_FIT, index)

    def test_a_play_without_from_is_bad_format(self) -> None:
        document = simulate("spit", seed=5)
        index = next(i for i, e in enumerate(document["events"]) if e["type"] == "play")
        del document["events"][index]["from"]
        verdict = verify_document(document)
        assert (verdict.code, verdict.event) == (E.BAD_FORMAT, index)

    def test_a_move_outside_a_tableau_game_is_bad_format(self) -> None:
        document = simulate("speed", seed=5)
        document["events"].insert(0, {"t": 0, "type": "move", "player": 0, "card": "AS", "from": 0, "to": 1})
        verdict = verify_document(document)
        assert (verdict.code, verdict.event) == (E.BAD_FORMAT, 0)


class TestSolitaire:
    def test_a_stuck_game_is_scored_by_its_cards_left(self) -> None:
        document = first_game("solitaire", lambda d: "deadlock" in d["result"])
        left = document["result"]["cards_left"]
        assert verify_document(document).cards_left == (left,)
        document["result"]["cards_left"] = left + 1
        assert verify_document(document).code is E.RESULT_MISMATCH
        del document["result"]["cards_left"]
        assert verify_document(document).code is E.BAD_FORMAT
