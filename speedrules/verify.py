"""The verifier: replay a speed-log/1 document and judge it (spec sections 2-7).

Verification is strict, like python-chess's strict game reader: it stops at
the first error and says where. The checks run in the spec's precedence:
document format, ruleset ranges, the deck; then each event in turn (its
format, read by the one parser of `events.py` into a typed event; its clock;
whether the game is already over; then its own checks in the order the spec
lists them); the claimed result last.

There is one lane: the parser of `events.py` reads each event, the checks
here judge it (they only read the table), and `GameState.apply` makes the
move. Plain verification records nothing per step; with `steps=True` it keeps
the deck and the events that passed, and `steps.StepReplay` builds the `Step`
values from them the first time they are read, through the same parser and
`GameState.apply`: recording is an addition, never a second set of rules.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise
from operator import add, itemgetter
from typing import Any

import orjson

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
    sorted_pack,
)
from .errors import ErrorCode, LogError
from .events import (
    Collision,
    Move,
    PassedPlays,
    Play,
    Reshuffle,
    SpeedCall,
    Stall,
    card_problem,
    event_error,
    event_parser,
    who,
)
from .rulesets import TEAMS_FIELD, Ruleset, build_ruleset, read_ruleset_fields
from .state import GameState
from .steps import StepReplay
from .text import clock
from .verdict import Verdict

FORMAT = "speed-log/1"
# A tuple: a missing key is named in this order.
_REQUIRED_KEYS = ("format", "ruleset", "players", "deck", "events", "result")
_REQUIRED_SET = frozenset(_REQUIRED_KEYS)
_STANDARD = Ruleset()
_STRINGS_ONLY = frozenset({str})


def verify_bytes(data: bytes | str, *, steps: bool = False) -> Verdict:
    """Parse and verify a log document; never raises on bad input."""
    try:
        document = orjson.loads(data)  # `parse_log`'s first try, without its call: most logs are JSON
    except orjson.JSONDecodeError:
        try:
            document = parse_log(data)
        except LogError as error:
            return Verdict(error.code, None, error.message, None, step_source=() if steps else None)
    return verify_parsed(data, document, steps=steps)


def parse_log(data: bytes | str) -> Any:
    """The JSON value of a log document; `LogError` (`bad_format`) when it is not JSON.

    orjson first, for speed; the standard library for the valid JSON orjson
    refuses (integers beyond its range), still refusing NaN and Infinity.
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as fast_error:
        exact = _parse_exactly(data)
        if exact is _NOT_JSON:
            raise LogError(ErrorCode.BAD_FORMAT, f"The log is not a JSON document: {fast_error}.") from None
        return exact


def verify_parsed(data: bytes | str, document: Any, *, steps: bool = False) -> Verdict:
    """Verify `document`, the value `parse_log(data)` returned.

    orjson reads integers of 2**64 and beyond as floats, and a float where a
    whole number belongs is `bad_format`. So a `bad_format` verdict is
    re-judged on the standard library's exact reading; other verdicts cannot
    depend on it. The cost falls on rejected logs only.
    """
    verdict = _Verifier(document, record_steps=steps).run()
    if verdict.code is ErrorCode.BAD_FORMAT:
        exact = _parse_exactly(data)
        if exact is not _NOT_JSON:  # (== cannot tell: 2**64 == 2.0**64 in Python)
            return verify_document(exact, steps=steps)
    return verdict


_NOT_JSON = object()


