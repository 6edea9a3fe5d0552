"""The events of a speed-log/1 game as typed values, and the one parser that makes them.

An event is a small immutable value, as a move is in python-chess: `Play`,
`Collision`, `Stall`, `Reshuffle`, `SpeedCall` (spec section 5) and the
extension's `Move` (Spit's stock piles). Cards are
`Card` numbers (see `cards.py`), read once from the log's strings. The parser
checks an event's format only: a value of the wrong JSON type, an index out of
range, a badly spelled card, an unknown `type` are `bad_format`, raised as a
`LogError` that names the event. Whether the move is legal is the judge's
question (`judge.py`), asked of the typed event.

The values are named tuples because a game has thousands of them and a tuple
is the cheapest immutable object Python builds; each compares equal only to an
event of its own type, never to a plain tuple.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence, Sized
from typing import Any, NamedTuple

from .cards import CARD_ID, Card, card_names
from .errors import ErrorCode, LogError
from .rulesets import Ruleset

EVENT_TYPES = ("play", "collision", "stall", "reshuffle", "speed")
#: A game with a tableau (Spit) knows one more.
TABLEAU_EVENT_TYPES = (*EVENT_TYPES, "move")


class Play(NamedTuple):
    """`seat` puts `cards` on centre pile `pile`, in order (one card, or a run).

    From their hand; in a tableau game (`source` not None) the one card is the
    face-up top of their stock pile `source` (the log's `from`).
    """

    t: int
    seat: int
    pile: int
    cards: tuple[Card, ...]
    source: int | None = None

    def __str__(self) -> str:
        where = "" if self.source is None else f" from stock pile {self.source}"
        return f"play {card_names(self.cards)} by seat {self.seat}{where} on pile {self.pile} at {self.t} ms"


class Collision(NamedTuple):
    """`seat` reached pile `pile` with `card` at the moment of the play before, and took it back."""

    t: int
    seat: int
    pile: int
    card: Card

    def __str__(self) -> str:
        return f"collision of seat {self.seat} with {card_names((self.card,))} on pile {self.pile} at {self.t} ms"


class Stall(NamedTuple):
    """Everyone is stuck: fresh cards are flipped.

    `piles` is None in a `"stacks"` or `"spit_cards"` game; with `"draw_piles"`,
    the centre pile each draw pile (a seat's, or a team's) flips onto (None for
    an empty draw pile).
    """

    t: int
    piles: tuple[int | None, ...] | None

    def __str__(self) -> str:
        return f"stall at {self.t} ms"


class Reshuffle(NamedTuple):
    """The centre piles are gathered and shuffled into `order`, first card first.

    In a `"spit_cards"` game `seat` reshuffles their own spit pile, but its top,
    into their spit cards.
    """

    t: int
    order: tuple[Card, ...]
    seat: int | None = None

    def __str__(self) -> str:
        whose = "" if self.seat is None else f" by seat {self.seat}"
        return f"reshuffle of {len(self.order)} cards{whose} at {self.t} ms"


class Move(NamedTuple):
    """Tableau game: `seat` moves `card`, the top of stock pile `source`, into the empty position `target`."""

    t: int
    seat: int
    card: Card
    source: int
    target: int

    def __str__(self) -> str:
        return (
            f"move of {card_names((self.card,))} by seat {self.seat} from stock pile {self.source} "
            f"to {self.target} at {self.t} ms"
        )


class SpeedCall(NamedTuple):
    """`seat` calls "Speed!"."""

    t: int
    seat: int

    def __str__(self) -> str:
        return f"speed called by seat {self.seat} at {self.t} ms"


def _same_event(self: tuple[Any, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _other_event(self: tuple[Any, ...], other: object) -> bool:
    return not _same_event(self, other)


# A named tuple compares as a plain tuple: a stall at t=5 would equal (5, None) and a
# collision the play with the same numbers. An event equals only an event of its own type.
for _kind in (Play, Collision, Stall, Reshuffle, SpeedCall, Move):
    setattr(_kind, "__eq__", _same_event)  # noqa: B010 - a method assignment mypy refuses on a NamedTuple
    setattr(_kind, "__ne__", _other_event)  # noqa: B010

Event = Play | Collision | Stall | Reshuffle | SpeedCall | Move

#: Reads one raw event (the JSON value) at an index into its typed value; raises `LogError`.
EventParser = Callable[[object, int], Event]


def event_error(index: int, message: str, code: ErrorCode = ErrorCode.BAD_FORMAT) -> LogError:
    """The error of event `index`: its message starts with "Event N:"."""
    return LogError(code, f"Event {index}: {message}", index)


def who(players: Sequence[str], seat: int) -> str:
    """A seat as messages name it: `seat 0 (alice)`."""
    if 0 <= seat < len(players):
        return f"seat {seat} ({players[seat]})"
    return f"seat {seat}"


def card_problem(cards: Sequence[Any], where: str) -> str | None:
    """What is wrong with a list that must hold card strings only, or None when nothing is."""
    try:
        if set(cards) <= CARD_ID.keys():
            return None
    except TypeError:  # an unhashable value (list, object) is certainly not a card
        pass
    for card in cards:
        if not (type(card) is str and card in CARD_ID):
            return (
                f"{where} holds {json.dumps(card)}, which is not a card (rank A 2-10 J Q K then suit S H D C, or JK)."
            )
    return None  # pragma: no cover - set() above failed only because of a non-card


def _bad_seat(index: int, seat: object, seats: int) -> LogError:
    return event_error(index, f"`player` must be a seat from 0 to {seats - 1}, not {seat!r}.")


def _bad_pile(index: int, pile: object, piles: int) -> LogError:
    return event_error(index, f"`pile` must be a centre pile from 0 to {piles - 1}, not {pile!r}.")


def _bad_card(index: int, event: dict[str, Any]) -> LogError:
    if "card" not in event:
        if event.get("type") == "play":
            return event_error(index, "A play needs `card` (or `cards` for a run).")
        return event_error(index, "`card` is missing.")
    return event_error(index, f"`card` is {json.dumps(event['card'])}, which is not a card.")


def _seat_and_pile(event: dict[str, Any], index: int, ruleset: Ruleset) -> tuple[int, int]:
    seat = event.get("player")
    if type(seat) is not int or not 0 <= seat < ruleset.players:
        raise _bad_seat(index, seat, ruleset.players)
    pile = event.get("pile")
    if type(pile) is not int or not 0 <= pile < ruleset.center_piles:
        raise _bad_pile(index, pile, ruleset.center_piles)
    return seat, pile


def _collision(event: dict[str, Any], index: int, t: int, ruleset: Ruleset) -> Collision:
    seat, pile = _seat_and_pile(event, index, ruleset)
    name = event.get("card")
    card = CARD_ID.get(name) if type(name) is str else None
    if card is None:
        raise _bad_card(index, event)
    return Collision(t, seat, pile, card)


def _run(event: dict[str, Any], index: int, t: int, ruleset: Ruleset) -> Play:
    seat, pile = _seat_and_pile(event, index, ruleset)
    if "card" in event:
        raise event_error(index, "A play has either `card` or `cards`, not both.")
    if not ruleset.multi_card:
        raise event_error(index, "This ruleset has no runs (multi_card is off): play one `card`.")
    cards = event["cards"]
    if type(cards) is not list or not cards:
        raise event_error(index, "`cards` must be a non-empty list of cards.")
    problem = card_problem(cards, "`cards`")
    if problem is not None:
        raise event_error(index, problem)
    return Play(t, seat, pile, tuple(CARD_ID[name] for name in cards))


def _stall(
    event: dict[str, Any], index: int, t: int, ruleset: Ruleset, *, players: Sequence[str], draws: Sequence[Sized]
) -> Stall:
    if not ruleset.stalls_from_draw_piles:
        return Stall(t, None)  # a `piles` key is unknown here, so ignored
    targets = event.get("piles")
    piles = ruleset.center_piles
    teams = ruleset.teams
    if type(targets) is not list or len(targets) != len(draws):
        per = f"team ({len(teams)})" if teams else f"seat ({ruleset.players})"
        raise event_error(index, f"A draw-pile stall needs `piles`: one entry per {per}, not {targets!r}.")
    for side, pile in enumerate(targets):
        owner = (
            f"team {side} ({', '.join(who(players, seat) for seat in teams[side])})" if teams else who(players, side)
        )
        if len(draws[side]):
            if type(pile) is not int or not 0 <= pile < piles:
                raise event_error(
                    index,
                    f"`piles[{side}]` must name the centre pile (0 to {piles - 1}) that {owner} flips onto, not {pile!r}.",
                )
        elif pile is not None:
            raise event_error(index, f"`piles[{side}]` must be null: {owner} has no draw pile left to flip from.")
    return Stall(t, tuple(targets))


def _reshuffle(event: dict[str, Any], index: int, t: int, ruleset: Ruleset) -> Reshuffle:
    if ruleset.stalls_from_draw_piles:
        raise event_error(index, 'A game with stall_source "draw_piles" has no reshuffle.')
    seat = None
    if ruleset.tableau:  # a Spit reshuffle belongs to one seat
        seat = event.get("player")
        if type(seat) is not int or not 0 <= seat < ruleset.players:
            raise _bad_seat(index, seat, ruleset.players)
    order = event.get("order")
    if type(order) is not list:
        raise event_error(index, "`order` must be the list of reshuffled cards, first card first.")
    problem = card_problem(order, "`order`")
    if problem is not None:
        raise event_error(index, problem)
    return Reshuffle(t, tuple(CARD_ID[name] for name in order), seat)


def _stock_index(event: dict[str, Any], index: int, key: str, ruleset: Ruleset) -> int:
    value = event.get(key)
    if type(value) is not int or not 0 <= value < len(ruleset.tableau):
        raise event_error(index, f"`{key}` must be a stock pile from 0 to {len(ruleset.tableau) - 1}, not {value!r}.")
    return value


def _move(event: dict[str, Any], index: int, t: int, ruleset: Ruleset) -> Move:
    seat = event.get("player")
    if type(seat) is not int or not 0 <= seat < ruleset.players:
        raise _bad_seat(index, seat, ruleset.players)
    name = event.get("card")
    card = CARD_ID.get(name) if type(name) is str else None
    if card is None:
        raise _bad_card(index, event)
    return Move(t, seat, card, _stock_index(event, index, "from", ruleset), _stock_index(event, index, "to", ruleset))


def event_parser(ruleset: Ruleset, players: Sequence[str], draws: Sequence[Sized]) -> EventParser:
    """The parser of one game's events: every format check of spec section 5, in the spec's order.

    `draws` are the game's draw piles as the replay stands when an event is
    read: a draw-pile stall must name a pile for each draw pile that has
    cards and null for each empty one, a format rule that reads the table.
    """
    seats = ruleset.players
    piles = ruleset.center_piles
    tableau = bool(ruleset.tableau)
    known = TABLEAU_EVENT_TYPES if tableau else EVENT_TYPES
    card_id = CARD_ID.get
    new = tuple.__new__  # builds an event without the named tuple's own `__new__`, a Python call

    def parse(event: object, index: int) -> Event:
        if type(event) is not dict:
            raise event_error(index, "The event must be a JSON object.")
        t = event.get("t")
        if type(t) is not int:
            raise event_error(index, f"`t` must be whole milliseconds, not {t!r}.")
        kind = event.get("type")
        if kind == "play":
            if "cards" in event:
                return _run(event, index, t, ruleset)
            # Most events are one-card plays: `_seat_and_pile` and the card's check, inlined.
            seat = event.get("player")
            if type(seat) is not int or not 0 <= seat < seats:
                raise _bad_seat(index, seat, seats)
            pile = event.get("pile")
            if type(pile) is not int or not 0 <= pile < piles:
                raise _bad_pile(index, pile, piles)
            name = event.get("card")
            card = card_id(name) if type(name) is str else None
            if card is None:
                raise _bad_card(index, event)
            # A tableau play names the stock pile its card comes from.
            source = _stock_index(event, index, "from", ruleset) if tableau else None
            return new(Play, (t, seat, pile, (card,), source))
        if kind == "collision":
            return _collision(event, index, t, ruleset)
        if kind == "stall":
            return _stall(event, index, t, ruleset, players=players, draws=draws)
        if kind == "reshuffle":
            return _reshuffle(event, index, t, ruleset)
        if kind == "speed":
            caller = event.get("player")
            if type(caller) is not int or not 0 <= caller < seats:
                raise _bad_seat(index, caller, seats)
            return new(SpeedCall, (t, caller))
        if kind == "move" and tableau:
            return _move(event, index, t, ruleset)
        raise event_error(index, f"Unknown event type {kind!r}; expected one of {', '.join(known)}.")

    return parse


class PassedPlays:
    """The plays of a verified game, read again by the parser the first time they are asked for.

    Only a timed round's score needs them, so verification keeps the events (a
    reference) rather than every play. The events were checked: the parser reads
    the plays among them as it read them the first time.
    """

    __slots__ = ("_events", "_players", "_read", "_ruleset")

    def __init__(self, ruleset: Ruleset, players: Sequence[str], events: Sequence[Any]) -> None:
        self._ruleset = ruleset
        self._players = players
        self._events = events
        self._read: tuple[Play, ...] | None = None

    def plays(self) -> tuple[Play, ...]:
        if self._read is None:
            parse = event_parser(self._ruleset, self._players, ())  # a play reads no draw pile
            plays = []
            for index, raw in enumerate(self._events):
                if raw["type"] == "play":
                    play = parse(raw, index)
                    assert type(play) is Play
                    plays.append(play)
            self._read = tuple(plays)
        return self._read
