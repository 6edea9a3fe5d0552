"""Cards of a Speed pack and the one rule that reads them: what fits on what.

A log writes a card as a string (`"10H"`, `"QS"`, `"JK"`). The engine reads
each string once and works with a small integer, as python-chess works with
square numbers: `Card` is `rank * 4 + suit` for the 52 ordinary cards (ranks
1, ace, to 13, king) and 0 for the joker. Suits only make the cards of a pack
distinct; the rules read ranks alone. `CARD_ID` turns a string into a card,
`CARD_NAMES` a card back into its string.

The fit rule is `rank_fits`; everything that asks whether a card may go on a
pile (the judge's checks, "can anyone move", the deadlock test, the bots)
reads it through the table `fit_table` builds from it, so there is exactly one.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

#: A card as the engine holds it: `rank * 4 + suit`, or `JOKER`.
Card = int

JOKER_NAME = "JK"
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

#: The joker, and its rank. Ordinary ranks are 1 (ace) to 13 (king).
JOKER: Card = 0
JOKER_RANK = 0
#: What an empty centre pile shows: nothing fits on it. As a list index it is
#: the last column of a `fit_table` row, which is all False.
EMPTY_PILE: Card = -1
#: Card numbers run below this (0 for the joker, 4 to 55 for the others).
CARD_COUNT = 56

#: Every well-formed card string and its card; a string not in here is not a card.
CARD_ID: dict[str, Card] = {
    rank + suit: (r + 1) * 4 + s for r, rank in enumerate(RANKS) for s, suit in enumerate(SUITS)
}
CARD_ID[JOKER_NAME] = JOKER

#: `CARD_NAMES[card]`: the string a log writes for `card` ("" for the unused numbers 1 to 3).
CARD_NAMES: tuple[str, ...] = tuple(
    next((name for name, card in CARD_ID.items() if card == number), "") for number in range(CARD_COUNT)
)

#: The 52 cards of one standard pack, in a fixed order.
STANDARD_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

FitTable = tuple[tuple[bool, ...], ...]


def card_rank(card: Card) -> int:
    """The rank of `card`: 0 for the joker, 1 (ace) to 13 (king)."""
    return card >> 2


def card_names(cards: Iterable[Card]) -> str:
    """Cards as a log writes them, space-separated (for messages)."""
    return " ".join(CARD_NAMES[card] for card in cards)


def build_pack(*, decks: int, jokers: int) -> list[str]:
    """The cards of a pack of `decks` standard packs and `jokers` jokers."""
    return list(STANDARD_DECK) * decks + [JOKER_NAME] * jokers


def rank_fits(card_rank: int, top_rank: int, *, same_rank: bool, joker_on_joker: bool) -> bool:
    """Whether a card of `card_rank` may go on a pile showing `top_rank` (spec section 5).

    Ranks form a ring (A is next to both K and 2). A joker fits on any card and
    any card fits on a joker; a joker goes on a joker only with `joker_on_joker`.
    """
    if card_rank == JOKER_RANK:
        return top_rank != JOKER_RANK or joker_on_joker
    if top_rank == JOKER_RANK:
        return True
    step = (card_rank - top_rank) % 13
    return step in (1, 12) or (same_rank and step == 0)


@cache
def fit_table(*, same_rank: bool, joker_on_joker: bool) -> FitTable:
    """`table[card][top]`: whether `card` may go on a pile showing the card `top`.

    `rank_fits` precomputed for every pair of cards, since the verifier asks
    it for every play. Each row has a last, False column that `EMPTY_PILE`
    (-1) indexes, so an empty pile needs no special case. The unused numbers
    1 to 3 fit nothing.
    """
    real = [card for card in range(CARD_COUNT) if CARD_NAMES[card]]
    return tuple(
        (
            *(
                card in real
                and top in real
                and rank_fits(card >> 2, top >> 2, same_rank=same_rank, joker_on_joker=joker_on_joker)
                for top in range(CARD_COUNT)
            ),
            False,
        )
        for card in range(CARD_COUNT)
    )


@cache
def fit_table_of(same_rank: bool, joker_on_joker: bool) -> FitTable:
    """`fit_table`, cached on positional arguments: a cheaper look-up for every game's deal."""
    return fit_table(same_rank=same_rank, joker_on_joker=joker_on_joker)


FitSets = tuple[frozenset[Card], ...]


@cache
def fit_sets_of(same_rank: bool, joker_on_joker: bool) -> FitSets:
    """`sets[top]`: the cards that fit on a pile showing `top` (`EMPTY_PILE`, -1: none); read off `fit_table`.

    "Can this hand move?" is then one set operation per centre pile.
    """
    table = fit_table_of(same_rank, joker_on_joker)
    return (
        *(frozenset(card for card in range(CARD_COUNT) if table[card][top]) for top in range(CARD_COUNT)),
        frozenset(),
    )


@cache
def sorted_pack(decks: int, jokers: int) -> list[Card]:
    """The cards of a pack, sorted: a deck is the pack when its sorted cards are these."""
    return sorted(CARD_ID[name] for name in build_pack(decks=decks, jokers=jokers))


def fitting_ranks(top_rank: int, *, same_rank: bool) -> list[str]:
    """Rank names that fit on `top_rank`, for messages a player can act on."""
    if top_rank == JOKER_RANK:
        return ["any card"]
    below = RANKS[(top_rank - 2) % 13]
    above = RANKS[top_rank % 13]
    names = [below, above]
    if same_rank:
        names.append(RANKS[top_rank - 1])
    return names
