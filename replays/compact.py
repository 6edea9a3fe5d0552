"""Replay steps in a compact form (`speed-steps/1`): integer arrays, cards as small ints, no repeated keys.

The engine's steps (`Step.to_dict()`) repeat every key and every card name at
every step; gzip takes much of that out, but not all of it. Kept because, for
a long log, this form is still much smaller gzipped than the engine's steps
gzipped, and the viewer shows its first frame sooner from it (issue 23;
`manage.py bench_replay` prints the sizes and the time). Here a log's steps are one
*legend* and one *row* per step, each row only what changed since the step
before. The same rows are stored (`ReplaySteps`) and sent to the viewer in
chunks (`chunk`), and `decode` / `decode_chunk` give back exactly the engine's
`to_dict()` of every step (the tests check that round trip).

Legend::

    {"format": "speed-steps/1", "seats": S, "piles": P, "stacks": K,
     "cards": ["9C", "QH", ...],   # card id -> the card as the log writes it
     "texts": ["alice plays 9♣ on 8♥ (pile 0)", ...]}   # the events in words

A table is a *fixed* vector of F = S + 2P + K integers,
``draws[S] + piles[P] + tops[P] + stacks[K]`` (a top is a card id, -1 for an
empty pile), plus each seat's hand. The extension's games add to the legend,
and the vector grows by what they add: ``"draws": D`` when the draw piles are
not one per seat (one per team), ``"stock": N`` stock piles per seat in a
tableau game (``stock[S*N] + stock_tops[S*N]`` follow the stacks), and
``"left": true`` when each seat's cards still to play are not hand plus draw
pile (``left[S]`` comes last). A row is::

    [t, text, kind, *move, *changes]

- ``t``: the clock in ms, absolute in a log's (or chunk's) first row, else the
  difference from the row before.
- ``text``: ``k >= 0`` is ``texts[k] + ", " + clock(t)`` (the engine ends every
  description with the clock, so that part is not sent again); ``k < 0`` is
  ``texts[-k - 1]`` as it stands.
- ``kind`` and ``move``: what the event did, read from the log: ``0`` the deal,
  ``1`` play ``seat, pile, card`` (for a run, its last card), ``2`` collision
  ``seat, pile, card`` (the card taken back), ``3`` stall, ``4`` reshuffle,
  ``5`` speed ``seat``, ``-1`` unknown.
- ``changes``: pairs ``pos, value`` for the fixed vector (``pos < F``), and
  ``F + seat, n, card * n`` for a seat's whole hand. The first row of a log
  sets everything.

The step's `event` is implied: None for the deal, then 0, 1, 2, ... (the steps
follow the events that passed, in order). `hands`, `cards_left` and `total`
are sums of what is there.

Pure Python (no Django): the API, the site and the benchmark share it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from speedrules.text import clock

FORMAT = "speed-steps/1"

DEAL, PLAY, COLLISION, STALL, RESHUFFLE, SPEED, UNKNOWN = 0, 1, 2, 3, 4, 5, -1
KIND_OF_EVENT = {"play": PLAY, "collision": COLLISION, "stall": STALL, "reshuffle": RESHUFFLE, "speed": SPEED}
#: How many integers follow each kind in a row before the changes.
MOVE_LENGTH = {DEAL: 0, PLAY: 3, COLLISION: 3, STALL: 0, RESHUFFLE: 0, SPEED: 1, UNKNOWN: 0}

Row = list[int]


@dataclass(frozen=True, slots=True)
class Move:
    """What one event did, as the viewer highlights it: who, which pile, which card."""

    kind: int
    seat: int = -1
    pile: int = -1
    card: str | None = None


@dataclass(frozen=True, slots=True)
class CompactSteps:
    legend: dict[str, Any]
    rows: list[Row]

    def __len__(self) -> int:
        return len(self.rows)


def moves_from_document(data: bytes) -> list[Move]:
    """One `Move` per event of a log document, read leniently (only events that passed are ever used)."""
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError:
        try:  # the engine accepts integers orjson refuses; so do we
            document = json.loads(data)
        except ValueError:
            return []
    events = document.get("events") if isinstance(document, dict) else None
    if not isinstance(events, list):
        return []
    return [_move(event) for event in events]


def _move(event: object) -> Move:
    if not isinstance(event, dict):
        return Move(UNKNOWN)
    kind = KIND_OF_EVENT.get(str(event.get("type")), UNKNOWN)
    seat = event.get("player")
    pile = event.get("pile")
    seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else -1
    pile = pile if isinstance(pile, int) and not isinstance(pile, bool) else -1
    if kind in (PLAY, COLLISION):
        cards = event.get("cards")
        card = cards[-1] if kind == PLAY and isinstance(cards, list) and cards else event.get("card")
        return Move(kind, seat, pile, card if isinstance(card, str) else None)
    if kind == SPEED:
        return Move(kind, seat)
    return Move(kind)


class _Cards:
    """Card names to small ids, in order of first appearance."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.ids: dict[str, int] = {}

    def id(self, name: str | None) -> int:
        if name is None:
            return -1
        found = self.ids.get(name)
        if found is None:
            found = self.ids[name] = len(self.names)
            self.names.append(name)
        return found


