"""Hand-built tables the engine tests share: rulesets and deals where every card that matters is chosen.

Each deal is described in words next to it; `logbuilder.deal` fills the rest
of the pack. Seats: 0 is Alice, 1 is Ben (2 is Chloe at a three-way table).
"""

from __future__ import annotations

from speedrules import PRESETS, Ruleset

from .logbuilder import deal

ALICE, BEN, CHLOE = 0, 1, 2

SPEED = PRESETS["speed"]
DOUBLES = PRESETS["doubles"]
JOKERS_WILD = PRESETS["jokers-wild"]
RUNS = PRESETS["runs-at-once"]
THREE_WAY = PRESETS["three-way"]

#: Five cards in hand, nothing to draw, twenty in each stack: a game can be won in five plays.
SHORT = Ruleset(stack_size=20)
#: No replacement cards at all: the stacks are empty from the start, so a stuck table must reshuffle.
BARE = Ruleset(stack_size=0)
#: As BARE, with two jokers: 26 cards each (5 in hand, 21 to draw).
BARE_JOKERS = Ruleset(jokers=2, stack_size=0)
#: Six cards in hand with two jokers, nothing to draw: a lone last joker after five plays.
SHORT_JOKERS = Ruleset(jokers=2, stack_size=20, hand_size=6)
#: SHORT_JOKERS with runs.
SHORT_JOKER_RUNS = Ruleset(jokers=2, stack_size=20, hand_size=6, multi_card=True)
#: Runs with two decks: every card is in the pack twice.
TWO_DECK_RUNS = Ruleset(decks=2, multi_card=True)
#: California-style stalls from the draw piles, two piles, seven in hand and eighteen to draw.
DRAW_STALLS = Ruleset(hand_size=7, center_piles=2, stacks=0, stall_source="draw_piles")


def opening(ruleset: Ruleset = SPEED, **places: list[list[str]]) -> list[str]:
    """Pile 0 shows 8S, pile 1 shows JS.

    Alice holds 9C (fits the 8), 10C (fits the jack), 7H (fits the 8), KD
    (fits neither, but would fit a queen) and 4D. Ben holds QC (fits the
    jack), 7D (fits the 8), KC, AC and 6D. Unnamed places take the rest of the
    pack: Alice's draw pile starts AS 2S 3S.
    """
    return deal(
        ruleset,
        hands=[["9C", "10C", "7H", "KD", "4D"], ["QC", "7D", "KC", "AC", "6D"]],
        starters=["8S", "JS"],
        **places,
    )


#: The stuck table's stacks: every card is 9 to K, so no flip ever gives a 2-6 a place.
STUCK_STACKS = [["10S", "JS", "QS", "KS", "9S"], ["10H", "JH", "QH", "KH", "9H"]]


def stuck(ruleset: Ruleset = SPEED, *, alice: list[str] | None = None, ben: list[str] | None = None) -> list[str]:
    """Nobody can move, now or after any of the five stalls.

    Both starters are eights (8S, 8H); Alice holds 2C-6C and Ben 2D-6D; the
    stacks hold 9s to kings only (STUCK_STACKS). `alice`/`ben` replace a hand.
    """
    return deal(
        ruleset,
        hands=[alice or ["2C", "3C", "4C", "5C", "6C"], ben or ["2D", "3D", "4D", "5D", "6D"]],
        starters=["8S", "8H"],
        stacks=[] if ruleset.stack_size < 5 else STUCK_STACKS,
    )


def short_win() -> list[str]:
    """SHORT: Alice holds 9C 10C JC QC KC, a run up from the 8S on pile 0; Ben holds 2D-6D; pile 1 shows 8H."""
    return deal(
        SHORT,
        hands=[["9C", "10C", "JC", "QC", "KC"], ["2D", "3D", "4D", "5D", "6D"]],
        starters=["8S", "8H"],
    )


def reshuffle_table() -> list[str]:
    """BARE (no replacement cards): piles 8S and 8H.

    Alice holds 9C JC 2C 3C 4C and draws 5C then 6C; Ben holds 10D 2D 3D 4D 5D
    and draws 6D. After Alice 9C, Ben 10D and Alice JC go on pile 0, the piles
    show JC and 8H, both hands hold only 2s to 6s, and nobody can move.
    """
    return deal(
        BARE,
        hands=[["9C", "JC", "2C", "3C", "4C"], ["10D", "2D", "3D", "4D", "5D"]],
        starters=["8S", "8H"],
        draws=[["5C", "6C"], ["6D"]],
    )


def three_way() -> list[str]:
    """Three-way Speed: piles 8S, JS, 3S.

    Alice holds 9C (fits the 8); Ben 7D (fits the 8) and QD (fits the jack);
    Chloe 9H (fits the 8) and 10H (fits the jack). Everything else in the
    hands (5s, 6s, kings, an ace) fits nothing.
    """
    return deal(
        THREE_WAY,
        hands=[["9C", "5C", "6C", "KC", "AC"], ["7D", "QD", "5D", "6D", "KD"], ["9H", "10H", "5H", "6H", "KH"]],
        starters=["8S", "JS", "3S"],
    )


def draw_stall_table() -> list[str]:
    """DRAW_STALLS: a game that runs its draw piles dry without anyone getting a second move.

    Pile 0 shows 10S, pile 1 shows 8S. Alice holds 7C (fits the 8) and six
    cards from A to 4; Ben holds seven cards from A to 4. Alice's draw pile
    starts with 2S (her refill after the 7C), then 3S 4S, the kings and the
    fives: cards she only ever flips onto pile 0 in the same stall as Ben, who
    flips after her and covers them. Ben's draw pile holds only 6s to queens,
    which never fit an A-4. So after Alice's 7C nobody can move, through every
    stall, until both draw piles are empty.
    """
    return deal(
        DRAW_STALLS,
        hands=[["7C", "AC", "2C", "3C", "4C", "AD", "2D"], ["3D", "4D", "AH", "2H", "3H", "4H", "AS"]],
        starters=["10S", "8S"],
        draws=[["2S", "3S", "4S", "KS", "KH", "KD", "KC", "5S", "5H", "5D", "5C"]],
    )


#: A walk along 8-9-10-J-Q-K-A-2-3 and back on one pile, never touching 4 to 7.
LONE_JOKER_WALK = [
    *["9C", "10C", "JC", "QC", "KC", "AC", "2C", "3C"],
    *["2D", "AD", "KD", "QD", "JD", "10D", "9D", "8C"],
    *["9S", "10S", "JS", "QS", "KS", "AS", "2S", "3D"],
    "2H",
]


def lone_joker_table() -> list[str]:
    """BARE_JOKERS: Alice can play her whole pack but a joker; then the table is dead.

    Piles 8S and 8H. Alice's 26 cards are LONE_JOKER_WALK in order (each fits
    the one before, starting on the 8S) and then the joker, last in her draw
    pile. Ben holds 5S 5H 5D 5C 6S: no 4, 5, 6 or 7 ever reaches the centre,
    so nothing Ben holds can ever be played, and Alice's last card is a lone
    joker, which can never be played either.
    """
    walk = LONE_JOKER_WALK
    return deal(
        BARE_JOKERS,
        hands=[walk[:5], ["5S", "5H", "5D", "5C", "6S"]],
        starters=["8S", "8H"],
        draws=[[*walk[5:], "JK"]],
    )
