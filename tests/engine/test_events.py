"""Typed events: the one parser, its precise errors, and the values it makes."""

from __future__ import annotations

from typing import Any

import pytest

from speedrules import PRESETS, ErrorCode, LogError, Ruleset
from speedrules.cards import CARD_ID, CARD_NAMES, EMPTY_PILE, JOKER, fit_table, rank_fits
from speedrules.events import Collision, Play, Reshuffle, SpeedCall, Stall, event_parser

SPEED = PRESETS["speed"]
CALIFORNIA = PRESETS["california"]
RUNS = PRESETS["runs-at-once"]


def parse(raw: object, ruleset: Ruleset = SPEED, *, index: int = 3, draws: tuple[int, ...] = (15, 15)) -> Any:
    piles = [[0] * count for count in draws]
    return event_parser(ruleset, ("alice", "ben", "chloe", "dev")[: ruleset.players], piles)(raw, index)


class TestParsing:
    def test_a_one_card_play(self) -> None:
        event = parse({"t": 1520, "type": "play", "player": 0, "card": "9C", "pile": 1})
        assert event == Play(1520, 0, 1, (CARD_ID["9C"],))
        assert (event.t, event.seat, event.pile, event.cards) == (1520, 0, 1, (CARD_ID["9C"],))

    def test_a_run(self) -> None:
        event = parse({"t": 5, "type": "play", "player": 1, "cards": ["3H", "4C", "5D"], "pile": 0}, RUNS)
        assert event == Play(5, 1, 0, tuple(CARD_ID[name] for name in ("3H", "4C", "5D")))

    def test_a_collision(self) -> None:
        event = parse({"t": 4410, "type": "collision", "player": 1, "card": "QH", "pile": 1})
        assert event == Collision(4410, 1, 1, CARD_ID["QH"])

    def test_a_stacks_stall_ignores_piles(self) -> None:
        assert parse({"t": 9000, "type": "stall", "piles": ["not", "read"]}) == Stall(9000, None)

    def test_a_draw_pile_stall(self) -> None:
        event = parse({"t": 9000, "type": "stall", "piles": [3, None]}, CALIFORNIA, draws=(4, 0))
        assert event == Stall(9000, (3, None))

    def test_a_reshuffle(self) -> None:
        event = parse({"t": 30200, "type": "reshuffle", "order": ["4D", "KS"]})
        assert event == Reshuffle(30200, (CARD_ID["4D"], CARD_ID["KS"]))

    def test_a_speed_call(self) -> None:
        assert parse({"t": 61400, "type": "speed", "player": 0}) == SpeedCall(61400, 0)

    def test_unknown_keys_are_ignored(self) -> None:
        event = parse({"t": 1, "type": "speed", "player": 1, "note": "fast"})
        assert event == SpeedCall(1, 1)


class TestParseErrors:
    @pytest.mark.parametrize(
        ("raw", "words"),
        [
            ([], "JSON object"),
            ({"type": "speed", "player": 0}, "`t`"),
            ({"t": 1.0, "type": "speed", "player": 0}, "`t`"),
            ({"t": 1, "type": "move"}, "Unknown event type"),
            ({"t": 1, "type": "speed", "player": 2}, "`player`"),
            ({"t": 1, "type": "speed", "player": True}, "`player`"),
            ({"t": 1, "type": "play", "player": 0, "card": "9C", "pile": 2}, "`pile`"),
            ({"t": 1, "type": "play", "player": 0, "card": "1C", "pile": 0}, "not a card"),
            ({"t": 1, "type": "play", "player": 0, "pile": 0}, "needs `card`"),
            ({"t": 1, "type": "play", "player": 0, "cards": ["9C"], "pile": 0}, "multi_card"),
            ({"t": 1, "type": "collision", "player": 0, "pile": 0}, "`card` is missing"),
            ({"t": 1, "type": "reshuffle", "order": ["9C", "9X"]}, '"9X"'),
        ],
    )
    def test_a_bad_format_names_the_event_and_the_fault(self, raw: object, words: str) -> None:
        with pytest.raises(LogError) as caught:
            parse(raw, index=7)
        assert (caught.value.code, caught.value.event) == (ErrorCode.BAD_FORMAT, 7)
        assert caught.value.message.startswith("Event 7: ")
        assert words in caught.value.message
        assert isinstance(caught.value, ValueError)

    def test_a_draw_pile_stall_must_match_the_draw_piles_left(self) -> None:
        with pytest.raises(LogError) as caught:
            parse({"t": 1, "type": "stall", "piles": [0, 1]}, CALIFORNIA, draws=(4, 0))
        assert "piles[1]` must be null" in caught.value.message
        with pytest.raises(LogError) as caught:
            parse({"t": 1, "type": "stall", "piles": [None, None]}, CALIFORNIA, draws=(4, 0))
        assert "piles[0]` must name the centre pile" in caught.value.message

    def test_a_reshuffle_in_a_draw_pile_game(self) -> None:
        with pytest.raises(LogError) as caught:
            parse({"t": 1, "type": "reshuffle", "order": []}, CALIFORNIA)
        assert caught.value.code is ErrorCode.BAD_FORMAT


class TestValues:
    def test_events_are_immutable(self) -> None:
        event = SpeedCall(1, 0)
        with pytest.raises(AttributeError):
            event.seat = 1  # type: ignore[misc]

    def test_an_event_equals_only_an_event_of_its_own_type(self) -> None:
        play, collision = Play(1, 0, 0, (4,)), Collision(1, 0, 0, 4)
        assert play != collision
        assert Stall(5, None) != (5, None)
        assert Play(1, 0, 0, (4,)) == play
        assert len({play, Play(1, 0, 0, (4,)), collision}) == 2

    def test_an_event_reads_in_words(self) -> None:
        assert str(Play(1520, 0, 1, (CARD_ID["9C"],))) == "play 9C by seat 0 on pile 1 at 1520 ms"


class TestTheFitRule:
    """Everything reads `rank_fits` through one table; the table is the rule."""

    @pytest.mark.parametrize(("same_rank", "joker_on_joker"), [(False, False), (True, False), (False, True)])
    def test_the_table_is_rank_fits_for_every_pair_of_cards(self, same_rank: bool, joker_on_joker: bool) -> None:
        table = fit_table(same_rank=same_rank, joker_on_joker=joker_on_joker)
        for card in CARD_ID.values():
            for top in CARD_ID.values():
                want = rank_fits(card >> 2, top >> 2, same_rank=same_rank, joker_on_joker=joker_on_joker)
                assert table[card][top] is want, (CARD_NAMES[card], CARD_NAMES[top])
            assert table[card][EMPTY_PILE] is False

    def test_the_ring_and_the_joker(self) -> None:
        table = fit_table(same_rank=False, joker_on_joker=False)
        fits = {(a, b): table[CARD_ID[a]][CARD_ID[b]] for a in ("KS", "AS", "2S", "7H", "JK") for b in ("AH", "JK")}
        assert fits[("KS", "AH")] and fits[("2S", "AH")] and not fits[("7H", "AH")] and not fits[("AS", "AH")]
        assert fits[("7H", "JK")] and fits[("JK", "AH")] and not fits[("JK", "JK")]
        assert CARD_NAMES[JOKER] == "JK"
