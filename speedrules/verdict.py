"""What a verification returns: the verdict, and the per-step state for replays."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import add
from typing import Any, Protocol

from .errors import ErrorCode
from .events import Play
from .timed import cards_played_by, plays_by_seat


@dataclass(frozen=True, slots=True)
class Step:
    """The table after the deal (`event` None) or after one event that passed.

    Carries what the replay viewer draws: every hand face up, the count of each
    face-down pile, each centre pile's top card, and the event in words.
    `draws` has one entry per draw pile: per seat, or per team in a team game
    (`ExtensionStep`).
    """

    event: int | None
    t: int
    description: str
    hands: tuple[tuple[str, ...], ...]
    draws: tuple[int, ...]
    piles: tuple[int, ...]
    pile_tops: tuple[str | None, ...]
    stacks: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(map(len, self.hands)) + sum(self.draws) + sum(self.piles) + sum(self.stacks)

    @property
    def cards_left(self) -> tuple[int, ...]:
        """Cards each seat still has to get rid of (hand and draw pile)."""
        return tuple(map(add, map(len, self.hands), self.draws))

    def to_counts(self) -> dict[str, Any]:
        """The counts only: the stable shape of `verify --steps`."""
        return {
            "hands": list(map(len, self.hands)),
            "draws": list(self.draws),
            "piles": list(self.piles),
            "stacks": list(self.stacks),
            "total": self.total,
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything a replay viewer needs to draw this step."""
        # `to_counts` and the properties written out: a stored replay calls this for every step.
        hands, draws, piles, stacks = self.hands, self.draws, self.piles, self.stacks
        sizes = list(map(len, hands))
        return {
            "event": self.event,
            "t": self.t,
            "description": self.description,
            "hands": sizes,
            "draws": list(draws),
            "piles": list(piles),
            "stacks": list(stacks),
            "total": sum(sizes) + sum(draws) + sum(piles) + sum(stacks),
            "hand_cards": list(map(list, hands)),
            "pile_tops": list(self.pile_tops),
            "cards_left": list(map(add, sizes, draws)),
        }


@dataclass(frozen=True, slots=True)
class ExtensionStep(Step):
    """A step of one of the extension's games (a team game or a tableau game): a `Step` and three more fields.

    `stock` is each seat's stock pile counts in a tableau game (Spit) and
    `stock_tops` their face-up top cards (None for an empty pile); `left` is
    each seat's side's remaining cards (`cards_left`), which hand plus draw
    pile does not say in these games. `to_counts` adds `stock` and `to_dict`
    `stock_tops` in a tableau game only (extension section 8).
    """

    stock: tuple[tuple[int, ...], ...]
    stock_tops: tuple[tuple[str | None, ...], ...]
    left: tuple[int, ...]

    @property
    def total(self) -> int:
        counted = sum(map(len, self.hands)) + sum(self.draws) + sum(self.piles) + sum(self.stacks)
        return counted + sum(map(sum, self.stock))

    @property
    def cards_left(self) -> tuple[int, ...]:
        return self.left

    def to_counts(self) -> dict[str, Any]:
        counts: dict[str, Any] = {
            "hands": list(map(len, self.hands)),
            "draws": list(self.draws),
            "piles": list(self.piles),
            "stacks": list(self.stacks),
        }
        if self.stock:
            counts["stock"] = [list(piles) for piles in self.stock]
        counts["total"] = self.total
        return counts

    def to_dict(self) -> dict[str, Any]:
        out = {
            "event": self.event,
            "t": self.t,
            "description": self.description,
            **self.to_counts(),
            "hand_cards": [list(hand) for hand in self.hands],
            "pile_tops": list(self.pile_tops),
            "cards_left": list(self.cards_left),
        }
        if self.stock:
            out["stock_tops"] = [list(tops) for tops in self.stock_tops]
        return out


class StepSource(Protocol):
    """What a verdict builds its steps from, the first time they are read."""

    def steps(self) -> tuple[Step, ...]: ...


class PlaySource(Protocol):
    """What a verdict reads its plays from, the first time `plays_by_seat` is read."""

    def plays(self) -> tuple[Play, ...]: ...


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of verifying one log.

    `event` is the 0-based index of the first event at fault (None when the
    log is valid, for document-level errors and for `result_mismatch`);
    `winner` is the winning seat of a valid, won game (None otherwise): the
    seat that called Speed, in a team game too (`winner_team` is its team);
    `players` the log's names per seat when the document got that far;
    `steps` the table after the deal and after every event that passed, only
    when they were asked for. The verifier keeps the events that passed
    and the `Step` objects are built from them the first time `steps` is read
    (then kept), so asking for steps costs little more than plain verification
    until they are used.

    `cards_left` is, for a valid log (won or deadlocked), each seat's cards
    still to get rid of after the last event: hand plus draw pile, the same
    numbers as the last step's `Step.cards_left`, computed without steps. The
    winner's entry is 0. None when the log is not valid. In the extension's
    games it is the seat's side's remaining cards: a team's hands and draw
    pile (the same number for both partners), a Spit seat's stock cards.
    """

    code: ErrorCode
    event: int | None
    message: str
    winner: int | None
    players: tuple[str, ...] | None = None
    cards_left: tuple[int, ...] | None = None
    #: The steps, or what builds them (see `steps`); None when they were not asked for.
    step_source: tuple[Step, ...] | StepSource | None = field(default=None, repr=False, compare=False)
    #: In a team game that was won, the winning team (the index in `ruleset.teams`); else None.
    winner_team: int | None = None
    #: For a valid log, what reads its plays in order (`plays_by_seat`); None otherwise.
    play_source: PlaySource | None = field(default=None, repr=False, compare=False)

    @property
    def steps(self) -> tuple[Step, ...] | None:
        source = self.step_source
        if source is None or isinstance(source, tuple):
            return source
        return source.steps()

    @property
    def plays_by_seat(self) -> tuple[tuple[int, ...], ...] | None:
        """For a valid log, per seat, the `t` of every card the seat put on a centre pile, in order.

        A run gives one entry per card; a card taken back in a collision none; flips and
        reshuffles are nobody's play. None when the log is not valid. Worked out when read
        (a timed round's score needs it), not during every verification.
        """
        if self.play_source is None or self.players is None:
            return None
        return plays_by_seat(self.play_source.plays(), len(self.players))

    @property
    def valid(self) -> bool:
        return self.code is ErrorCode.OK

    def cards_played_by(self, limit: int) -> tuple[int, ...] | None:
        """Per seat, the cards put on the centre piles at `t` <= `limit` ms: a timed round's score.

        None when the log is not valid.
        """
        times = self.plays_by_seat
        return None if times is None else cards_played_by(times, limit)

    @property
    def deadlock(self) -> bool:
        return self.valid and self.winner is None

    def to_dict(self) -> dict[str, Any]:
        """The verdict as JSON, with `cards_left`, `plays_by_seat` and, when present, full steps.

        The command line's `verify` line is a separate contract (`cli.py`): it
        keeps exactly its seven keys, so it carries `cards_left` and none of the others.
        """
        out: dict[str, Any] = {
            "valid": self.valid,
            "code": self.code.value,
            "event": self.event,
            "message": self.message,
            "winner": self.winner,
            "cards_left": None if self.cards_left is None else list(self.cards_left),
            "plays_by_seat": None if self.plays_by_seat is None else [list(times) for times in self.plays_by_seat],
        }
        if self.steps is not None:
            out["steps"] = [step.to_dict() for step in self.steps]
        return out
