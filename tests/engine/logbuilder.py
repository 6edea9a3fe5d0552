"""Build speed-log/1 documents by hand, readably.

A test says where the cards that matter go (the hands, the top of each draw
pile, the starters, the top of each replacement stack) and `deal` fills every
other place with the rest of the pack, so the deck is always a whole pack.
Events are plain dicts made by `play`, `run`, `collision`, `stall`,
`reshuffle` and `speed`; `log` wraps a deck and events into a document.

This module is deliberately independent of the engine (it knows the spec, not
the implementation), so the tests check the engine against the spec rather
than against itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from speedrules import Ruleset, Verdict, verify_document

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PLAYER_NAMES = ("alice", "ben", "chloe", "dev")

Event = dict[str, Any]


def pack(ruleset: Ruleset) -> list[str]:
    """Every card of the ruleset's pack, in a fixed order (ace to king, suit by suit, then jokers)."""
    one_deck = [rank + suit for suit in SUITS for rank in RANKS]
    return one_deck * ruleset.decks + [JOKER] * ruleset.jokers


def draw_size(ruleset: Ruleset) -> int:
    """Spec section 3: the draw pile of each player after the deal."""
    share, leftover = divmod(
        len(pack(ruleset)) - ruleset.center_piles - ruleset.stacks * ruleset.stack_size, ruleset.players
    )
    assert leftover == 0, "not a dealable ruleset"
    return share - ruleset.hand_size


@dataclass(frozen=True)
class Deal:
    """Where every card of a deck goes (spec section 4); draw piles and stacks listed top first."""

    hands: list[list[str]]
    draws: list[list[str]]
    starters: list[str]
    stacks: list[list[str]]


def split(ruleset: Ruleset, deck: Sequence[str]) -> Deal:
    """Read a deck the way the spec deals it."""
    cards = list(deck)
    hands, draws, stacks = [], [], []
    size = draw_size(ruleset)
    for _seat in range(ruleset.players):
        hands.append(cards[: ruleset.hand_size])
        del cards[: ruleset.hand_size]
        draws.append(cards[:size])
        del cards[:size]
    starters = cards[: ruleset.center_piles]
    del cards[: ruleset.center_piles]
    for _stack in range(ruleset.stacks):
        stacks.append(cards[: ruleset.stack_size])
        del cards[: ruleset.stack_size]
    assert not cards, "the deck is longer than the pack"
    return Deal(hands, draws, starters, stacks)


def deal(
    ruleset: Ruleset,
    *,
    hands: Sequence[Sequence[str]],
    starters: Sequence[str],
    draws: Sequence[Sequence[str]] = (),
    stacks: Sequence[Sequence[str]] = (),
) -> list[str]:
    """A deck that deals exactly these cards.

    `hands` are whole hands, one per seat. `draws` and `stacks` give the top
    cards of each draw pile and replacement stack, top first (missing lists
    or cards are filled). `starters` are the centre piles' first cards. Every
    place not named is filled with the rest of the pack, in pack order.
    """
    assert len(hands) == ruleset.players and all(len(hand) == ruleset.hand_size for hand in hands)
    assert len(starters) == ruleset.center_piles
    size = draw_size(ruleset)
    rest = Counter(pack(ruleset))
    chosen = [card for group in (*hands, starters, *draws, *stacks) for card in group]
    short = Counter(chosen) - rest
    assert not short, f"these cards are not in the pack (or named too often): {sorted(short.elements())}"
    rest -= Counter(chosen)
    filler: list[str] = []
    for card in pack(ruleset):
        if rest[card] > 0:
            filler.append(card)
            rest[card] -= 1

    def filled(top: Sequence[str], length: int) -> list[str]:
        assert len(top) <= length, f"{list(top)} does not fit in a pile of {length}"
        missing = length - len(top)
        taken = filler[:missing]
        del filler[:missing]
        return [*top, *taken]

    draw_tops = list(draws) + [[]] * (ruleset.players - len(draws))
    stack_tops = list(stacks) + [[]] * (ruleset.stacks - len(stacks))
    draw_piles = [filled(top, size) for top in draw_tops]
    stack_piles = [filled(top, ruleset.stack_size) for top in stack_tops]
    deck: list[str] = []
    for hand, draw in zip(hands, draw_piles, strict=True):
        deck += [*hand, *draw]
    deck += starters
    for stack in stack_piles:
        deck += stack
    assert not filler and Counter(deck) == Counter(pack(ruleset))
    return deck


# -- events ----------------------------------------------------------------


def play(t: int, seat: int, card: str, pile: int) -> Event:
    return {"t": t, "type": "play", "player": seat, "card": card, "pile": pile}


def run(t: int, seat: int, cards: Sequence[str], pile: int) -> Event:
    """A multi_card play: `cards` go down in order."""
    return {"t": t, "type": "play", "player": seat, "cards": list(cards), "pile": pile}


def collision(t: int, seat: int, card: str, pile: int) -> Event:
    return {"t": t, "type": "collision", "player": seat, "card": card, "pile": pile}


def stall(t: int, piles: Sequence[int | None] | None = None) -> Event:
    """A stall; `piles` (one entry per seat) only for stall_source "draw_piles"."""
    event: Event = {"t": t, "type": "stall"}
    if piles is not None:
        event["piles"] = list(piles)
    return event


def reshuffle(t: int, order: Sequence[str]) -> Event:
    return {"t": t, "type": "reshuffle", "order": list(order)}


def speed(t: int, seat: int) -> Event:
    return {"t": t, "type": "speed", "player": seat}


def plays(seat: int, pile: int, cards: Sequence[str], *, start: int, gap: int = 100) -> list[Event]:
    """One-card plays of `cards` by `seat` onto `pile`, one every `gap` ms from `start`."""
    return [play(start + gap * index, seat, card, pile) for index, card in enumerate(cards)]


# -- documents -------------------------------------------------------------


def log(
    ruleset: Ruleset | dict[str, Any],
    deck: Sequence[Any],
    events: Sequence[Any],
    *,
    result: dict[str, Any] | None = None,
    players: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """A speed-log/1 document. `result` defaults to `{"winner": 0}`; `ruleset` may be a raw object."""
    rules = ruleset.to_json() if isinstance(ruleset, Ruleset) else ruleset
    if players is None:
        seats = ruleset.players if isinstance(ruleset, Ruleset) else ruleset.get("players", 2)
        players = PLAYER_NAMES[:seats]
    return {
        "format": "speed-log/1",
        "ruleset": rules,
        "players": list(players),
        "deck": list(deck),
        "events": list(events),
        "result": {"winner": 0} if result is None else result,
    }


def verify(document: object) -> Verdict:
    """The verdict, always with steps."""
    return verify_document(document, steps=True)


def card_named(message: str, card: str) -> bool:
    """Whether `message` names `card`, as the log writes it (`9C`) or as a viewer shows it (`9♣`)."""
    shown = card if card == JOKER else card[:-1] + SUIT_SYMBOLS[card[-1]]
    return card in message or shown in message
