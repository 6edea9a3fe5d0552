"""The bots' one brain: its choices, its levels' games, and each level's strength (deterministic by seed)."""

from __future__ import annotations

import itertools
import random

import pytest

from benchmarks.bot_strength import SCRIPT, pairing_play
from speedrules import PRESETS, simulate, verify_document
from speedrules.bots import LEVELS, Bot, aim_holds, choose_flip, choose_play
from speedrules.cards import CARD_ID, JOKER, fit_table_of

FITS = fit_table_of(False, False)
EXPERT = LEVELS["expert"].bot
TABLE_RULESETS = [
    name for name, rules in PRESETS.items() if rules.players >= 2 and not rules.teams and not rules.tableau
]


def _cards(*names: str) -> list[int]:
    return [CARD_ID[name] for name in names]


def test_a_weighing_bot_plays_the_longest_run_where_runs_are_allowed() -> None:
    hand, tops = _cards("9C", "10H", "JS", "4D", "KD"), _cards("8H", "2D")
    for seed in range(20):
        aim = choose_play(EXPERT, hand, tops, left=20, fits_on=FITS, multi_card=True, rng=random.Random(seed))
        assert aim == (tuple(_cards("9C", "10H", "JS")), 0)
    single = choose_play(EXPERT, hand, tops, left=20, fits_on=FITS, multi_card=False, rng=random.Random(1))
    assert single is not None and len(single[0]) == 1


def test_a_weighing_bot_keeps_its_joker_while_another_card_fits() -> None:
    hand, tops = _cards("JK", "9C", "4H"), _cards("8H", "2D")
    for seed in range(20):
        aim = choose_play(EXPERT, hand, tops, left=10, fits_on=FITS, multi_card=False, rng=random.Random(seed))
        assert aim == ((CARD_ID["9C"],), 0)
    only_joker = choose_play(
        EXPERT, _cards("JK", "4H"), tops, left=10, fits_on=FITS, multi_card=False, rng=random.Random(1)
    )
    assert only_joker is not None and only_joker[0] == (JOKER,)
    last = choose_play(EXPERT, _cards("JK"), tops, left=1, fits_on=FITS, multi_card=False, rng=random.Random(1))
    assert last is None  # a joker is never a side's last card


def test_every_level_plays_runs_or_single_cards_that_fit() -> None:
    rng = random.Random(5)
    for level in LEVELS.values():
        for _ in range(50):
            hand = rng.sample(range(4, 56), 5)
            tops = rng.sample([card for card in range(4, 56) if card not in hand], 2)
            aim = choose_play(level.bot, hand, tops, left=9, fits_on=FITS, multi_card=True, rng=rng)
            if aim is None:
                assert not any(FITS[card][top] for card in hand for top in tops)
                continue
            cards, pile = aim
            assert FITS[cards[0]][tops[pile]]
            assert all(FITS[above][below] for below, above in itertools.pairwise(cards))
            assert aim_holds(aim, hand, tops, left=9, fits_on=FITS)


def test_an_aim_stops_holding_once_its_pile_is_covered_or_its_card_gone() -> None:
    aim = ((CARD_ID["9C"],), 0)
    assert aim_holds(aim, _cards("9C", "2H"), _cards("8H", "2D"), left=5, fits_on=FITS)
    assert not aim_holds(aim, _cards("9C", "2H"), _cards("QH", "2D"), left=5, fits_on=FITS)
    assert not aim_holds(aim, _cards("2H"), _cards("8H", "2D"), left=5, fits_on=FITS)


def test_a_weighing_bot_flips_onto_a_pile_nobody_else_flips_onto() -> None:
    hand, tops = _cards("9C", "4H", "QS", "2D"), _cards("8H", "KD", "5C", "6S")
    for seed in range(20):
        pile = choose_flip(EXPERT, hand, tops, taken=[0, 2], fits_on=FITS, rng=random.Random(seed))
        assert pile in (1, 3)
    # Of the free piles it covers the top its hand is furthest from: a 5 would bridge 4H to 6S, nothing to KD.
    for seed in range(20):
        assert choose_flip(EXPERT, _cards("4H"), tops, taken=[0, 2], fits_on=FITS, rng=random.Random(seed)) == 1


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_valid_games_of_every_ruleset(name: str, level: str) -> None:
    seats = PRESETS[name].players
    for seed in range(3):
        bots = [LEVELS[level].bot, *([Bot(600, 0.5)] * (seats - 1))]
        document = simulate(name, seed=seed, bots=bots)
        assert verify_document(document).valid
        assert document == simulate(name, seed=seed, bots=bots)  # the same seed, the same game


def test_the_strongest_level_beats_a_script_playing_two_cards_a_second() -> None:
    pairing = pairing_play("expert", SCRIPT, rulesets=TABLE_RULESETS, games=10, seed=11)
    assert pairing.one_won > pairing.games / 2, pairing


def test_a_higher_level_beats_a_lower_one_more_often_than_not() -> None:
    for lower, higher in itertools.pairwise(LEVELS):
        pairing = pairing_play(
            higher, lower, rulesets=["speed", "runs-at-once", "california", "three-way"], games=10, seed=3
        )
        assert pairing.one_won > pairing.other_won, pairing
