"""Cards of a Speed pack and the one rule that reads them: what fits on what.

A card is the string the log uses (`"10H"`, `"QS"`, `"JK"`). Suits only make
the cards of a pack distinct; the rules read ranks alone, so the engine maps
each card string to a rank once, through `RANK_OF`, and compares integers.
"""

from __future__ import annotations

from functools import cache

JOKER = "JK"
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

#: The joker's rank. Ordinary ranks are 1 (ace) to 13 (king).
JOKER_RANK = 0
#: The rank an empty centre pile shows: nothing fits on it. As a list index it
#: is the last column of a `fit_table` row, which is all False.
EMPTY_PILE = -1

FitTable = tuple[tuple[bool, ...], ...]

#: Every well-formed card string and its rank; a string not in here is not a card.
RANK_OF: dict[str, int] = {rank + suit: index + 1 for index, rank in enumerate(RANKS) for suit in SUITS}
RANK_OF[JOKER] = JOKER_RANK

#: The 52 cards of one standard pack, in a fixed order.
STANDARD_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)


def build_pack(*, decks: int, jokers: int) -> list[str]:
    """The cards of a pack of `decks` standard packs and `jokers` jokers."""
    return list(STANDARD_DECK) * decks + [JOKER] * jokers


def rank_fits(card_rank: int, top_rank: int, *, same_rank: bool, joker_on_joker: bool) -> bool:
    """Whether a card of `card_rank` may go on a pile showing `top_rank`.

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
    """`table[card_rank][top_rank]`: `rank_fits` precomputed, since the verifier asks it for every play.

    Each row has 15 columns: ranks 0 (joker) to 13, then a False column that
    `EMPTY_PILE` (-1) indexes, so an empty pile needs no special case.
    """
    return tuple(
        (*(rank_fits(card, top, same_rank=same_rank, joker_on_joker=joker_on_joker) for top in range(14)), False)
        for card in range(14)
    )


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