def encode(steps: Sequence[Mapping[str, Any]], moves: Sequence[Move] = ()) -> CompactSteps:
    """The compact form of a log's steps (`Step.to_dict()` each); `moves[i]` is event i's move.

    Raises ValueError when the steps are not one table after the deal and one
    after each event in order (the form implies each step's `event`).
    """
    cards = _Cards()
    texts: list[str] = []
    text_ids: dict[tuple[bool, str], int] = {}  # (clock cut off?, text): a verbatim text never merges with a cut one
    rows: list[Row] = []
    if not steps:
        return CompactSteps(_legend(Layout(0, 0, 0, 0), cards, texts), rows)
    layout = Layout.of_steps(steps)
    fixed_size = layout.size
    previous_fixed: list[int] | None = None
    previous_hands: list[list[int]] | None = None
    previous_t = 0
    for index, step in enumerate(steps):
        expected = None if index == 0 else index - 1
        if step["event"] != expected:
            raise ValueError(f"step {index} is of event {step['event']}, not {expected}")
        t = int(step["t"])
        description = str(step["description"])
        suffix = ", " + clock(t)
        if description.endswith(suffix):
            text = _text_id((True, description[: -len(suffix)]), texts, text_ids)
        else:
            text = -_text_id((False, description), texts, text_ids) - 1
        if index == 0:
            move = Move(DEAL)
        elif index - 1 < len(moves):
            move = moves[index - 1]
        else:
            move = Move(UNKNOWN)
        row: Row = [t if index == 0 else t - previous_t, text, move.kind]
        if move.kind in (PLAY, COLLISION):
            row += [move.seat, move.pile, cards.id(move.card)]
        elif move.kind == SPEED:
            row.append(move.seat)
        fixed = [
            *step["draws"],
            *step["piles"],
            *(cards.id(top) for top in step["pile_tops"]),
            *step["stacks"],
        ]
        if layout.stock:
            fixed += [count for seat in step["stock"] for count in seat]
            fixed += [cards.id(top) for seat in step["stock_tops"] for top in seat]
        if layout.left:
            fixed += step["cards_left"]
        if len(fixed) != fixed_size:
            raise ValueError(f"step {index} has a different table layout from the deal")
        for position, value in enumerate(fixed):
            if previous_fixed is None or previous_fixed[position] != value:
                row += [position, value]
        hands = [[cards.id(card) for card in hand] for hand in step["hand_cards"]]
        for seat, hand in enumerate(hands):
            if previous_hands is None or previous_hands[seat] != hand:
                row += [fixed_size + seat, len(hand), *hand]
        rows.append(row)
        previous_fixed, previous_hands, previous_t = fixed, hands, t
    return CompactSteps(_legend(layout, cards, texts), rows)


def _text_id(key: tuple[bool, str], texts: list[str], ids: dict[tuple[bool, str], int]) -> int:
    found = ids.get(key)
    if found is None:
        found = ids[key] = len(texts)
        texts.append(key[1])
    return found


def _legend(layout: Layout, cards: _Cards, texts: list[str]) -> dict[str, Any]:
    return {"format": FORMAT, **layout.to_json(), "cards": cards.names, "texts": texts}


