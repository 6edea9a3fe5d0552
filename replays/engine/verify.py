"""The verifier: replay a speed-log/1 document and judge it (spec sections 2-7).

Verification is strict, like python-chess's strict game reader: it stops at
the first error and says where. The checks run in the spec's precedence:
document format, ruleset ranges, the deck; then each event in turn (its
format, its clock, whether the game is already over, then its own checks in
the order the spec lists them); the claimed result last.

Plain verification records nothing per step; with `steps=True` it keeps a
`Step` after the deal and after each event that passed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import pairwise
from typing import Any

import orjson

from .cards import EMPTY_PILE, JOKER_RANK, RANK_OF, build_pack, fitting_ranks
from .errors import ErrorCode, LogError
from .rulesets import Ruleset, build_ruleset, read_ruleset_fields
from .state import GameState
from .text import clock, describe_event
from .verdict import Step, Verdict

FORMAT = "speed-log/1"
_REQUIRED_KEYS = ("format", "ruleset", "players", "deck", "events", "result")
_EVENT_TYPES = ("play", "collision", "stall", "reshuffle", "speed")


def verify_bytes(data: bytes | str, *, steps: bool = False) -> Verdict:
    """Parse and verify a log document; never raises on bad input."""
    try:
        document = parse_log(data)
    except LogError as error:
        return Verdict(error.code, None, error.message, None, steps=() if steps else None)
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
    verdict = verify_document(document, steps=steps)
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


def verify_document(document: object, *, steps: bool = False) -> Verdict:
    """Verify a parsed log document (the value `json.loads` returns)."""
    return _Verifier(document, record_steps=steps).run()


@cache
def _sorted_pack(decks: int, jokers: int) -> list[str]:
    """The pack sorted, for comparing with a sorted deck: faster than counting both."""
    return sorted(build_pack(decks=decks, jokers=jokers))


class _Verifier:
    """One verification. Event handlers raise `LogError` at the first fault."""

    def __init__(self, document: object, *, record_steps: bool) -> None:
        self.document = document
        self.steps: list[Step] | None = [] if record_steps else None
        self.players: tuple[str, ...] | None = None
        self.ruleset = Ruleset()
        self.state: GameState | None = None
        self.index = 0
        self.t = 0
        # The last event that was not a collision, for checking collisions:
        # (player, pile, t, rank the pile showed before it), or None when it
        # was not a play.
        self.standing_play: tuple[int, int, int, int] | None = None

    def run(self) -> Verdict:
        try:
            events, result = self._read_document()
            self._record(None, "The deal: starters turned face up.")
            self._replay(events)
            winner = self._check_result(result)
        except LogError as error:
            return Verdict(
                error.code,
                error.event,
                error.message,
                None,
                self.players,
                None if self.steps is None else tuple(self.steps),
            )
        if winner is None:
            message = "Verified: the game ended in a deadlock, no card can ever be played again."
        else:
            message = f"Verified: {self._who(winner)} won; every card of the {self.ruleset.pack_size}-card pack is accounted for."
        return Verdict(
            ErrorCode.OK,
            None,
            message,
            winner,
            self.players,
            None if self.steps is None else tuple(self.steps),
        )

    # -- the document (spec sections 2-4) ------------------------------------

    def _read_document(self) -> tuple[list[Any], dict[str, Any]]:
        document = self.document
        if not isinstance(document, dict):
            raise LogError(ErrorCode.BAD_FORMAT, "The log must be a JSON object.")
        missing = [key for key in _REQUIRED_KEYS if key not in document]
        if missing:
            raise LogError(ErrorCode.BAD_FORMAT, f"The log is missing {', '.join(f'`{key}`' for key in missing)}.")
        if document["format"] != FORMAT:
            raise LogError(ErrorCode.BAD_FORMAT, f'`format` is {document["format"]!r}; it must be "{FORMAT}".')
        fields = read_ruleset_fields(document["ruleset"])
        players = document["players"]
        if not isinstance(players, list) or not all(type(name) is str for name in players):
            raise LogError(ErrorCode.BAD_FORMAT, "`players` must be a list of names (strings), one per seat.")
        deck = document["deck"]
        if not isinstance(deck, list):
            raise LogError(ErrorCode.BAD_FORMAT, "`deck` must be a list of cards.")
        self._check_card_strings(deck, "`deck`")
        events = document["events"]
        if not isinstance(events, list):
            raise LogError(ErrorCode.BAD_FORMAT, "`events` must be a list.")
        result = document["result"]
        self._check_result_format(result)

        self.ruleset = ruleset = build_ruleset(fields)
        if len(players) != ruleset.players:
            raise LogError(
                ErrorCode.BAD_FORMAT,
                f"`players` names {len(players)} seats but the ruleset has {ruleset.players} players.",
            )
        self.players = tuple(players)
        winner = result.get("winner")
        if "winner" in result and not 0 <= winner < ruleset.players:
            raise LogError(
                ErrorCode.BAD_FORMAT,
                f"`result.winner` is {winner}; seats are numbered 0 to {ruleset.players - 1}.",
            )
        if sorted(deck) != _sorted_pack(ruleset.decks, ruleset.jokers):
            raise LogError(ErrorCode.BAD_DECK, self._deck_problem(deck))
        self.state = GameState(ruleset, deck)
        return events, result

    def _check_card_strings(self, cards: list[Any], where: str, *, in_event: bool = False) -> None:
        try:
            if set(cards) <= RANK_OF.keys():
                return
        except TypeError:  # an unhashable value (list, object) is certainly not a card
            pass
        for card in cards:
            if not (isinstance(card, str) and card in RANK_OF):
                message = f"{where} holds {json.dumps(card)}, which is not a card (rank A 2-10 J Q K then suit S H D C, or JK)."
                raise (
                    self._error(ErrorCode.BAD_FORMAT, message) if in_event else LogError(ErrorCode.BAD_FORMAT, message)
                )

    @staticmethod
    def _check_result_format(result: object) -> None:
        if not isinstance(result, dict):
            raise LogError(ErrorCode.BAD_FORMAT, '`result` must be an object: {"winner": seat} or {"deadlock": true}.')
        has_winner, has_deadlock = "winner" in result, "deadlock" in result
        if has_winner == has_deadlock:
            raise LogError(ErrorCode.BAD_FORMAT, '`result` must hold exactly one of "winner" and "deadlock".')
        if has_winner and type(result["winner"]) is not int:
            raise LogError(ErrorCode.BAD_FORMAT, f"`result.winner` must be a seat number, not {result['winner']!r}.")
        if has_deadlock and result["deadlock"] is not True:
            raise LogError(ErrorCode.BAD_FORMAT, f"`result.deadlock` can only be true, not {result['deadlock']!r}.")

    def _deck_problem(self, deck: list[str]) -> str:
        want = Counter(_sorted_pack(self.ruleset.decks, self.ruleset.jokers))
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
        state = self.state
        assert state is not None
        parsers = _PARSERS
        players, piles = self.ruleset.players, self.ruleset.center_piles
        hands, draws, top_ranks, fits_on = state.hands, state.draws, state.top_ranks, state.fits_on
        rank_of = RANK_OF.get
        recording = self.steps is not None
        for index, event in enumerate(events):
            self.index = index
            if type(event) is not dict:
                raise self._error(ErrorCode.BAD_FORMAT, "The event must be a JSON object.")
            t = event.get("t")
            kind = event.get("type")
            if type(t) is not int:
                raise self._error(ErrorCode.BAD_FORMAT, f"`t` must be whole milliseconds, not {t!r}.")
            if kind == "play" and "cards" not in event:
                # Most events are one card played from a hand: this is
                # `_parse_play` + `_check_clock` + `_play` inlined, in their order.
                seat = event.get("player")
                if type(seat) is not int or not 0 <= seat < players:
                    raise self._bad_seat(seat)
                pile = event.get("pile")
                if type(pile) is not int or not 0 <= pile < piles:
                    raise self._bad_pile(pile)
                card = event.get("card", "")  # "" is no card either: `_bad_card` tells which
                rank = rank_of(card) if type(card) is str else None
                if rank is None:
                    raise self._bad_card(event)
                if t < self.t or state.winner is not None:
                    self._check_clock(t)
                hand = hands[seat]
                if (
                    card not in hand
                    or not fits_on[rank][top_ranks[pile]]
                    or (rank == 0 and len(hand) == 1 and not draws[seat])
                ):
                    self._play(t, seat, pile, [card])  # raises with the precise reason
                self.t = t
                description = describe_event(event, self.players or (), state) if recording else None
                self.standing_play = (seat, pile, t, top_ranks[pile])
                state.play_card(seat, card, pile)
                if description is not None:
                    self._record(index, description)
                continue
            parse = parsers.get(kind) if type(kind) is str else None
            if parse is None:
                raise self._error(
                    ErrorCode.BAD_FORMAT, f"Unknown event type {kind!r}; expected one of {', '.join(_EVENT_TYPES)}."
                )
            parsed = parse(self, event)
            self._check_clock(t)
            self.t = t
            description = None if self.steps is None else describe_event(event, self.players or (), state)
            if kind == "play":
                self._play(t, *parsed)
            elif kind == "collision":
                self._collision(t, *parsed)
            elif kind == "stall":
                self._stall(t, parsed)
            elif kind == "reshuffle":
                self._reshuffle(t, parsed)
            else:
                self._speed(t, parsed)
            if kind not in ("play", "collision"):  # a collision leaves the standing play the reference
                self.standing_play = None
            if description is not None:
                self._record(index, description)

    def _check_clock(self, t: int) -> None:
        """The checks every event gets after its format: `time_reversed`, then `game_over`."""
        if t < self.t:
            before = "the start" if self.index == 0 else f"the previous event ({clock(self.t)})"
            raise self._error(ErrorCode.TIME_REVERSED, f"This event's t ({t} ms) is earlier than {before}.")
        state = self.state
        assert state is not None
        if state.winner is not None:
            raise self._error(
                ErrorCode.GAME_OVER,
                f"The game was already won by {self._who(state.winner)}; nothing may follow the call of Speed.",
            )

    # Parsers check an event's format and return its fields.

    def _bad_seat(self, seat: object, name: str = "player") -> LogError:
        return self._error(
            ErrorCode.BAD_FORMAT, f"`{name}` must be a seat from 0 to {self.ruleset.players - 1}, not {seat!r}."
        )

    def _bad_pile(self, pile: object) -> LogError:
        return self._error(
            ErrorCode.BAD_FORMAT,
            f"`pile` must be a centre pile from 0 to {self.ruleset.center_piles - 1}, not {pile!r}.",
        )

    def _bad_card(self, event: dict[str, Any]) -> LogError:
        if "card" not in event:
            what = (
                "A play needs `card` (or `cards` for a run)." if event.get("type") == "play" else "`card` is missing."
            )
            return self._error(ErrorCode.BAD_FORMAT, what)
        return self._error(ErrorCode.BAD_FORMAT, f"`card` is {json.dumps(event['card'])}, which is not a card.")

    def _seat_field(self, event: dict[str, Any]) -> int:
        seat = event.get("player")
        if type(seat) is not int or not 0 <= seat < self.ruleset.players:
            raise self._bad_seat(seat)
        return seat

    def _pile_field(self, event: dict[str, Any]) -> int:
        pile = event.get("pile")
        if type(pile) is not int or not 0 <= pile < self.ruleset.center_piles:
            raise self._bad_pile(pile)
        return pile

    def _card_field(self, event: dict[str, Any]) -> str:
        card = event.get("card")
        if type(card) is not str or card not in RANK_OF:
            raise self._bad_card(event)
        return card

    def _parse_play(self, event: dict[str, Any]) -> tuple[int, int, list[str]]:
        seat = self._seat_field(event)
        pile = self._pile_field(event)
        if "cards" not in event:
            return seat, pile, [self._card_field(event)]
        if "card" in event:
            raise self._error(ErrorCode.BAD_FORMAT, "A play has either `card` or `cards`, not both.")
        if not self.ruleset.multi_card:
            raise self._error(ErrorCode.BAD_FORMAT, "This ruleset has no runs (multi_card is off): play one `card`.")
        cards = event["cards"]
        if type(cards) is not list or not cards:
            raise self._error(ErrorCode.BAD_FORMAT, "`cards` must be a non-empty list of cards.")
        self._check_card_strings(cards, "`cards`", in_event=True)
        return seat, pile, cards

    def _parse_collision(self, event: dict[str, Any]) -> tuple[int, int, str]:
        return self._seat_field(event), self._pile_field(event), self._card_field(event)

    def _parse_stall(self, event: dict[str, Any]) -> list[int | None] | None:
        if self.ruleset.stalls_from_stacks:
            return None
        targets = event.get("piles")
        state = self.state
        assert state is not None
        if type(targets) is not list or len(targets) != self.ruleset.players:
            raise self._error(
                ErrorCode.BAD_FORMAT,
                f"A draw-pile stall needs `piles`: one entry per seat ({self.ruleset.players}), not {targets!r}.",
            )
        for seat, pile in enumerate(targets):
            if state.draws[seat]:
                if type(pile) is not int or not 0 <= pile < self.ruleset.center_piles:
                    raise self._error(
                        ErrorCode.BAD_FORMAT,
                        f"`piles[{seat}]` must name the centre pile (0 to {self.ruleset.center_piles - 1}) that "
                        f"{self._who(seat)} flips onto, not {pile!r}.",
                    )
            elif pile is not None:
                raise self._error(
                    ErrorCode.BAD_FORMAT,
                    f"`piles[{seat}]` must be null: {self._who(seat)} has no draw pile left to flip from.",
                )
        return targets

    def _parse_reshuffle(self, event: dict[str, Any]) -> list[str]:
        if not self.ruleset.stalls_from_stacks:
            raise self._error(ErrorCode.BAD_FORMAT, 'A game with stall_source "draw_piles" has no reshuffle.')
        order = event.get("order")
        if type(order) is not list:
            raise self._error(ErrorCode.BAD_FORMAT, "`order` must be the list of reshuffled cards, first card first.")
        self._check_card_strings(order, "`order`", in_event=True)
        return order

    def _parse_speed(self, event: dict[str, Any]) -> int:
        return self._seat_field(event)

    # Handlers check the rules for an event of the right format, then apply it.

    def _play(self, t: int, seat: int, pile: int, cards: list[str]) -> None:
        state = self.state
        assert state is not None
        hand = state.hands[seat]
        top_before = state.top_ranks[pile]
        if len(cards) == 1:
            card = cards[0]
            if card not in hand:
                raise self._error(
                    ErrorCode.NOT_IN_HAND,
                    f"{self._who(seat)} plays {card} at {clock(t)}, but their hand holds {' '.join(hand) or 'nothing'}.",
                )
            if not state.fits(card, pile):
                raise self._error(ErrorCode.NO_FIT, self._no_fit_message(seat, card, pile, t))
            if RANK_OF[card] == 0 and len(hand) == 1 and not state.draws[seat]:
                raise self._error(
                    ErrorCode.JOKER_LAST,
                    f"{self._who(seat)} plays a joker as their last card at {clock(t)}; a joker may never be the last card.",
                )
        else:
            self._check_run(t, seat, pile, cards)
        self.standing_play = (seat, pile, t, top_before)
        state.play(seat, cards, pile)

    def _check_run(self, t: int, seat: int, pile: int, cards: list[str]) -> None:
        state = self.state
        assert state is not None
        remaining = list(state.hands[seat])
        for card in cards:
            if card not in remaining:
                held = " ".join(state.hands[seat])
                raise self._error(
                    ErrorCode.NOT_IN_HAND,
                    f"{self._who(seat)} plays the run {' '.join(cards)} at {clock(t)}, but {card} is not in their "
                    f"hand ({held}) {'as many times as the run uses it' if card in state.hands[seat] else ''}".rstrip()
                    + ".",
                )
            remaining.remove(card)
        if not state.fits(cards[0], pile):
            raise self._error(ErrorCode.NO_FIT, self._no_fit_message(seat, cards[0], pile, t))
        for before, card in pairwise(cards):
            if not state.fits_on[RANK_OF[card]][RANK_OF[before]]:
                raise self._error(
                    ErrorCode.NO_FIT,
                    f"{self._who(seat)}'s run {' '.join(cards)} at {clock(t)} breaks at {card}: it does not fit on "
                    f"{before} (fits: {', '.join(fitting_ranks(RANK_OF[before], same_rank=self.ruleset.same_rank))}).",
                )
        if RANK_OF[cards[-1]] == 0 and not remaining and not state.draws[seat]:
            raise self._error(
                ErrorCode.JOKER_LAST,
                f"{self._who(seat)}'s run at {clock(t)} ends with a joker as their last card; a joker may never be "
                "the last card.",
            )

    def _no_fit_message(self, seat: int, card: str, pile: int, t: int) -> str:
        state = self.state
        assert state is not None
        top = state.top_ranks[pile]
        if top == EMPTY_PILE:
            return f"{self._who(seat)} plays {card} on pile {pile} at {clock(t)}, but pile {pile} is empty."
        showing = state.piles[pile][-1]
        if top == JOKER_RANK:
            return (
                f"{self._who(seat)} plays JK on pile {pile} at {clock(t)}, but pile {pile} shows JK and "
                "this ruleset does not allow a joker on a joker (joker_on_joker is off)."
            )
        fits = ", ".join(fitting_ranks(top, same_rank=self.ruleset.same_rank))
        return (
            f"{self._who(seat)} plays {card} on pile {pile} at {clock(t)}, but pile {pile} shows {showing}: "
            f"only {fits} or a joker fit there."
        )

    def _collision(self, t: int, seat: int, pile: int, card: str) -> None:
        state = self.state
        assert state is not None
        standing = self.standing_play
        what = f"{self._who(seat)}'s collision with {card} on pile {pile} at {clock(t)}"
        if standing is None:
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what} follows no play: a collision records a card "
                "taken back from a play that landed at the same moment.",
            )
        standing_seat, standing_pile, standing_t, top_before = standing
        if standing_pile != pile or standing_t != t:
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what} (t={t} ms) does not match the play it follows (pile {standing_pile}, t={standing_t} ms): "
                "a collision shares the pile and the moment of the card that stands.",
            )
        if standing_seat == seat:
            raise self._error(ErrorCode.BAD_COLLISION, f"{what} follows that same player's own play.")
        if card not in state.hands[seat]:
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what}: {card} is not in their hand ({' '.join(state.hands[seat]) or 'empty'}).",
            )
        if not state.fits_on[RANK_OF[card]][top_before]:
            raise self._error(
                ErrorCode.BAD_COLLISION,
                f"{what}: {card} would not have fitted the pile before the standing play.",
            )

    def _check_nobody_can_move(self, t: int, what: str) -> None:
        state = self.state
        assert state is not None
        seat = state.first_mover()
        if seat is not None:
            card, pile = state.legal_single_plays(seat)[0]
            showing = state.piles[pile][-1]
            raise self._error(
                ErrorCode.STALL_WITH_MOVE,
                f"{what} at {clock(t)}, but {self._who(seat)} can still move: {card} fits on pile {pile} ({showing}).",
            )

    def _stall(self, t: int, targets: list[int | None] | None) -> None:
        state = self.state
        assert state is not None
        self._check_nobody_can_move(t, "A stall is called")
        if targets is None:
            if not any(state.stacks):
                raise self._error(
                    ErrorCode.STACKS_EMPTY,
                    f"A stall is called at {clock(t)}, but every replacement stack is empty: the log must say "
                    "`reshuffle` instead.",
                )
            state.flip_stacks()
        else:
            if not any(state.draws):
                raise self._error(
                    ErrorCode.STACKS_EMPTY,
                    f"A stall is called at {clock(t)}, but no player has a draw-pile card left to flip: the game can "
                    "only end as a deadlock.",
                )
            state.flip_draw_piles(targets)

    def _reshuffle(self, t: int, order: list[str]) -> None:
        state = self.state
        assert state is not None
        self._check_nobody_can_move(t, "A reshuffle is called")
        if any(state.stacks):
            left = ", ".join(f"stack {index}: {len(stack)}" for index, stack in enumerate(state.stacks) if stack)
            raise self._error(
                ErrorCode.STACKS_NOT_EMPTY,
                f"A reshuffle is called at {clock(t)}, but replacement cards are left ({left}): flip them with a "
                "`stall` first.",
            )
        gathered = state.gathered_centre()
        if sorted(order) != sorted(gathered):
            want, have = Counter(gathered), Counter(order)
            missing = " ".join(sorted((want - have).elements())) or "none"
            extra = " ".join(sorted((have - want).elements())) or "none"
            raise self._error(
                ErrorCode.BAD_SHUFFLE,
                f"The reshuffle at {clock(t)} must hold exactly the {len(gathered)} centre cards; it has "
                f"{len(order)}. Missing: {missing}. Not from the centre: {extra}.",
            )
        state.reshuffle(order)

    def _speed(self, t: int, seat: int) -> None:
        state = self.state
        assert state is not None
        if state.hands[seat] or state.draws[seat]:
            raise self._error(
                ErrorCode.NOT_FINISHED,
                f"{self._who(seat)} calls Speed at {clock(t)} with {len(state.hands[seat])} cards in hand and "
                f"{len(state.draws[seat])} in the draw pile.",
            )
        state.winner = seat

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
            remedy = "a reshuffle" if self.ruleset.stalls_from_stacks else "a stall"
            raise LogError(
                ErrorCode.RESULT_MISMATCH,
                f"The result claims a deadlock, but {remedy} could still free a move: the game was not over.",
            )
        return None

    # -- helpers --------------------------------------------------------------

    def _who(self, seat: int) -> str:
        if self.players is not None and 0 <= seat < len(self.players):
            return f"seat {seat} ({self.players[seat]})"
        return f"seat {seat}"

    def _error(self, code: ErrorCode, message: str) -> LogError:
        return LogError(code, f"Event {self.index}: {message}", self.index)

    def _record(self, index: int | None, description: str) -> None:
        if self.steps is None:
            return
        state = self.state
        assert state is not None
        self.steps.append(
            Step(
                event=index,
                t=self.t,
                description=description,
                hands=tuple(tuple(hand) for hand in state.hands),
                draws=tuple(len(draw) for draw in state.draws),
                piles=tuple(len(pile) for pile in state.piles),
                pile_tops=tuple(state.pile_tops()),
                stacks=tuple(len(stack) for stack in state.stacks),
            )
        )


# Event type -> the `_Verifier` method that checks its format and returns its fields.
_PARSERS: dict[str, Callable[[_Verifier, dict[str, Any]], Any]] = {
    "play": _Verifier._parse_play,
    "collision": _Verifier._parse_collision,
    "stall": _Verifier._parse_stall,
    "reshuffle": _Verifier._parse_reshuffle,
    "speed": _Verifier._parse_speed,
}
