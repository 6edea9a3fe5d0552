"""Rulesets: the parameter sets of speed-log/1 (spec section 3) and the named presets.

Reading a ruleset from a log happens in two steps because the spec orders
them: a field of the wrong JSON type is `bad_format` (checked with every other
format error of the document), a value out of range is `bad_ruleset`
(checked only once the whole document is well formed).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import orjson

from .errors import ErrorCode, LogError

STALL_FROM_STACKS = "stacks"
STALL_FROM_DRAW_PILES = "draw_piles"

# field -> (default, inclusive range); booleans and strings have no range.
_INT_FIELDS: dict[str, tuple[int, int, int]] = {
    "players": (2, 2, 4),
    "decks": (1, 1, 2),
    "jokers": (0, 0, 4),
    "hand_size": (5, 1, 7),
    "center_piles": (2, 1, 8),
    "stacks": (2, 0, 8),
    "stack_size": (5, 0, 20),
}
_BOOL_FIELDS: dict[str, bool] = {"same_rank": False, "joker_on_joker": False, "multi_card": False}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One game's parameters; construct through `ruleset_from_json` or `PRESETS`."""

    players: int = 2
    decks: int = 1
    jokers: int = 0
    hand_size: int = 5
    center_piles: int = 2
    stacks: int = 2
    stack_size: int = 5
    stall_source: str = STALL_FROM_STACKS
    same_rank: bool = False
    joker_on_joker: bool = False
    multi_card: bool = False

    @property
    def pack_size(self) -> int:
        return 52 * self.decks + self.jokers

    @property
    def draw_size(self) -> int:
        """Cards in each player's draw pile after the deal (valid rulesets only)."""
        return (self.pack_size - self.center_piles - self.stacks * self.stack_size) // self.players - self.hand_size

    @property
    def stalls_from_stacks(self) -> bool:
        return self.stall_source == STALL_FROM_STACKS

    def to_json(self) -> dict[str, Any]:
        """All fields, as a log's `ruleset` object."""
        return asdict(self)


#: The ruleset fields as `read_ruleset_fields` returns them: each field's value, in `Ruleset`'s order.
RulesetFields = tuple[Any, ...]

_FIELD_NAMES: tuple[str, ...] = (*_INT_FIELDS, "stall_source", *_BOOL_FIELDS)
_INT_DEFAULTS = tuple((name, default) for name, (default, _low, _high) in _INT_FIELDS.items())
_BOOL_DEFAULTS = tuple(_BOOL_FIELDS.items())


# Readings already made, by the ruleset object's exact JSON text (which tells 2 from 2.0
# and true from 1, as the type checks must). Bounded: a few rulesets serve most logs.
_READINGS: dict[bytes, RulesetFields] = {}
_MAX_READINGS = 256


def read_ruleset_fields(value: object) -> RulesetFields:
    """The ruleset object's known fields with defaults filled in; wrong JSON types are `bad_format`."""
    if not isinstance(value, dict):
        raise LogError(ErrorCode.BAD_FORMAT, "`ruleset` must be an object ({} for the standard game).")
    try:
        text = orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError: not plain JSON (an integer beyond 64 bits...)
        return _read_fields(value)
    fields = _READINGS.get(text)
    if fields is None:
        fields = _read_fields(value)
        if len(_READINGS) < _MAX_READINGS:
            _READINGS[text] = fields
    return fields


def _read_fields(value: dict[str, Any]) -> RulesetFields:
    get = value.get
    fields: list[Any] = []
    for name, default in _INT_DEFAULTS:
        field = get(name, default)
        if type(field) is not int:
            raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.{name}` must be a whole number, not {field!r}.")
        fields.append(field)
    flags: list[bool] = []
    for name, flag_default in _BOOL_DEFAULTS:
        flag = get(name, flag_default)
        if type(flag) is not bool:
            raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.{name}` must be true or false, not {flag!r}.")
        flags.append(flag)
    source = get("stall_source", STALL_FROM_STACKS)
    if not isinstance(source, str):
        raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.stall_source` must be a string, not {source!r}.")
    # Every value now has its field's exact type, so equal tuples are equal rulesets: the cache key.
    return (*fields, source, *flags)


def build_ruleset(fields: RulesetFields) -> Ruleset:
    """Range and consistency checks of spec section 3; failures are `bad_ruleset`."""
    return _checked_ruleset(fields)


@cache  # a few rulesets serve almost every log; an error is raised, never cached
def _checked_ruleset(values: RulesetFields) -> Ruleset:
    fields = dict(zip(_FIELD_NAMES, values, strict=True))
    for name, (_default, low, high) in _INT_FIELDS.items():
        if not low <= fields[name] <= high:
            raise LogError(
                ErrorCode.BAD_RULESET, f"`ruleset.{name}` is {fields[name]}; it must be from {low} to {high}."
            )
    ruleset = Ruleset(**fields)
    if ruleset.stall_source not in (STALL_FROM_STACKS, STALL_FROM_DRAW_PILES):
        raise LogError(
            ErrorCode.BAD_RULESET,
            f'`ruleset.stall_source` is {ruleset.stall_source!r}; it must be "stacks" or "draw_piles".',
        )
    if ruleset.stacks not in (0, ruleset.center_piles):
        raise LogError(
            ErrorCode.BAD_RULESET,
            f"`ruleset.stacks` is {ruleset.stacks}; it must be 0 or equal to center_piles ({ruleset.center_piles}).",
        )
    if ruleset.stacks == 0 and ruleset.stalls_from_stacks:
        raise LogError(ErrorCode.BAD_RULESET, 'A game with no replacement stacks needs stall_source "draw_piles".')
    if ruleset.stacks > 0 and not ruleset.stalls_from_stacks:
        raise LogError(ErrorCode.BAD_RULESET, 'A game with stall_source "draw_piles" must have stacks 0.')
    remaining = ruleset.pack_size - ruleset.center_piles - ruleset.stacks * ruleset.stack_size
    if remaining < 0 or remaining % ruleset.players or remaining // ruleset.players < ruleset.hand_size:
        raise LogError(
            ErrorCode.BAD_RULESET,
            f"The pack of {ruleset.pack_size} cards cannot be dealt: after {ruleset.center_piles} starters and "
            f"{ruleset.stacks}x{ruleset.stack_size} replacement cards, {remaining} cards do not split into "
            f"{ruleset.players} equal shares of at least {ruleset.hand_size}.",
        )
    return ruleset


def ruleset_from_json(value: object) -> Ruleset:
    """A checked ruleset from a log's `ruleset` object (raises `LogError`)."""
    return build_ruleset(read_ruleset_fields(value))


PRESETS: dict[str, Ruleset] = {
    "speed": Ruleset(),
    "doubles": Ruleset(same_rank=True),
    "jokers-wild": Ruleset(jokers=2),
    "three-card-hands": Ruleset(hand_size=3),
    "seven-card-stacks": Ruleset(stack_size=7),
    "runs-at-once": Ruleset(multi_card=True),
    "california": Ruleset(hand_size=4, center_piles=4, stacks=0, stall_source=STALL_FROM_DRAW_PILES),
    "three-way": Ruleset(players=3, jokers=2, center_piles=3, stacks=3),
    "four-way": Ruleset(players=4, decks=2, center_piles=4, stacks=4),
}