def _parse_exactly(data: bytes | str) -> Any:
    def refuse_constant(name: str) -> None:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(data, parse_constant=refuse_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _NOT_JSON


#: How a table's game may end before its end (speed-table/1 amendment L3), as its log's `table.ended.by` says.
ENDED_EARLY = ("resign", "claim", "no_show")


def _ended_early(document: dict[str, Any]) -> str | None:
    """A table log's `table.ended.by` ("resign", "claim", "no_show"), or None.

    Such a game ended before its end by the table's decision (amendment L4):
    its events are checked as any log's, its result is not checked against
    them, and the verdict names no winner, so a log can never win a game this
    way: the table that ended it decides it.
    """
    table = document.get("table")
    ended = table.get("ended") if isinstance(table, dict) else None
    by = ended.get("by") if isinstance(ended, dict) else None
    return by if type(by) is str and by in ENDED_EARLY else None


def verify_document(document: object, *, steps: bool = False) -> Verdict:
    """Verify a parsed log document (the value `json.loads` returns)."""
    return _Verifier(document, record_steps=steps).run()


class _Verifier:
    """One verification. The checks raise `LogError` at the first fault."""

    __slots__ = (
        "deck",
        "document",
        "ended",
        "events",
        "index",
        "players",
        "record_steps",
        "ruleset",
        "state",
    )

    def __init__(self, document: object, *, record_steps: bool) -> None:
        self.document = document
        self.record_steps = record_steps
        self.players: tuple[str, ...] | None = None
        self.ruleset = _STANDARD
        self.state: GameState | None = None
        self.deck: list[Card] = []
        self.events: list[Any] = []
        self.index = 0  # the event being checked, for messages
        self.ended: str | None = None  # how a table's game ended early: its result is not the events'

    def run(self) -> Verdict:
        try:
            events, result = self._read_document()
            self._replay(events)
            winner = None if self.ended is not None else self._check_result(result)
        except LogError as error:
            # The events before the one at fault passed (all of them, for `result_mismatch`).
            passed = len(self.events) if error.event is None else error.event
            return Verdict(error.code, error.event, error.message, None, self.players, None, self._steps(passed))
        state = self.state
        assert state is not None
        ruleset = self.ruleset
        team = None if winner is None or not ruleset.teams else ruleset.side_of(winner)
        if self.ended is not None:
            message = (
                f"Verified: every event is legal; the game ended early at the table ({self.ended}), so its result "
                f"is the table's decision, not the log's. Every card of the {ruleset.pack_size}-card pack is "
                "accounted for."
            )
        elif winner is None and ruleset.players == 1:
            message = (
                f"Verified: {self._who(0)} is stuck with {state.remaining(0)} cards left; no card can ever be "
                "played again."
            )
        elif winner is None:
            message = "Verified: the game ended in a deadlock, no card can ever be played again."
        elif team is not None:
            message = (
                f"Verified: team {team} won ({self._who(winner)} called Speed); every card of the "
                f"{ruleset.pack_size}-card pack is accounted for."
            )
        else:
            message = (
                f"Verified: {self._who(winner)} won; every card of the {ruleset.pack_size}-card pack is accounted for."
            )
        if ruleset.teams or ruleset.tableau:
            cards_left = tuple([state.remaining(seat) for seat in range(ruleset.players)])
        else:  # hand plus draw pile, seat by seat
            cards_left = tuple(map(add, map(len, state.hands), map(len, state.draws)))
        return Verdict(
            ErrorCode.OK,
            None,
            message,
            winner,
            self.players,
            cards_left,
            self._steps(len(self.events)),
            team,
            PassedPlays(ruleset, self.players or (), self.events),
        )

    def _steps(self, passed: int) -> StepReplay | tuple[()] | None:
        if not self.record_steps:
            return None
        if self.state is None:  # rejected before the deal
            return ()
        return StepReplay(self.ruleset, self.deck, self.events[:passed], self.players or ())

    # -- the document (spec sections 2-4) ------------------------------------

    def _read_document(self) -> tuple[list[Any], dict[str, Any]]:
        document = self.document
        if not isinstance(document, dict):
            raise LogError(ErrorCode.BAD_FORMAT, "The log must be a JSON object.")
        if not document.keys() >= _REQUIRED_SET:
            missing = [key for key in _REQUIRED_KEYS if key not in document]
            raise LogError(ErrorCode.BAD_FORMAT, f"The log is missing {', '.join(f'`{key}`' for key in missing)}.")
        if document["format"] != FORMAT:
            raise LogError(ErrorCode.BAD_FORMAT, f'`format` is {document["format"]!r}; it must be "{FORMAT}".')
        fields = read_ruleset_fields(document["ruleset"])
        players = document["players"]
        if type(players) is not list or not _STRINGS_ONLY.issuperset(map(type, players)):
            raise LogError(ErrorCode.BAD_FORMAT, "`players` must be a list of names (strings), one per seat.")
        deck = document["deck"]
        if type(deck) is not list:
            raise LogError(ErrorCode.BAD_FORMAT, "`deck` must be a list of cards.")
        try:  # reading every card is also the check that each is one
            # `itemgetter` reads a whole deck in one call (cheaper than `map`); it
            # needs two names or more to return a tuple.
            cards = list(itemgetter(*deck)(CARD_ID)) if len(deck) > 1 else [CARD_ID[name] for name in deck]
        except (KeyError, TypeError):  # not a card string; TypeError: unhashable, so not a string
            message = card_problem(deck, "`deck`") or "`deck` must be a list of cards."
            raise LogError(ErrorCode.BAD_FORMAT, message) from None
        events = document["events"]
        if type(events) is not list:
            raise LogError(ErrorCode.BAD_FORMAT, "`events` must be a list.")
        result = document["result"]
        self.ended = _ended_early(document)
        if self.ended is None:
            self._check_result_format(result, team_game=bool(fields[TEAMS_FIELD]))
        elif not isinstance(result, dict):
            raise LogError(ErrorCode.BAD_FORMAT, "`result` must be an object.")

        self.ruleset = ruleset = build_ruleset(fields)
        if len(players) != ruleset.players:
            raise LogError(
                ErrorCode.BAD_FORMAT,
                f"`players` names {len(players)} seats but the ruleset has {ruleset.players} players.",
            )
        self.players = tuple(players)
        if self.ended is None and "winner" in result and not 0 <= result["winner"] < ruleset.players:
            raise LogError(
                ErrorCode.BAD_FORMAT,
                f"`result.winner` is {result['winner']}; seats are numbered 0 to {ruleset.players - 1}.",
            )
        if ruleset.teams and "winner_team" in result and not 0 <= result["winner_team"] < len(ruleset.teams):
            raise LogError(
                ErrorCode.BAD_FORMAT,
                f"`result.winner_team` is {result['winner_team']}; teams are numbered 0 to {len(ruleset.teams) - 1}.",
            )
        if ruleset.players == 1 and "deadlock" in result:
            left = result.get("cards_left")
            if type(left) is not int or left < 0:
                raise LogError(
                    ErrorCode.BAD_FORMAT,
                    f"A one-player deadlock needs `result.cards_left`, the cards left (0 or more), not {left!r}.",
                )
        if sorted(cards) != sorted_pack(ruleset.decks, ruleset.jokers):
            raise LogError(ErrorCode.BAD_DECK, self._deck_problem(deck))
        self.deck = cards
        self.events = events
        self.state = GameState(ruleset, cards)
        return events, result

    @staticmethod
    def _check_result_format(result: object, *, team_game: bool) -> None:
        """The shape of `result` (section 6); `team_game`: the log's `teams`, as written, is not empty."""
        if not isinstance(result, dict):
            raise LogError(ErrorCode.BAD_FORMAT, '`result` must be an object: {"winner": seat} or {"deadlock": true}.')
        key = "winner_team" if team_game else "winner"
        has_winner, has_deadlock = key in result, "deadlock" in result
        if team_game and "winner" in result:
            raise LogError(
                ErrorCode.BAD_FORMAT, 'A team game is won by a team: `result` names it in "winner_team", not "winner".'
            )
        if has_winner == has_deadlock:
            raise LogError(ErrorCode.BAD_FORMAT, f'`result` must hold exactly one of "{key}" and "deadlock".')
        if has_winner and type(result[key]) is not int:
            what = "team number" if team_game else "seat number"
            raise LogError(ErrorCode.BAD_FORMAT, f"`result.{key}` must be a {what}, not {result[key]!r}.")
        if has_deadlock and result["deadlock"] is not True:
            raise LogError(ErrorCode.BAD_FORMAT, f"`result.deadlock` can only be true, not {result['deadlock']!r}.")

    def _deck_problem(self, deck: list[str]) -> str:
        want = Counter(CARD_NAMES[card] for card in sorted_pack(self.ruleset.decks, self.ruleset.jokers))
        have = Counter(deck)
        missing = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        parts = [f"The deck has {len(deck)} cards; this ruleset's pack has {self.ruleset.pack_size}."]
        if missing:
            parts.append(f"Missing: {' '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}.")
        if extra:
            parts.append(f"Extra or repeated: {' '.join(extra[:10])}{' ...' if len(extra) > 10 else ''}.")
        return " ".join(parts)

    # -- the events (spec section 5) -----------------------------------------

    def _replay(self, events: list[Any]) -> None:
        """Each event in turn: the parser reads it, the checks judge it, `GameState.apply` makes the move."""
        state = self.state
        assert state is not None
        parse = event_parser(self.ruleset, self.players or (), state.draws)
        apply = state.apply
        previous = 0  # the clock of the event before
        # The last event that was not a collision, if it was a play: a collision is judged against it.
        standing: Play | None = None
        for index, raw in enumerate(events):
            self.index = index
            event = parse(raw, index)
            t = event.t
            if t < previous or state.winner is not None:
                self._check_clock(t, previous)
            previous = t
            if type(event) is Play:
                self._check_play(event, state)
                apply(event)
                standing = event
                continue
            if type(event) is Collision:  # nothing moves, and the standing play stays the reference
                self._check_collision(event, standing)
                continue
            if type(event) is Stall:
                self._check_stall(event)
            elif type(event) is Reshuffle:
                self._check_reshuffle(event)
            elif type(event) is Move:
                self._check_move(event)
            elif type(event) is SpeedCall:
                self._check_speed(event)
            apply(event)
            standing = None

    def _check_clock(self, t: int, previous: int) -> None:
        """The checks every event gets after its format: `time_reversed`, then `game_over`."""
        if t < previous:
            before = "the start" if self.index == 0 else f"the previous event ({clock(previous)})"
            raise self._error(ErrorCode.TIME_REVERSED, f"This event's t ({t} ms) is earlier than {before}.")
        state = self.state
        assert state is not None
        if state.winner is not None:
            raise self._error(
                ErrorCode.GAME_OVER,
                f"The game was already won by {self._who(state.winner)}; nothing may follow the call of Speed.",
            )

    # The rules of each event, checked on its typed value before it is applied.

    def _check_play(self, event: Play, state: GameState) -> None:
        """The checks of a play, in the spec's order: `not_in_hand`, `no_fit`, `joker_last`."""
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
        if not state.fits_on[card][state.tops[pile]]:  # `state.fits`, inlined: most events get here
            raise self._error(ErrorCode.NO_FIT, self._no_fit_message(seat, card, pile, t))
        if card == JOKER and state.is_last_card(seat):
            raise self._error(
                ErrorCode.JOKER_LAST,
                f"{self._who(seat)} plays a joker as their last card at {clock(t)}; a joker may never be the last card.",
            )

    def _check_run(self, event: Play) -> None:
        state = self.state
        assert state is not None
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
        assert state is not None
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

    def _check_collision(self, event: Collision, standing: Play | None) -> None:
        state = self.state
        assert state is not None
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
        assert state is not None
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
        assert state is not None
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
        assert state is not None
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
        assert state is not None
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
        assert state is not None
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

    # -- the result (spec section 6) -----------------------------------------

    def _check_result(self, result: dict[str, Any]) -> int | None:
        state = self.state
        assert state is not None
        if "winner" in result:
            claimed: int = result["winner"]
            if state.winner == claimed:
                return claimed
            if state.winner is None:
                detail = "but nobody called Speed"
            else:
                detail = f"but {self._who(state.winner)} called Speed"
            raise LogError(ErrorCode.RESULT_MISMATCH, f"The result names {self._who(claimed)} the winner, {detail}.")
        if "winner_team" in result and self.ruleset.teams:
            team: int = result["winner_team"]
            if state.winner is not None and self.ruleset.side_of(state.winner) == team:
                return state.winner
            if state.winner is None:
                detail = "but nobody called Speed"
            else:
                detail = f"but {self._who(state.winner)} of team {self.ruleset.side_of(state.winner)} called Speed"
            raise LogError(ErrorCode.RESULT_MISMATCH, f"The result names team {team} the winner, {detail}.")
        if state.winner is not None:
            raise LogError(
                ErrorCode.RESULT_MISMATCH,
                f"The result claims a deadlock, but {self._who(state.winner)} called Speed and won.",
            )
        seat = state.first_mover()
        if seat is not None:
            raise LogError(
                ErrorCode.RESULT_MISMATCH,
                f"The result claims a deadlock, but after the last event {self._who(seat)} can still move.",
            )
        if not state.is_dead():
            remedy = {"stacks": "a reshuffle", "draw_piles": "a stall"}.get(
                self.ruleset.stall_source, "a stall or a reshuffle"
            )
            raise LogError(
                ErrorCode.RESULT_MISMATCH,
                f"The result claims a deadlock, but {remedy} could still free a move: the game was not over.",
            )
        if self.ruleset.players == 1 and result["cards_left"] != state.remaining(0):
            raise LogError(
                ErrorCode.RESULT_MISMATCH,
                f"The result says {result['cards_left']} cards were left, but {self._who(0)} has "
                f"{state.remaining(0)} left after the last event.",
            )
        return None

    # -- helpers --------------------------------------------------------------

    def _who(self, seat: int) -> str:
        return who(self.players or (), seat)

    def _error(self, code: ErrorCode, message: str) -> LogError:
        return event_error(self.index, message, code)


class LiveGame:
    """A game being played, judged one event at a time with the verifier's own checks (a table's referee).

    `check(raw)` reads a speed-log/1 event (a dict, as a log holds it) with the
    one parser and judges it against the table as it stands, exactly as the
    verifier would at that point of a log, raising the same `LogError`;
    `push(raw)` checks it and makes the move. Nothing about the rules lives
    here: the parser, the checks and `GameState.apply` are the verifier's.
    """

    __slots__ = ("_parse", "_verifier", "events", "previous", "standing")

    def __init__(self, ruleset: Ruleset, players: tuple[str, ...], deck: list[str]) -> None:
        verifier = _Verifier(None, record_steps=False)
        verifier.ruleset = ruleset
        verifier.players = players
        verifier.deck = [CARD_ID[name] for name in deck]
        verifier.state = GameState(ruleset, list(verifier.deck))
        self._verifier = verifier
        self._parse = event_parser(ruleset, players, verifier.state.draws)
        #: The events pushed so far, as given.
        self.events: list[dict[str, Any]] = []
        self.previous = 0
        #: The latest event that was not a collision, when it is a play: what a collision is judged against.
        self.standing: Play | None = None

    @property
    def state(self) -> GameState:
        state = self._verifier.state
        assert state is not None
        return state

    @property
    def ruleset(self) -> Ruleset:
        return self._verifier.ruleset

    def check(self, raw: dict[str, Any]) -> Any:
        """The typed event of `raw` if it may come next; `LogError` (the verifier's code and message) if not."""
        verifier, state = self._verifier, self.state
        verifier.index = len(self.events)
        event = self._parse(raw, verifier.index)
        if event.t < self.previous or state.winner is not None:
            verifier._check_clock(event.t, self.previous)
        if type(event) is Play:
            verifier._check_play(event, state)
        elif type(event) is Collision:
            verifier._check_collision(event, self.standing)
        elif type(event) is Stall:
            verifier._check_stall(event)
        elif type(event) is Reshuffle:
            verifier._check_reshuffle(event)
        elif type(event) is Move:
            verifier._check_move(event)
        elif type(event) is SpeedCall:
            verifier._check_speed(event)
        return event

    def push(self, raw: dict[str, Any]) -> Any:
        """Check `raw` (raising `LogError` when it may not come next), then make its move."""
        event = self.check(raw)
        if type(event) is not Collision:
            self.state.apply(event)
            self.standing = event if type(event) is Play else None
        self.previous = event.t
        self.events.append(raw)
        return event
