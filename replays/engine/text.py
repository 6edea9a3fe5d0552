"""Words for cards, times and events, as a replay viewer or an error message shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .state import GameState

_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(card: str | None) -> str:
    """`"QH"` -> `"Q♥"`, the joker stays `"JK"`."""
    if card is None:
        return "nothing"
    if card == "JK":
        return "JK"
    return card[:-1] + _SUIT_SYMBOLS.get(card[-1], card[-1])


def clock(t: int) -> str:
    """Milliseconds since the starters were turned, as `m:ss.s` (`4400` -> `0:04.4`)."""
    minutes, millis = divmod(max(t, 0), 60_000)
    return f"{minutes}:{millis / 1000:04.1f}"


def _name(players: Sequence[str], seat: int) -> str:
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def describe_event(event: dict[str, Any], players: Sequence[str], state: GameState) -> str:
    """The event in words, read against the table *before* it is applied."""
    kind = event["type"]
    at = clock(event["t"])
    if kind == "play":
        who = _name(players, event["player"])
        cards = event["cards"] if "cards" in event else [event["card"]]
        pile = event["pile"]
        under = card_text(state.piles[pile][-1] if state.piles[pile] else None)
        shown = " ".join(card_text(card) for card in cards)
        return f"{who} plays {shown} on {under} (pile {pile}), {at}"
    if kind == "collision":
        who = _name(players, event["player"])
        return f"{who} collides with {card_text(event['card'])} on pile {event['pile']} and takes it back, {at}"
    if kind == "stall":
        return f"Everyone is stuck: fresh cards are flipped onto the centre, {at}"
    if kind == "reshuffle":
        return f"The centre piles are gathered, shuffled and split into the replacement stacks, {at}"
    return f"{_name(players, event['player'])} calls Speed!, {at}"
