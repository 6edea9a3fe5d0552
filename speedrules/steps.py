"""The replay a viewer steps through: the table after the deal and after each event that passed.

The verifier keeps the events that passed (their JSON values); `StepReplay` turns them into
`Step` values the first time a verdict's `steps` are read, replaying them on a
fresh deal. The events were checked, so the replay applies them as told.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import CARD_NAMES, Card
from .events import event_parser
from .rulesets import Ruleset
from .state import GameState
from .text import describe_event
from .verdict import ExtensionStep, Step

DEAL = "The deal: starters turned face up."


class StepReplay:
    """Builds, once, the steps of a game from its deck and the events that passed (raw JSON values)."""

    __slots__ = ("_built", "_deck", "_events", "_players", "_ruleset")

    def __init__(self, ruleset: Ruleset, deck: list[Card], events: Sequence[Any], players: Sequence[str]) -> None:
        self._ruleset = ruleset
        self._deck = deck
        self._events = events
        self._players = players
        self._built: tuple[Step, ...] | None = None

    def steps(self) -> tuple[Step, ...]:
        if self._built is None:
            self._built = self._replay()
        return self._built

    def _replay(self) -> tuple[Step, ...]:
        state = GameState(self._ruleset, self._deck)
        players = self._players
        hands, draws, piles, tops, stacks = state.hands, state.draws, state.piles, state.tops, state.stacks
        parse = event_parser(self._ruleset, players, draws)
        name = CARD_NAMES.__getitem__

        extension = bool(self._ruleset.teams or self._ruleset.tableau)
        seats = range(self._ruleset.players)
        stock = state.stock

        def step(index: int | None, t: int, description: str) -> Step:
            counts = (  # event, t, description, hands, draws, piles, pile_tops, stacks
                index,
                t,
                description,
                tuple([tuple(map(name, hand)) for hand in hands]),
                tuple(map(len, draws)),
                tuple(map(len, piles)),
                tuple([name(pile[-1]) if pile else None for pile in piles]),
                tuple(map(len, stacks)),
            )
            if not extension:
                return Step(*counts)
            return ExtensionStep(
                *counts,
                tuple([tuple(map(len, seat_piles)) for seat_piles in stock]),
                tuple([tuple(name(pile[-1]) if pile else None for pile in seat_piles) for seat_piles in stock]),
                tuple([state.remaining(seat) for seat in seats]),
            )

        steps = [step(None, 0, DEAL)]
        for index, raw in enumerate(self._events):
            event = parse(raw, index)  # it passed, so it parses
            description = describe_event(event, players, tops)
            state.apply(event)
            steps.append(step(index, event.t, description))
        return tuple(steps)
