"""The judge: one game's table and the rules every next event must keep (spec section 5).

As python-chess's `Board` offers `is_legal(move)` and `push(move)`, and its
PGN reader pushes each move of a game through them, a `Judge` offers
`check(event)` and `push(event)`, and both the verifier (a whole log) and a
live table's referee (one event at a time) judge every event through one.
An event is a speed-log/1 event as a log holds it (a JSON object): the one
parser of `events.py` reads it into a typed event, checking its format; the
checks here judge it against the table as it stands, in the spec's order
(its clock, whether the game is already over, then its own checks); and
`GameState.apply` makes the move. A refusal is the `LogError` a verdict
reports: its code, the index of the event and a message a player can act on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from .cards import (
    CARD_ID,
    CARD_NAMES,
    EMPTY_PILE,
    JOKER,
    JOKER_RANK,
    Card,
    card_names,
    card_rank,
    fitting_ranks,
)
from .errors import ErrorCode, LogError
from .events import Collision, Event, Move, Play, Reshuffle, SpeedCall, Stall, event_error, event_parser, who
from .rulesets import Ruleset
from .state import GameState
from .text import clock


class Judge:
    """One game: its table as it stands after the events pushed so far, and the checks of the next one.

    `check(raw)` reads a speed-log/1 event (a dict, as a log holds it) and
    judges it as the verifier judges that point of a log, raising `LogError`
    (code, event index, message) when it may not come next; it changes
    nothing. `push(raw)` checks it, then makes its move. The deck is not
    checked here: the verifier checks a log's deck (`bad_deck`) before it
    deals, and a table deals a pack it shuffled itself.
    """

    __slots__ = ("_parse", "deck", "events", "players", "previous", "ruleset", "standing", "state")

    def __init__(self, ruleset: Ruleset, players: Sequence[str], deck: Sequence[str]) -> None:
        """Deal `deck`, card names in a log's order (first card dealt first), to `players`, one name a seat."""
        self._deal(ruleset, players, [CARD_ID[name] for name in deck])

    @classmethod
    def from_cards(cls, ruleset: Ruleset, players: Sequence[str], cards: list[Card]) -> Judge:
        """A judge dealing `cards`, the deck already read into `Card` numbers (the verifier has read it)."""
        judge = cls.__new__(cls)
        judge._deal(ruleset, players, cards)
        return judge

    def _deal(self, ruleset: Ruleset, players: Sequence[str], cards: list[Card]) -> None:
        self.ruleset = ruleset
        self.players = tuple(players)
        #: The deck dealt, as `Card` numbers (the step replay deals it again).
        self.deck = cards
        self.state = GameState(ruleset, cards)
        # A draw-pile stall's format reads the draw piles as they stand: the parser holds the live lists.
        self._parse = event_parser(ruleset, self.players, self.state.draws)
        #: The events pushed so far, as given: the next event's index is their count.
        self.events: list[Any] = []
        #: The clock of the latest event pushed (0 before the first): no event may be earlier.
        self.previous = 0
        #: The latest event that was not a collision, when it is a play: what a collision is judged against.
        self.standing: Play | None = None

    def check(self, raw: object) -> Event:
        """The typed event of `raw` if it may come next; `LogError` (the verdict's code and message) if not."""
        return self.push(raw, False)

    def push(self, raw: object, _move: bool = True) -> Event:
        """Check `raw` (raising `LogError` when it may not come next), then make its move.

        The one body of both: `check` is `push` without the move (`_move`
        false). This way round the verifier's loop makes one Python call per
        event, not two: 2% of its instructions. `_move` is positional because
        CPython 3.11 specialises a call that leaves a positional default out,
        not one that leaves a keyword-only default out (1% more).
        """
        state = self.state
        parse = self._parse  # a local: calling it through the slot takes CPython's slow attribute path
        event = parse(raw, len(self.events))
        t = event[0]  # every event's first field is its `t` (an index is cheaper than the field's name)
        if t < self.previous or state.winner is not None:
            self._check_clock(t)
        if type(event) is Play:
            # Most events are one-card plays, from the hand or a stock pile, that fit: accepted here,
            # without a call. Any other play (a run, a joker, a refused card) gets every check, in order.
            _t, seat, pile, cards, source = event
            card = cards[0]
            if source is None:
                held = card in state.hands[seat]
            else:
                stock = state.stock[seat][source]
                held = stock[-1] == card if stock else False
            if len(cards) > 1 or card == JOKER or not held or not state.fits_on[card][state.tops[pile]]:
                self._check_play(event)
        elif type(event) is Collision:
            self._check_collision(event)
        elif type(event) is Stall:
            self._check_stall(event)
        elif type(event) is Reshuffle:
            self._check_reshuffle(event)
        elif type(event) is Move:
            self._check_move(event)
        elif type(event) is SpeedCall:
            self._check_speed(event)
        if not _move:
            return event
        if type(event) is Play:
            state.apply(event)
            self.standing = event
        elif type(event) is not Collision:  # a collision moves nothing, and the standing play stays the reference
            state.apply(event)
            self.standing = None
        self.previous = t
        self.events.append(raw)
        return event

    # The rules of each event, checked on its typed value before it is applied; they only read.

    def _check_clock(self, t: int) -> None:
        """The checks every event gets after its format: `time_reversed`, then `game_over`."""
        previous = self.previous
        if t < previous:
            before = "the start" if not self.events else f"the previous event ({clock(previous)})"
            raise self._error(ErrorCode.TIME_REVERSED, f"This event's t ({t} ms) is earlier than {before}.")
        state = self.state
        if state.winner is not None:
            raise self._error(
                ErrorCode.GAME_OVER,
                f"The game was already won by {self._who(state.winner)}; nothing may follow the call of Speed.",
            )

    def _check_play(self, event: Play) -> None:
        """The checks of a play, in the spec's order: `not_in_hand`, `no_fit`, `joker_last`."""
        state = self.state
        t, seat, pile, cards, source = event
        if len(cards) > 1:
            self._check_run(event)
            return
        card = cards[0]
        if source is not None:  # a tableau game: the card is the face-up top of that stock pile
            stock = state.stock[seat][source]
            if not stock or stock[-1] != card:
                shows = f"shows {CARD_NAMES[stock[-1]]}" if stock else "is empty"
                raise self._error(
                    ErrorCode.NOT_IN_HAND,
                    f"{self._who(seat)} plays {CARD_NAMES[card]} from stock pile {source} at {clock(t)}, but that "
                    f"pile {shows}: only a stock pile's face-up top card can be played.",
                )
        elif card not in state.hands[seat]:
            raise self._error(
                ErrorCode.NOT_IN_HAND,
                f"{self._who(seat)} plays {CARD_NAMES[card]} at {clock(t)}, but their hand holds "
                f"{card_names(state.hands[seat]) or 'nothing'}.",
            )
        if not state.fits_on[card][state.tops[pile]]:  # `state.fits`, inlined: every tableau play gets here
            raise self._error(ErrorCode.NO_FIT, self._no_fit_message(seat, card, pile, t))
        if card == JOKER and state.is_last_card(seat):
            raise self._error(
                ErrorCode.JOKER_LAST,
                f"{self._who(seat)} plays a joker as their last card at {clock(t)}; a joker may never be the last card.",
            )

    def _check_run(self, event: Play) -> None:
        state = self.state
        t, seat, pile, cards, _source = event
        run = card_names(cards)
        remaining = list(state.hands[seat])
        for card in cards:
            if card not in remaining:
                held = card_names(state.hands[seat])
                raise self._error(
                    ErrorCode.NOT_IN_HAND,
                    f"{self._who(seat)} plays the run {run} at {clock(t)}, but {CARD_NAMES[card]} is not in their "
                    f"hand ({held}) {'as many times as the run uses it' if card in state.hands[seat] else ''}".rstrip()
                    + ".",
                )
            remaining.remove(card)
        if not state.fits(cards[0], pile):
            raise self._error(ErrorCode.NO_FIT, self._no_fit_message(seat, cards[0], pile, t))
        for before, card in pairwise(cards):
            if not state.fits_on[card][before]:
                fits = ", ".join(fitting_ranks(card_rank(before), same_rank=self.ruleset.same_rank))
                raise self._error(
                    ErrorCode.NO_FIT,
                    f"{self._who(seat)}'s run {run} at {clock(t)} breaks at {CARD_NAMES[card]}: it does not fit on "
                    f"{CARD_NAMES[before]} (fits: {fits}).",
                )
        if cards[-1] == JOKER and state.is_last_card(seat, len(cards)):
            raise self._error(
                ErrorCode.JOKER_LAST,
                f"{self._who(seat)}'s run at {clock(t)} ends with a joker as their last card; a joker may never be "
                "the last card.",
            )

    def _no_fit_message(self, seat: int, card: Card, pile: int, t: int) -> str:
        state = self.state
        top = state.tops[pile]
        name = CARD_NAMES[card]
        if top == EMPTY_PILE:
            return f"{self._who(seat)} plays {name} on pile {pile} at {clock(t)}, but pile {pile} is empty."
        if card_rank(top) == JOKER_RANK:
            return (
                f"{self._who(seat)} plays JK on pile {pile} at {clock(t)}, but pile {pile} shows JK and "
                "this ruleset does not allow a joker on a joker (joker_on_joker is off)."
            )
        fits = ", ".join(fitting_ranks(card_rank(top), same_rank=self.ruleset.same_rank))
        return (
            f"{self._who(seat)} plays {name} on pile {pile} at {clock(t)}, but pile {pile} shows {CARD_NAMES[top]}: "
            f"only {fits} or a joker fit there."
        )

    def _check_collision(self, event: Collision) -> None:
        state, standing = self.state, self.standing
        t, seat, pile, card = event
        what = f"{self._who(seat)}'s collision with {CARD_NAMES[card]} on pile {pile} at {clock(t)}"
        if standing is None:
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what} follows no play: a collision records a card "
                "taken back from a play that landed at the same moment.",
            )
        standing_seat, standing_pile, standing_t = standing.seat, standing.pile, standing.t
        if standing_pile != pile or standing_t != t:
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what} (t={t} ms) does not match the play it follows (pile {standing_pile}, t={standing_t} ms): "
                "a collision shares the pile and the moment of the card that stands.",
            )
        if standing_seat == seat:
            raise self._error(ErrorCode.BAD_COLLISION, f"{what} follows that same player's own play.")
        if card not in state.playable(seat):
            where = "face up on their stock piles" if state.tableau else "in their hand"
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what}: {CARD_NAMES[card]} is not {where} ({card_names(state.playable(seat)) or 'empty'}).",
            )
        # The standing play's cards lie on top of its pile; the card under them is what it showed before.
        cards_on_pile = state.piles[pile]
        under = len(cards_on_pile) - len(standing.cards) - 1
        if not state.fits_on[card][cards_on_pile[under] if under >= 0 else EMPTY_PILE]:
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what}: {CARD_NAMES[card]} would not have fitted the pile before the standing play.",
            )

    def _check_nobody_can_move(self, t: int, what: str) -> None:
        state = self.state
        seat = state.first_mover()
        if seat is None:
            return
        plays = state.legal_single_plays(seat)
        if plays:
            card, pile = plays[0]
            showing = CARD_NAMES[state.piles[pile][-1]]
            detail = f"{CARD_NAMES[card]} fits on pile {pile} ({showing})"
        else:
            source, target = state.turning_moves(seat)[0]
            detail = f"moving stock pile {source}'s top into the empty position {target} turns up a card"
        raise self._error(
            ErrorCode.STALL_WITH_MOVE, f"{what} at {clock(t)}, but {self._who(seat)} can still move: {detail}."
        )

    def _check_stall(self, event: Stall) -> None:
        state = self.state
        t, targets = event
        self._check_nobody_can_move(t, "A stall is called")
        if targets is not None:
            if not any(state.draws):
                raise self._error(
                    ErrorCode.STACKS_EMPTY,
                    f"A stall is called at {clock(t)}, but no player has a draw-pile card left to flip: the game can "
                    "only end as a deadlock.",
                )
        elif state.tableau:
            out = [seat for seat, spit in enumerate(state.draws) if not spit]
            if out:
                raise self._error(
                    ErrorCode.STACKS_EMPTY,
                    f"A stall is called at {clock(t)}, but {self._who(out[0])} has no spit card left: they must "
                    "`reshuffle` their spit pile first.",
                )
        elif not any(state.stacks):
            raise self._error(
                ErrorCode.STACKS_EMPTY,
                f"A stall is called at {clock(t)}, but every replacement stack is empty: the log must say "
                "`reshuffle` instead.",
            )

    def _check_reshuffle(self, event: Reshuffle) -> None:
        state = self.state
        t, order, seat = event
        self._check_nobody_can_move(t, "A reshuffle is called")
        if seat is not None:  # Spit: the seat's spit pile, but its top, becomes its spit cards
            left = len(state.draws[seat])
            if left:
                raise self._error(
                    ErrorCode.STACKS_NOT_EMPTY,
                    f"{self._who(seat)} reshuffles at {clock(t)}, but still has {left} spit cards: a seat reshuffles "
                    "only when its spit cards are used up.",
                )
            gathered = state.piles[seat][:-1]
            what = f"{self._who(seat)}'s spit pile under its top card"
        else:
            if any(state.stacks):
                left_in = ", ".join(f"stack {index}: {len(stack)}" for index, stack in enumerate(state.stacks) if stack)
                raise self._error(
                    ErrorCode.STACKS_NOT_EMPTY,
                    f"A reshuffle is called at {clock(t)}, but replacement cards are left ({left_in}): flip them "
                    "with a `stall` first.",
                )
            gathered = state.gathered_centre()
            what = "centre cards"
        if sorted(order) != sorted(gathered):
            want, have = Counter(CARD_NAMES[card] for card in gathered), Counter(CARD_NAMES[card] for card in order)
            missing = " ".join(sorted((want - have).elements())) or "none"
            extra = " ".join(sorted((have - want).elements())) or "none"
            source = "the centre" if seat is None else "that pile"
            raise self._error(
                ErrorCode.BAD_SHUFFLE,
                f"The reshuffle at {clock(t)} must hold exactly the {len(gathered)} {what}; it has "
                f"{len(order)}. Missing: {missing}. Not from {source}: {extra}.",
            )

    def _check_move(self, event: Move) -> None:
        """A tableau move, in the extension's order: `not_in_hand`, then `no_fit`."""
        state = self.state
        t, seat, card, source, target = event
        piles = state.stock[seat]
        if not piles[source] or piles[source][-1] != card:
            shows = f"shows {CARD_NAMES[piles[source][-1]]}" if piles[source] else "is empty"
            raise self._error(
                ErrorCode.NOT_IN_HAND,
                f"{self._who(seat)} moves {CARD_NAMES[card]} from stock pile {source} at {clock(t)}, but that pile "
                f"{shows}: only a stock pile's face-up top card can be moved.",
            )
        if piles[target]:
            raise self._error(
                ErrorCode.NO_FIT,
                f"{self._who(seat)} moves {CARD_NAMES[card]} into stock position {target} at {clock(t)}, but it is "
                "not empty: a stock position takes a card only when it is empty.",
            )

    def _check_speed(self, event: SpeedCall) -> None:
        state = self.state
        t, seat = event
        if state.remaining(seat):
            if state.tableau:
                held = f"{state.remaining(seat)} cards in their stock piles"
            elif self.ruleset.teams:
                side = self.ruleset.teams[self.ruleset.side_of(seat)]
                hands = ", ".join(f"{len(state.hands[partner])} in {self._who(partner)}'s hand" for partner in side)
                held = f"their team holding {hands} and {len(state.seat_draws[seat])} in the team's draw pile"
            else:
                held = f"{len(state.hands[seat])} cards in hand and {len(state.draws[seat])} in the draw pile"
            raise self._error(ErrorCode.NOT_FINISHED, f"{self._who(seat)} calls Speed at {clock(t)} with {held}.")

    def _who(self, seat: int) -> str:
        return who(self.players, seat)

    def _error(self, code: ErrorCode, message: str) -> LogError:
        """A refusal of the event being judged (the next one: its index is the count pushed)."""
        return event_error(len(self.events), message, code)
