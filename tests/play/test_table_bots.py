"""The client bots' choice: only plays that fit what the table shows, as the simulator's bots choose."""

from __future__ import annotations

import itertools
import random

import pytest

from benchmarks.table_bots import HUMAN_REACTION_MS, TableBot, choose_play
from speedrules import PRESETS
from speedrules.simulate import Bot

SPEED = PRESETS["speed"].to_json()
RUNS = PRESETS["runs-at-once"].to_json()


def test_chooses_a_card_that_fits_a_pile() -> None:
    rng = random.Random(1)
    for _ in range(50):
        choice = choose_play(["9C", "4H", "QS"], ["8H", "2D"], SPEED, Bot(300, 0.5), rng)
        assert choice is not None
        cards, pile = choice
        assert (cards, pile) in ((["9C"], 0),)


def test_no_choice_when_nothing_fits_or_a_pile_is_empty() -> None:
    assert choose_play(["5C", "5H"], ["9H", None], SPEED, Bot(300, 0.5), random.Random(1)) is None


def test_a_run_only_where_runs_are_allowed_and_each_card_fits_the_one_before() -> None:
    rng = random.Random(3)
    runs = [choose_play(["9C", "10H", "JS", "QD"], ["8H", "2D"], RUNS, Bot(300, 0.99), rng) for _ in range(30)]
    assert any(len(cards) > 1 for cards, _ in runs if cards)
    for choice in runs:
        assert choice is not None
        cards, pile = choice
        assert pile == 0
        assert cards[0] == "9C"
        ranks = ["8", *(card[:-1] for card in cards)]
        order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        for below, above in itertools.pairwise(ranks):
            assert (order.index(above) - order.index(below)) % 13 in (1, 12)
    singles = [choose_play(["9C", "10H", "JS"], ["8H", "2D"], SPEED, Bot(300, 0.99), rng) for _ in range(10)]
    assert all(choice is not None and len(choice[0]) == 1 for choice in singles)


def test_never_a_joker_as_the_sides_last_card() -> None:
    jokers = PRESETS["jokers-wild"].to_json()
    rng = random.Random(1)
    assert choose_play(["JK"], ["8H", "2D"], jokers, Bot(300, 0.5), rng, draw_count=0) is None
    assert choose_play(["JK"], ["8H", "2D"], jokers, Bot(300, 0.5), rng, draw_count=3) is not None
    assert choose_play(["JK", "9C"], ["8H", "2D"], jokers, Bot(300, 0.5), rng) is not None


def test_the_pace_is_sim_or_human() -> None:
    with pytest.raises(ValueError, match="pace"):
        TableBot(url="ws://x", token="t", bot=Bot(300, 0.5), rng=random.Random(1), fixed_reaction_ms=None, pace="slow")
    human = TableBot(
        url="ws://x", token="t", bot=Bot(300, 0.5), rng=random.Random(1), fixed_reaction_ms=None, pace="human"
    )
    low, high, _ = HUMAN_REACTION_MS
    reactions = [human._reaction_ms() for _ in range(2000)]
    assert low <= min(reactions) and max(reactions) <= high
    assert 450 < sum(reactions) / len(reactions) < 550  # about two reaches a second
