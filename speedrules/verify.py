"""The verifier: replay a speed-log/1 document and judge it (spec sections 2-7).

Verification is strict, like python-chess's strict game reader: it stops at
the first error and says where. The checks run in the spec's precedence:
document format, ruleset ranges, the deck; then each event in turn (its
format, read by the one parser of `events.py` into a typed event; its clock;
whether the game is already over; then its own checks in the order the spec
lists them); the claimed result last.

There is one lane: the verifier pushes each event through a `judge.Judge`,
the object a live table's referee pushes its events through: the parser of
`events.py` reads the event, the judge's checks judge it (they only read the
table), and `GameState.apply` makes the move. This module judges the rest:
the document, its deck and its claimed result. Plain verification records
nothing per step; with `steps=True` the verdict keeps the judge's deck and
the events that passed, and `steps.StepReplay` builds the `Step` values from
them the first time they are read, through the same parser and
`GameState.apply`: recording is an addition, never a second set of rules.
"""

from __future__ import annotations

import json
from collections import Counter
from operator import add, itemgetter
from typing import Any

import orjson

from .cards import CARD_ID, CARD_NAMES, sorted_pack
from .errors import ErrorCode, LogError
from .events import PassedPlays, card_problem, who
from .judge import Judge
from .rulesets import TEAMS_FIELD, Ruleset, build_ruleset, read_ruleset_fields
from .state import GameState
from .steps import StepReplay
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
ENDED_EARLY = ("resign", "claim", "no_show", "time")


def _ended_early(document: dict[str, Any]) -> str | None:
    """A table log's `table.ended.by` ("resign", "claim", "no_show", "time": a timed game's limit), or None.

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

    __slots__ = ("document", "ended", "judge", "players", "record_steps", "ruleset")

    def __init__(self, document: object, *, record_steps: bool) -> None:
        self.document = document
        self.record_steps = record_steps
        self.players: tuple[str, ...] | None = None
        self.ruleset = _STANDARD
        self.judge: Judge | None = None  # dealt once the document and its deck pass
        self.ended: str | None = None  # how a table's game ended early: its result is not the events'

    def run(self) -> Verdict:
        try:
            judge, events, result = self._read_document()
            # Each event in turn, as the judge of a live table takes them; the first refusal ends the log.
            push = judge.push
            for raw in events:
                push(raw)
            winner = None if self.ended is not None else self._check_result(result, judge.state)
        except LogError as error:
            # The events pushed passed: those before the one at fault (all of them, for `result_mismatch`).
            return Verdict(error.code, error.event, error.message, None, self.players, None, self._steps())
        state = judge.state
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
            self._steps(),
            team,
            PassedPlays(ruleset, judge.players, judge.events),
        )

    def _steps(self) -> StepReplay | tuple[()] | None:
        """The steps of the events that passed, when they are recorded: the judge's deck and events."""
        if not self.record_steps:
            return None
        judge = self.judge
        if judge is None:  # rejected before the deal
            return ()
        return StepReplay(judge.ruleset, judge.deck, judge.events, judge.players)

    # -- the document (spec sections 2-4) ------------------------------------

    def _read_document(self) -> tuple[Judge, list[Any], dict[str, Any]]:
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
        self.judge = judge = Judge.from_cards(ruleset, self.players, cards)
        return judge, events, result

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

    # -- the result (spec section 6) -----------------------------------------

    def _check_result(self, result: dict[str, Any], state: GameState) -> int | None:
        """The winner the result names, if it is the events' (None for a deadlock); `result_mismatch` if not."""
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
