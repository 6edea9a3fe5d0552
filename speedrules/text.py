"""Words for cards, times and events, as a replay viewer or an error message shows them."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_NAMES, JOKER_NAME, Card
from .events import Collision, Event, Move, Play, Reshuffle, Stall

_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(card: str | None) -> str:
    """`"QH"` -> `"Q♥"`, the joker stays `"JK"`."""
    if card is None:
        return "nothing"
    if card == JOKER_NAME:
        return "JK"
    return card[:-1] + _SUIT_SYMBOLS.get(card[-1], card[-1])


#: `CARD_TEXT[card]`: `card_text` of every card, and "nothing" for `EMPTY_PILE` (index -1).
CARD_TEXT: tuple[str, ...] = (*(card_text(name) if name else "" for name in CARD_NAMES), "nothing")


def clock(t: int) -> str:
    """Milliseconds since the starters were turned, as `m:ss.s` (`4400` -> `0:04.4`)."""
    minutes, millis = divmod(max(t, 0), 60_000)
    return f"{minutes}:{millis / 1000:04.1f}"


def _name(players: Sequence[str], seat: int) -> str:
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def describe_event(event: Event, players: Sequence[str], tops: Sequence[Card]) -> str:
    """The event in words, read against the centre piles' tops *before* it is applied."""
    at = clock(event.t)
    if isinstance(event, Play):
        under = CARD_TEXT[tops[event.pile]]  # EMPTY_PILE (-1) reads "nothing"
        shown = " ".join(CARD_TEXT[card] for card in event.cards)
        # Piles in words count from 1, as the table and the replay show them; the log's numbers count from 0.
        where = "" if event.source is None else f" from stock pile {event.source + 1}"
        return f"{_name(players, event.seat)} plays {shown}{where} on {under} (pile {event.pile + 1}), {at}"
    if isinstance(event, Collision):
        who = _name(players, event.seat)
        return f"{who} collides with {CARD_TEXT[event.card]} on pile {event.pile + 1} and takes it back, {at}"
    if isinstance(event, Stall):
        return f"Everyone is stuck: fresh cards are flipped onto the centre, {at}"
    if isinstance(event, Reshuffle):
        if event.seat is not None:
            return (
                f"{_name(players, event.seat)} shuffles their spit pile, all but its top card, into new spit "
                f"cards, {at}"
            )
        return f"The centre piles are gathered, shuffled and split into the replacement stacks, {at}"
    if isinstance(event, Move):
        return (
            f"{_name(players, event.seat)} moves {CARD_TEXT[event.card]} from stock pile {event.source + 1} into the "
            f"empty position {event.target + 1}, {at}"
        )
    return f"{_name(players, event.seat)} calls Speed!, {at}"