@dataclass(frozen=True, slots=True)
class Layout:
    """How a table's fixed vector is laid out (see the module's docstring)."""

    seats: int
    piles: int
    stacks: int
    draws: int
    stock: int = 0  # stock piles per seat (a tableau game)
    left: bool = False  # each seat's cards to play are sent, not hand plus draw pile

    @classmethod
    def of(cls, legend: Mapping[str, Any]) -> Layout:
        seats = legend["seats"]
        return cls(
            seats,
            legend["piles"],
            legend["stacks"],
            legend.get("draws", seats),
            legend.get("stock", 0),
            bool(legend.get("left", False)),
        )

    @classmethod
    def of_steps(cls, steps: Sequence[Mapping[str, Any]]) -> Layout:
        first = steps[0]
        seats, draws = len(first["hand_cards"]), len(first["draws"])
        stock = len(first["stock"][0]) if first.get("stock") else 0
        plain = (
            draws == seats
            and not stock
            and all(
                list(step["cards_left"])
                == [len(hand) + draw for hand, draw in zip(step["hand_cards"], step["draws"], strict=True)]
                for step in steps
            )
        )
        return cls(seats, len(first["piles"]), len(first["stacks"]), draws, stock, not plain)

    @property
    def size(self) -> int:
        return (
            self.draws + 2 * self.piles + self.stacks + 2 * self.seats * self.stock + (self.seats if self.left else 0)
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seats": self.seats, "piles": self.piles, "stacks": self.stacks}
        if self.draws != self.seats:
            out["draws"] = self.draws
        if self.stock:
            out["stock"] = self.stock
        if self.left:
            out["left"] = True
        return out


# -- reading ---------------------------------------------------------------


@dataclass(slots=True)
class _Table:
    """The table as the rows build it: the fixed vector and the hands, in card ids."""

    t: int
    fixed: list[int]
    hands: list[list[int]]


def _apply(table: _Table, row: Row, fixed_size: int, *, first: bool) -> tuple[int, int]:
    """Apply one row in place; returns (text, kind)."""
    table.t = row[0] if first else table.t + row[0]
    text, kind = row[1], row[2]
    at = 3 + MOVE_LENGTH.get(kind, 0)
    while at < len(row):
        position = row[at]
        if position < fixed_size:
            table.fixed[position] = row[at + 1]
            at += 2
        else:
            count = row[at + 1]
            table.hands[position - fixed_size] = row[at + 2 : at + 2 + count]
            at += 2 + count
    return text, kind


def _step_dict(table: _Table, index: int, text: int, legend: Mapping[str, Any], texts: Sequence[str]) -> dict[str, Any]:
    layout = Layout.of(legend)
    names = legend["cards"]
    fixed = table.fixed
    at = 0

    def take(count: int) -> list[int]:
        nonlocal at
        taken = fixed[at : at + count]
        at += count
        return taken

    draws, pile_counts = take(layout.draws), take(layout.piles)
    tops = [names[card] if card >= 0 else None for card in take(layout.piles)]
    stack_counts = take(layout.stacks)
    hand_cards = [[names[card] for card in hand] for hand in table.hands]
    hands = [len(hand) for hand in hand_cards]
    description = texts[text] + ", " + clock(table.t) if text >= 0 else texts[-text - 1]
    step: dict[str, Any] = {
        "event": None if index == 0 else index - 1,
        "t": table.t,
        "description": description,
        "hands": hands,
        "draws": list(draws),
        "piles": list(pile_counts),
        "stacks": list(stack_counts),
        "hand_cards": hand_cards,
        "pile_tops": tops,
    }
    total = sum(hands) + sum(draws) + sum(pile_counts) + sum(stack_counts)
    if layout.stock:
        counts, top_ids = take(layout.seats * layout.stock), take(layout.seats * layout.stock)
        per_seat = range(0, layout.seats * layout.stock, layout.stock)
        step["stock"] = [counts[start : start + layout.stock] for start in per_seat]
        step["stock_tops"] = [
            [names[card] if card >= 0 else None for card in top_ids[start : start + layout.stock]] for start in per_seat
        ]
        total += sum(counts)
    step["total"] = total
    step["cards_left"] = (
        take(layout.seats) if layout.left else [hand + draw for hand, draw in zip(hands, draws, strict=True)]
    )
    return step


def _empty_table(legend: Mapping[str, Any]) -> _Table:
    return _Table(0, [0] * Layout.of(legend).size, [[] for _ in range(legend["seats"])])


def decode(compact: CompactSteps, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
    """The steps `start` to `stop` (exclusive) as the engine's `Step.to_dict()` gives them."""
    legend = compact.legend
    stop = len(compact.rows) if stop is None else min(stop, len(compact.rows))
    table = _empty_table(legend)
    fixed_size = len(table.fixed)
    out = []
    for index in range(stop):
        text, _kind = _apply(table, compact.rows[index], fixed_size, first=index == 0)
        if index >= start:
            out.append(_step_dict(table, index, text, legend, legend["texts"]))
    return out


def cards_left_series(compact: CompactSteps) -> list[list[int]]:
    """Per seat, the cards still to get rid of (hand and draw pile) at every step: the replay's chart."""
    legend = compact.legend
    seats = legend["seats"]
    layout = Layout.of(legend)
    table = _empty_table(legend)
    fixed_size = len(table.fixed)
    series: list[list[int]] = [[] for _ in range(seats)]
    for index, row in enumerate(compact.rows):
        _apply(table, row, fixed_size, first=index == 0)
        if layout.left:
            for seat in range(seats):
                series[seat].append(table.fixed[fixed_size - seats + seat])
        else:
            for seat in range(seats):
                series[seat].append(len(table.hands[seat]) + table.fixed[seat])
    return series


def played_steps(compact: CompactSteps) -> list[list[int]]:
    """Per seat, the step at which each of its cards went onto a centre pile, in order: a timed game's score so far.

    A play's cards are what it took off the seat's cards still to get rid of (a
    run plays several); a collision, a stall's flip or a reshuffle plays nobody's.
    """
    series = cards_left_series(compact)
    played: list[list[int]] = [[] for _ in series]
    for index, row in enumerate(compact.rows):
        if index == 0 or row[2] != PLAY or not 0 <= row[3] < len(series):
            continue
        seat = row[3]
        played[seat] += [index] * max(series[seat][index - 1] - series[seat][index], 1)
    return played


def step_times(compact: CompactSteps) -> list[int]:
    """Every step's clock in ms (the first row's is absolute, the others differences): a timed match's limit."""
    times: list[int] = []
    for index, row in enumerate(compact.rows):
        times.append(row[0] if index == 0 else times[-1] + row[0])
    return times


# -- chunks ------------------------------------------------------------------


def chunk(compact: CompactSteps, *, start: int, count: int) -> dict[str, Any]:
    """Steps `start` .. `start + count - 1` as the viewer loads them, readable on their own.

    ``base`` is the table of step ``start - 1`` (None for the first chunk), as
    ``[t, *fixed, n, *hand, n, *hand, ...]``, so the chunk's first row is a
    change from it like any other (the viewer highlights what changed). Its
    ``texts`` are only the ones its rows use, renumbered; ``cards`` is the whole
    legend (a few hundred bytes).
    """
    legend = compact.legend
    total = len(compact.rows)
    start = max(0, min(start, total))
    stop = max(start, min(start + max(count, 0), total))
    table = _empty_table(legend)
    fixed_size = len(table.fixed)
    for index in range(start):
        _apply(table, compact.rows[index], fixed_size, first=index == 0)
    base: list[int] | None = None
    if start > 0:
        base = [table.t, *table.fixed]
        for hand in table.hands:
            base += [len(hand), *hand]
    texts: list[str] = []
    renumbered: dict[int, int] = {}
    rows: list[Row] = []
    for row in compact.rows[start:stop]:
        text = row[1]
        key = text if text >= 0 else -text - 1
        local = renumbered.get(key)
        if local is None:
            local = renumbered[key] = len(texts)
            texts.append(legend["texts"][key])
        rows.append([row[0], local if text >= 0 else -local - 1, *row[2:]])
    return {
        "format": FORMAT,
        "total": total,
        "from": start,
        "count": stop - start,
        **Layout.of(legend).to_json(),
        "cards": legend["cards"],
        "texts": texts,
        "base": base,
        "rows": rows,
    }


def decode_chunk(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A chunk's steps as the engine's `Step.to_dict()`: what the viewer's script does, in Python."""
    table = _empty_table(data)
    fixed_size = len(table.fixed)
    base = data["base"]
    first = base is None
    if base is not None:
        table.t = base[0]
        table.fixed = list(base[1 : 1 + fixed_size])
        at = 1 + fixed_size
        for seat in range(data["seats"]):
            count = base[at]
            table.hands[seat] = list(base[at + 1 : at + 1 + count])
            at += 1 + count
    out = []
    for offset, row in enumerate(data["rows"]):
        text, _kind = _apply(table, row, fixed_size, first=first and offset == 0)
        out.append(_step_dict(table, data["from"] + offset, text, data, data["texts"]))
    return out
