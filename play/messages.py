"""Reading a client's socket message, before anything touches the database (speed-table/1 section 2).

Pure: the frame's text and the table's ruleset in, a checked `Intent` or a
`bad_message` refusal out. Every field is checked for type, length and NUL
here, so no query ever sees a value it could choke on, and a spectator's
intent is refused by the caller without a query at all. orjson already
refuses lone surrogates and invalid UTF-8.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from speedrules.cards import CARD_ID

#: A `ref`'s longest form (speed-table/1 section 2).
MAX_REF = 64
#: The message types a seat may send; `ping` and `who` are answered by the connection itself.
INTENTS = ("ready", "play", "move", "flip", "abort", "resign", "claim")
#: Questions anyone connected may ask (docs/table-protocol.md): they change nothing and take no lock.
QUESTIONS = ("ping", "who")
_KNOWN = ", ".join((*INTENTS, *QUESTIONS))


@dataclass(frozen=True, slots=True)
class Intent:
    kind: str
    ref: str | None
    fields: dict[str, Any] = field(default_factory=dict)


class BadMessage(Exception):
    """A message that cannot be read: refused with `bad_message`, naming its `ref` when that could be read."""

    def __init__(self, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.ref = ref


def read_message(raw: str | bytes | None, *, ruleset: dict[str, Any], max_bytes: int) -> Intent:
    """The intent of one frame, checked for form against the table's ruleset; `BadMessage` when unreadable."""
    if raw is None or len(raw) > max_bytes:
        raise BadMessage(f"A message is at most {max_bytes} bytes.")
    try:
        message = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise BadMessage("A message is a JSON object in UTF-8.") from None
    if not isinstance(message, dict):
        raise BadMessage("A message is a JSON object.")
    ref = _ref(message.get("ref"))
    kind = message.get("type")
    try:
        if kind in QUESTIONS:
            return Intent(kind, ref)
        if type(kind) is not str or kind not in INTENTS:
            raise BadMessage(f"Unknown message type {_shown(kind)}; expected {_KNOWN}.")
        piles = int(ruleset.get("center_piles", 2))
        stock_piles = len(ruleset.get("tableau") or ())
        if kind == "flip":
            return Intent(kind, ref, {"pile": _pile(message.get("pile"), piles)})
        if kind == "move":
            return Intent(kind, ref, _move_fields(message, stock_piles))
        if kind != "play":
            return Intent(kind, ref)
        fields: dict[str, Any] = {"pile": _pile(message.get("pile"), piles)}
        if stock_piles:  # a tableau game (docs/table-protocol.md): the stock pile the card is the top of
            fields["from"] = _stock(message.get("from"), stock_piles, "from")
        elif "from" in message:
            raise BadMessage("`from` names a stock pile, and only a tableau game (Spit) has stock piles.")
        if "cards" in message:
            cards = message["cards"]
            if not ruleset.get("multi_card") or type(cards) is not list or not 1 <= len(cards) <= 20:
                raise BadMessage("`cards` is a list of cards, and only with a multi_card ruleset.")
            fields["cards"] = [_card(card) for card in cards]
        else:
            fields["card"] = _card(message.get("card"))
        return Intent(kind, ref, fields)
    except BadMessage as bad:
        raise BadMessage(bad.message, ref) from None


def _move_fields(message: dict[str, Any], stock_piles: int) -> dict[str, Any]:
    """A `move` (docs/table-protocol.md): a stock pile's face-up top into an empty stock position."""
    if not stock_piles:
        raise BadMessage("`move` is a tableau game's (Spit): this game has no stock piles.")
    return {
        "card": _card(message.get("card")),
        "from": _stock(message.get("from"), stock_piles, "from"),
        "to": _stock(message.get("to"), stock_piles, "to"),
    }


def _stock(value: object, piles: int, key: str) -> int:
    if type(value) is not int or not 0 <= value < piles:
        raise BadMessage(f"`{key}` must be a stock pile, 0 to {piles - 1}; it is {_shown(value)}.")
    return value


def _ref(value: object) -> str | None:
    if value is None:
        return None
    if type(value) is not str or len(value) > MAX_REF or "\x00" in value:
        raise BadMessage(f"`ref` must be a string of at most {MAX_REF} characters, without NUL.")
    return value


def _card(value: object) -> str:
    if type(value) is not str or value not in CARD_ID:
        raise BadMessage(f"{_shown(value)} is not a card (cards are written like 9C, 10H, QS, JK).")
    return value


def _pile(value: object, piles: int) -> int:
    if type(value) is not int or not 0 <= value < piles:
        raise BadMessage(f"`pile` must be a centre pile, 0 to {piles - 1}; it is {_shown(value)}.")
    return value


def _shown(value: object) -> str:
    """A value as a refusal names it: short, and without control characters."""
    text = repr(value)
    text = "".join(char if char.isprintable() else "?" for char in text)
    return text if len(text) <= 24 else text[:21] + "..."
